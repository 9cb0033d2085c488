"""The project price book (versions, If-Match, audit, roles, scopes, CSV) and the BOM it prices
(hand-derived totals, CSV, ETag/304), through the API on a small stored hall."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import PduModel, Rack, RackFeed

TOR = "48x25G+8x100G ToR"
SPINE = "64x100G spine"


@pytest.fixture
def small_plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """One rack with one logical rack of 2 servers (single-homed, p = 1) and a network rack with one
    spine beside it; the project's fabric is leaf-spine with 4 uplinks per ToR."""
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 1,
            "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [h.lr(servers=2, ports=1)]}}  # fmt: skip
    row = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).json()
    spine = {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}
    r = owner.post(
        f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [spine]}
    )
    assert r.status_code == 201, r.text
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "a", "pattern": "single-homed", "ports": 1}
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def book_url(project: int) -> str:
    return f"/api/v1/projects/{project}/price-book"


def test_bom_totals_by_hand_and_a_project_price_changes_them(owner: TestClient, small_plan: dict[str, Any]) -> None:
    # The plan: 2 server-ToR DACs inside the rack (< 0.5 m routed: ordered 0.5 m) and 4 ToR-spine
    # uplinks, optical by default, 3.934 m routed -> 4.446 m with slack -> a 5 m AOC.
    # Default prices: DAC-25G = 22.50 + 4.50/m -> 24.75; AOC-100G = 240 + 8/m -> 280.
    bom = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}/bom").json()
    lines = {(x["part_number"], x["length_m"]): x for x in bom["lines"]}
    assert set(lines) == {("AOC-100G", 5.0), ("DAC-25G", 0.5), (TOR, None), (SPINE, None)}
    assert (lines["DAC-25G", 0.5]["quantity"], lines["DAC-25G", 0.5]["unit_price"]) == (2, 24.75)
    assert (lines["AOC-100G", 5.0]["quantity"], lines["AOC-100G", 5.0]["total"]) == (4, 1120.0)
    assert bom["total"] == 49.5 + 1120.0
    assert bom["media_subtotals"] == {"copper": 49.5, "optical": 1120.0}
    assert (bom["currency"], bom["price_book_version"]) == ("USD", None)
    # switches have no default price: visible, not a silent zero
    assert bom["complete"] is False
    assert bom["unpriced"] == [{"category": "switch", "part_number": TOR}, {"category": "switch", "part_number": SPINE}]
    assert lines[TOR, None]["unit_price"] is None and lines[TOR, None]["price_source"] is None
    summary = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}").json()["summary"]
    assert summary["cost"]["total"] == bom["total"] and summary["cost"]["complete"] is False
    assert f"no price for switch '{TOR}': add it to the price book" in summary["warnings"]

    project = small_plan["project_id"]
    table = {p["part_number"]: p for p in owner.get(f"{book_url(project)}/parts").json()["items"]}
    assert (table[TOR]["base_price"], table[TOR]["source"], table[TOR]["category"], table[TOR]["used"]) == (
        None, None, "switch", True,
    )  # fmt: skip
    assert (table["DAC-25G"]["base_price"], table["DAC-25G"]["per_metre"], table["DAC-25G"]["source"]) == (
        22.5, 4.5, "default",
    )  # fmt: skip
    r = owner.patch(
        book_url(project),
        json={"upsert": [
            {"part_number": TOR, "category": "switch", "base_price": 9000},
            {"part_number": SPINE, "category": "switch", "base_price": 30000},
            {"part_number": "DAC-25G", "category": "cable", "base_price": 10, "per_metre": 2},
        ]},
        headers={"If-Match": '"0"'},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1 and r.headers["etag"] == '"1"'
    bom = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}/bom").json()
    # DAC 10 + 2 x 0.5 = 11 each; the AOCs keep their default price
    assert bom["total"] == 2 * 11 + 1120 + 9000 + 30000
    assert bom["complete"] is True and bom["price_book_version"] == 1
    assert bom["subtotals"] == {"cable": 1142.0, "transceiver": 0.0, "switch": 39000.0, "nic": 0.0, "pdu": 0.0}
    sources = {x["part_number"]: x["price_source"] for x in bom["lines"]}
    assert sources == {"AOC-100G": "default", "DAC-25G": "project", TOR: "project", SPINE: "project"}
    listed = owner.get(f"/api/v1/projects/{project}/wiring-plans").json()["items"][0]["summary"]["cost"]
    assert (listed["total"], listed["switches"], listed["price_book_version"]) == (40142.0, 39000.0, 1)


