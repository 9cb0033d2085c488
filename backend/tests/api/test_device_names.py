"""Device host names through the API: a hall template with counters, overrides and asset tags, the
CSV upload (all or nothing, errors naming line and column), and every export printing the names."""

from __future__ import annotations

import csv
import io
import zipfile
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader


@pytest.fixture
def small(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """Row R01 of two racks, each one logical rack of 3 servers (U1-U3) with its ToR on top (U4)."""
    tpl = {"rack_type_id": h.cat.rack, "logical_racks": [h.lr(servers=3)]}
    row = h.row(owner, hall["id"], "R01", n=2, rack_template=tpl)
    racks = sorted(row["racks"], key=lambda k: k["position_m"])
    return {"hall": hall, "racks": [k["name"] for k in racks], "url": f"/api/v1/halls/{hall['id']}/device-names"}


def _names(owner: TestClient, url: str) -> dict[str, Any]:
    r = owner.get(url, params={"limit": 500})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_template_names_every_device_and_overrides_win(owner: TestClient, small: dict[str, Any]) -> None:
    url, (k1, k2), hall = small["url"], small["racks"], small["hall"]["name"]
    before = _names(owner, url)
    assert (before["template"], before["version"], before["total"]) == (None, 0, 8)
    first = before["items"][0]
    assert first == {
        "device": f"{hall}.R01.{k1}.U01",
        "row": "R01",
        "rack": k1,
        "u": 1,
        "role": "server",
        "name": f"{hall}.R01.{k1}.U01",
        "source": "location",
        "host_name": None,
        "asset_tag": None,
    }
    assert owner.patch(url, json={"template": "{row}{rack:02}-s{u:02}"}).status_code == 428
    r = owner.patch(
        url,
        json={
            "template": "{row}{rack:02}-s{u:02}",
            "overrides": [{"device": f"{hall}.R01.{k2}.U04", "host_name": "tor-b", "asset_tag": "AT-42"}],
        },
        headers={"If-Match": '"0"'},
    )
    assert r.status_code == 200, r.text
    assert r.headers["etag"] == '"1"'
    got = {d["device"]: (d["name"], d["source"], d["asset_tag"]) for d in r.json()["items"]}
    # Rack 1 of R01 is the one at the row's origin; U padded to two digits.
    assert got[f"{hall}.R01.{k1}.U01"] == ("R0101-s01", "template", None)
    assert got[f"{hall}.R01.{k1}.U04"] == ("R0101-s04", "template", None)
    assert got[f"{hall}.R01.{k2}.U03"] == ("R0102-s03", "template", None)
    assert got[f"{hall}.R01.{k2}.U04"] == ("tor-b", "override", "AT-42")
    # Only the template changes, the override stays.
    r = owner.patch(url, json={"template": "n{n}-r{rack}"}, headers={"If-Match": '"1"'})
    got = {d["device"]: d["name"] for d in r.json()["items"]}
    assert (got[f"{hall}.R01.{k1}.U02"], got[f"{hall}.R01.{k2}.U04"]) == ("n2-r1", "tor-b")


def test_a_collision_is_refused_naming_both_devices_and_nothing_changes(
    owner: TestClient, small: dict[str, Any]
) -> None:
    url, (k1, k2), hall = small["url"], small["racks"], small["hall"]["name"]
    r = owner.patch(url, json={"template": "{row}-s{u:02}"}, headers={"If-Match": '"0"'})
    assert r.status_code == 422
    assert r.json()["detail"] == [
        {
            "loc": ["template"],
            "field": "template",
            "msg": f"{hall}.R01.{k1}.U01 and {hall}.R01.{k2}.U01 would both be named 'R01-s01': host names must be "
            "unique in the hall",
        }
    ]
    r = owner.patch(url, json={"template": "{rack_no}"}, headers={"If-Match": '"0"'})
    assert r.status_code == 422 and r.json()["detail"][0]["msg"].startswith("unknown field {rack_no}")
    after = _names(owner, url)
    assert (after["template"], after["version"]) == (None, 0)


def test_the_csv_upload_is_all_or_nothing_and_names_line_and_column(
    owner: TestClient, small: dict[str, Any], h: SimpleNamespace
) -> None:
    url, (k1, k2), hall = small["url"], small["racks"], small["hall"]["name"]
    bad = (
        "device,host_name,asset_tag\n"
        f"{hall}.R01.{k1}.U01,web-01,A1\n"
        f"{hall}.R01.{k1}.U09,web-02,\n"
        f"{hall}.R01.{k1}.U02,-bad-,\n"
    )
    r = owner.post(f"{url}/import", json={"csv": bad}, headers={"If-Match": '"0"'})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert [(d["loc"], d["msg"].split(":")[0]) for d in detail] == [
        (["csv", "line[3]", "device"], "line 3, column device"),
        (["csv", "line[4]", "host_name"], "line 4, column host_name"),
    ]
    assert _names(owner, url)["version"] == 0  # line 2 was fine, and still nothing was applied
    good = f"device,host_name,asset_tag\n{hall}.R01.{k1}.U01,web-01,A1\n{hall}.R01.{k2}.U01,web-02,\n"
    r = owner.post(f"{url}/import", json={"csv": good}, headers={"If-Match": '"0"'})
    assert r.status_code == 200, r.text
    named = {d["device"]: d["name"] for d in r.json()["items"] if d["source"] == "override"}
    assert named == {f"{hall}.R01.{k1}.U01": "web-01", f"{hall}.R01.{k2}.U01": "web-02"}
    # The download lists every device and reads back as no change.
    download = owner.get(f"/api/v1/halls/{small['hall']['id']}/device-names.csv")
    rows = list(csv.DictReader(io.StringIO(download.text)))
    assert len(rows) == 8 and rows[0] == {
        "device": f"{hall}.R01.{k1}.U01",
        "host_name": "web-01",
        "asset_tag": "A1",
        "name": "web-01",
    }
    r = owner.post(f"{url}/import", json={"csv": download.text}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and {d["device"]: d["name"] for d in r.json()["items"]} == {
        d["device"]: d["name"] for d in rows
    }
    # A viewer reads the names but cannot change them.
    viewer = h.client("v@example.com")
    token = owner.post(
        f"/api/v1/projects/{small['hall']['project_id']}/invitations", json={"email": "v@example.com", "role": "viewer"}
    ).json()["token"]
    viewer.post("/api/v1/auth/invitations/accept", json={"token": token})
    assert viewer.get(url).status_code == 200
    assert viewer.post(f"{url}/import", json={"csv": good}, headers={"If-Match": '"2"'}).status_code == 403


def test_exports_print_host_names(owner: TestClient, small: dict[str, Any], h: SimpleNamespace) -> None:
    hall = small["hall"]
    url, (k1, _), hn = small["url"], small["racks"], hall["name"]
    spines = [{"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}]
    row_id = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()["rows"][0]["id"]
    r = owner.post(f"/api/v1/rows/{row_id}/racks", json={"name": "NET", "role": "network", "fabric_switches": spines})
    assert r.status_code == 201, r.text
    r = owner.patch(
        url,
        json={
            "template": "{row}{rack:02}-{role}{u:02}",
            "overrides": [{"device": f"{hn}.R01.{k1}.U01", "asset_tag": "AT-1"}],
        },
        headers={"If-Match": '"0"'},
    )
    assert r.status_code == 200, r.text
    plan = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert plan.status_code == 201, plan.text
    pid = plan.json()["id"]
    sheet = list(csv.DictReader(io.StringIO(owner.get(f"/api/v1/wiring-plans/{pid}/exports/wiring-sheet.csv").text)))
    first = next(r for r in sheet if r["a_device"] == "R0101-server01" or r["b_device"] == "R0101-server01")
    ends = {(first["a_device"], first["a_u"]), (first["b_device"], first["b_u"])}
    assert ends == {("R0101-server01", "1"), ("R0101-tor04", "4")}
    tags = {(first["a_device"], first["a_asset_tag"]), (first["b_device"], first["b_asset_tag"])}
    assert tags == {("R0101-server01", "AT-1"), ("R0101-tor04", "")}
    assert first["label"] in {"R0101-server01:p1 / R0101-tor04:e1", "R0101-tor04:e1 / R0101-server01:p1"}
    # The cable ID is the same as without names: it comes from the locations.
    api = owner.get(f"/api/v1/wiring-plans/{pid}/cables", params={"limit": 500}).json()["items"]
    assert {c["cable_id"] for c in api} == {r["cable_id"] for r in sheet}
    assert {r["a_device"] for r in sheet} | {r["b_device"] for r in sheet} >= {"R0103-spine20"}
    archive = zipfile.ZipFile(io.BytesIO(owner.get(f"/api/v1/wiring-plans/{pid}/exports/netbox.zip").content))
    devices = list(csv.DictReader(io.StringIO(archive.read("07-devices.csv").decode())))
    by_name = {d["name"]: d for d in devices}
    assert by_name["R0101-server01"]["asset_tag"] == "AT-1"
    assert by_name["R0101-server01"]["position"] == "1"
    assert by_name["R0102-tor04"]["asset_tag"] == ""
    cables = list(csv.DictReader(io.StringIO(archive.read("08-cables.csv").decode())))
    # Every cable end refers to a device of the devices file, by host name.
    assert {c["side_a_device"] for c in cables} | {c["side_b_device"] for c in cables} <= set(by_name)
    assert not any(n.startswith(hn + ".") for n in by_name)

    # Labels and the printable sheet of row R01 print the host names too (the label's two lines).
    labels = owner.get(f"/api/v1/wiring-plans/{pid}/exports/labels.pdf", params={"row": "R01"})
    assert labels.status_code == 200 and labels.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(labels.content)).pages)
    assert "R0101-server01:p1" in text and "R0101-tor04:e" in text
    assert f"{hn}.R01." not in text
    printed = owner.get(f"/api/v1/wiring-plans/{pid}/exports/wiring-sheet.pdf", params={"row": "R01"})
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(printed.content)).pages)
    assert "U01 R0101-server01 front p1" in text and "U04 R0101-tor04 front e1" in text