def test_price_book_versions_if_match_and_audit(owner: TestClient, project: int) -> None:
    url = book_url(project)
    first = owner.get(url)
    assert first.json() == {
        "project_id": project, "currency": "USD", "version": 0, "entries": [], "updated_at": None, "updated_by": None,
    }  # fmt: skip
    assert first.headers["etag"] == '"0"'
    entry = {"part_number": "DAC-25G", "category": "cable", "base_price": 20, "per_metre": 4}
    assert owner.put(url, json={"currency": "EUR", "entries": [entry]}).status_code == 428
    stale = owner.put(url, json={"currency": "EUR", "entries": [entry]}, headers={"If-Match": '"3"'})
    assert stale.status_code == 409 and stale.json()["current_version"] == 0
    r = owner.put(url, json={"currency": "EUR", "entries": [entry]}, headers={"If-Match": '"0"'})
    assert r.status_code == 200 and r.json()["version"] == 1 and r.json()["updated_by"] == "owner@example.com"
    again = owner.put(url, json={"currency": "EUR", "entries": []}, headers={"If-Match": '"0"'})
    assert again.status_code == 409, "a second first write is stale"
    r = owner.patch(url, json={"upsert": [{**entry, "base_price": 25}]}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["entries"][0]["base_price"] == 25 and r.json()["currency"] == "EUR"
    r = owner.patch(url, json={"remove": ["NOPE"]}, headers={"If-Match": '"2"'})
    assert r.status_code == 404 and r.json()["detail"][0]["field"] == "remove.0"
    bad = owner.patch(url, json={"upsert": [{**entry, "base_price": -1}]}, headers={"If-Match": '"2"'})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"][-1] == "base_price"
    twice = owner.put(url, json={"currency": "EUR", "entries": [entry, entry]}, headers={"If-Match": '"2"'})
    assert twice.status_code == 422 and twice.json()["detail"][0]["field"] == "entries.1.part_number"

    versions = owner.get(f"{url}/versions").json()
    assert [(v["version"], v["currency"], v["entries"]) for v in versions["items"]] == [(2, "EUR", 1), (1, "EUR", 1)]
    v1 = owner.get(f"{url}/versions/1").json()
    assert v1["entries"][0]["base_price"] == 20 and v1["version"] == 1
    assert owner.get(f"{url}/versions/3").status_code == 404

    log = owner.get(f"/api/v1/projects/{project}/audit", params={"resource_type": "price_book"}).json()["items"]
    assert [e["action"] for e in log] == ["update", "create"]
    assert log[1]["before"] == {"currency": "USD", "entries": {}}
    assert log[1]["after"] == {"currency": "EUR", "entries": {"DAC-25G": [20.0, 4.0]}}
    assert log[0]["before"]["entries"] == {"DAC-25G": [20.0, 4.0]}
    assert log[0]["after"]["entries"] == {"DAC-25G": [25.0, 4.0]}


def _member(owner: TestClient, project: int, h: SimpleNamespace, email: str, role: str) -> TestClient:
    client = h.client(email)
    h.join(owner, client, project, email, role)
    return client


def _token(client: TestClient, *scopes: str) -> dict[str, str]:
    r = client.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_price_book_roles_and_scopes(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    url = book_url(project)
    body = {"currency": "USD", "entries": []}
    viewer = _member(owner, project, h, "viewer@example.com", "viewer")
    editor = _member(owner, project, h, "editor@example.com", "editor")
    stranger = h.client("stranger@example.com")
    assert viewer.get(url).status_code == 200
    assert viewer.get(f"{url}.csv").status_code == 200
    r = viewer.put(url, json=body, headers={"If-Match": '"0"'})
    assert r.status_code == 403 and "editor" in r.json()["detail"][0]["msg"]
    assert stranger.get(url).status_code == 404
    assert stranger.put(url, json=body, headers={"If-Match": '"0"'}).status_code == 404
    assert editor.put(url, json=body, headers={"If-Match": '"0"'}).status_code == 200

    reader = _token(editor, "bom:read")
    assert editor.get(url, headers=reader).status_code == 200
    r = editor.put(url, json=body, headers={**reader, "If-Match": '"1"'})
    assert r.status_code == 403 and "price:write" in r.json()["detail"][0]["msg"]
    writer = _token(editor, "price:write")
    assert editor.get(url, headers=writer).status_code == 403, "reading prices is bom:read"
    assert editor.put(url, json=body, headers={**writer, "If-Match": '"1"'}).status_code == 200
    viewer_writer = _token(viewer, "price:write", "bom:read")
    assert viewer.put(url, json=body, headers={**viewer_writer, "If-Match": '"2"'}).status_code == 403
    log = owner.get(f"/api/v1/projects/{project}/audit", params={"resource_type": "price_book"}).json()["items"]
    assert log[0]["actor"] == "editor@example.com (token 't')"


def test_price_book_csv_round_trip_and_refusals(owner: TestClient, project: int) -> None:
    url = book_url(project)
    text = (
        "part_number,category,description,base_price,per_metre,currency\n"
        'DAC-25G,cable,"25G DAC, any length",20,4,EUR\n'
        f"{TOR},switch,,9000,0,EUR\n"
    )
    r = owner.post(f"{url}/import", json={"csv": text}, headers={"If-Match": '"0"'})
    assert r.status_code == 200, r.text
    assert r.json()["currency"] == "EUR" and [e["part_number"] for e in r.json()["entries"]] == [
        "48x25G+8x100G ToR",
        "DAC-25G",
    ]
    out = owner.get(f"{url}.csv")
    assert out.headers["content-type"].startswith("text/csv") and out.headers["etag"] == '"1"'
    assert out.text == (
        "part_number,category,description,base_price,per_metre,currency\n"
        f"{TOR},switch,,9000.00,0.00,EUR\n"
        'DAC-25G,cable,"25G DAC, any length",20.00,4.00,EUR\n'
    )
    assert owner.get(f"{url}.csv", headers={"If-None-Match": '"1"'}).status_code == 304
    # the export imports back unchanged (a new version with the same entries)
    r = owner.post(f"{url}/import", json={"csv": out.text}, headers={"If-Match": '"1"'})
    assert r.json()["version"] == 2 and r.json()["entries"] == owner.get(f"{url}/versions/1").json()["entries"]
    bad = text.replace("9000", "lots")
    r = owner.post(f"{url}/import", json={"csv": bad}, headers={"If-Match": '"2"'})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "csv.line 3.base_price"
    assert owner.get(url).json()["version"] == 2, "a refused import changes nothing"
    parts = owner.get(f"{url}/parts").json()
    tor = next(p for p in parts["items"] if p["part_number"] == TOR)
    assert (tor["base_price"], tor["source"], tor["category"]) == (9000.0, "project", "switch")
    # an EUR book: the USD defaults do not price anything here
    aoc = next(p for p in parts["items"] if p["part_number"] == "AOC-100G")
    assert (aoc["base_price"], aoc["source"], aoc["default_base_price"]) == (None, None, None)


def test_bom_csv_etag_and_not_modified(owner: TestClient, small_plan: dict[str, Any]) -> None:
    url = f"/api/v1/wiring-plans/{small_plan['id']}/bom"
    r = owner.get(f"{url}.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    cols = ("part_number", "length_m", "quantity", "unit_price", "total", "price_source")
    assert [tuple(x[c] for c in cols) for x in rows] == [
        ("AOC-100G", "5", "4", "280.00", "1120.00", "default"),
        ("DAC-25G", "0.5", "2", "24.75", "49.50", "default"),
        (TOR, "", "1", "", "", "unpriced"),
        (SPINE, "", "1", "", "", "unpriced"),
    ]  # fmt: skip
    assert {x["currency"] for x in rows} == {"USD"}
    tag = r.headers["etag"]
    again = owner.get(f"{url}.csv", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    # content negotiation: the same CSV on /bom with Accept: text/csv
    negotiated = owner.get(url, headers={"Accept": "text/csv"})
    assert negotiated.text == r.text and negotiated.headers["etag"] == tag
    as_json = owner.get(url)
    assert (
        as_json.headers["etag"] != tag
        and owner.get(url, headers={"If-None-Match": as_json.headers["etag"]}).status_code == 304
    )
    # a price edit changes the BOM, so its ETag: the old one no longer matches
    owner.patch(
        f"/api/v1/projects/{small_plan['project_id']}/price-book",
        json={"upsert": [{"part_number": TOR, "category": "switch", "base_price": 1}]},
        headers={"If-Match": '"0"'},
    ).raise_for_status()
    changed = owner.get(f"{url}.csv", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag
    assert f"switch,{TOR},{TOR},,,1,1.00,1.00,USD,project" in changed.text.splitlines()


def test_a_plan_stored_before_materials_is_summarised_again_on_read(
    owner: TestClient, small_plan: dict[str, Any], db_session: Any
) -> None:
    from loopline.db.models import WiringPlanRow

    row = db_session.get(WiringPlanRow, small_plan["id"])
    old = {k: v for k, v in row.summary.items() if k not in ("format", "materials")}
    row.summary = {**old, "cable_cost": 1.0}  # the shape plans had before prices were read from a book
    db_session.commit()
    summary = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}").json()["summary"]
    assert summary["cost"]["cables"] == 49.5 + 1120.0 and summary["transceiver_count"] == 0
    db_session.expire_all()
    assert db_session.get(WiringPlanRow, small_plan["id"]).summary["format"] == 2, "stored once recomputed"


def test_the_price_table_lists_the_switch_models_of_the_layout_before_any_plan(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    h.row(owner, hall["id"], n=1)
    items = owner.get(f"{book_url(hall['project_id'])}/parts").json()["items"]
    tor = next(p for p in items if p["part_number"] == TOR)
    assert (tor["category"], tor["base_price"], tor["source"], tor["used"]) == ("switch", None, None, False)
    assert SPINE not in {p["part_number"] for p in items}, "only the models the project's halls hold"


def add_pdus(session: Session, hall_id: int, feeds: dict[str, tuple[str | None, ...]]) -> None:
    """Rack name -> its feeds' PDU models (A, then B), written as the facility's rack feeds."""
    models: dict[str, int] = {}
    for name in sorted({m for ms in feeds.values() for m in ms if m}):
        pdu = PduModel(name=name, outlets=24, phases=1, weight_kg=4.5)
        session.add(pdu)
        session.flush()
        models[name] = pdu.id
    for rack, pdus in feeds.items():
        rack_id = session.execute(select(Rack.id).where(Rack.hall_id == hall_id, Rack.name == rack)).scalar_one()
        for feed, model in zip("AB", pdus, strict=False):
            session.add(RackFeed(hall_id=hall_id, rack_id=rack_id, name=feed, pdu_model_id=model and models[model]))
    session.commit()


def test_the_halls_rack_pdus_are_bom_lines_priced_by_the_book_or_shown_unpriced(
    owner: TestClient, small_plan: dict[str, Any], db_session: Session
) -> None:
    # R01-01 has feeds A and B with a PDU each, N01 feed A with one and feed B without: 3 PDUs.
    add_pdus(db_session, small_plan["hall_id"], {"R01-01": ("PDU-24", "PDU-24"), "N01": ("PDU-24", None)})
    bom = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}/bom").json()
    (pdu,) = [x for x in bom["lines"] if x["category"] == "pdu"]
    assert pdu == {
        "category": "pdu", "part_number": "PDU-24", "description": "rack PDU PDU-24", "length_m": None,
        "media_class": None, "quantity": 3, "unit_price": None, "total": None, "price_source": None,
    }  # fmt: skip
    assert bom["lines"][-1] == pdu, "PDUs come after switches and NICs"
    assert {"category": "pdu", "part_number": "PDU-24"} in bom["unpriced"] and bom["complete"] is False
    assert "no price for pdu 'PDU-24': add it to the price book" in bom["warnings"]
    assert bom["total"] == 49.5 + 1120.0, "an unpriced PDU adds nothing to the total"
    text = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}/bom.csv").text
    (line,) = [r for r in csv.DictReader(io.StringIO(text)) if r["category"] == "pdu"]
    assert (line["quantity"], line["unit_price"], line["price_source"]) == ("3", "", "unpriced")
    table = {p["part_number"]: p for p in owner.get(f"{book_url(small_plan['project_id'])}/parts").json()["items"]}
    assert (table["PDU-24"]["category"], table["PDU-24"]["base_price"]) == ("other", None), "listed to be priced"

    r = owner.patch(
        book_url(small_plan["project_id"]),
        json={"upsert": [{"part_number": "PDU-24", "category": "other", "base_price": 450}]},
        headers={"If-Match": '"0"'},
    )
    assert r.status_code == 200, r.text
    bom = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}/bom").json()
    (pdu,) = [x for x in bom["lines"] if x["category"] == "pdu"]
    assert (pdu["unit_price"], pdu["total"], pdu["price_source"]) == (450.0, 1350.0, "project")
    assert bom["subtotals"]["pdu"] == 1350.0 and bom["total"] == 49.5 + 1120.0 + 1350.0
    cost = owner.get(f"/api/v1/wiring-plans/{small_plan['id']}").json()["summary"]["cost"]
    assert (cost["pdus"], cost["total"]) == (1350.0, bom["total"])
    listed = owner.get(f"/api/v1/projects/{small_plan['project_id']}/wiring-plans").json()["items"][0]
    assert listed["summary"]["cost"]["pdus"] == 1350.0
