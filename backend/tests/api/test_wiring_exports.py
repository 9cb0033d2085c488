"""Wiring sheets and NetBox imports of a stored plan, checked against the plan's own cables."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from loopline.domain.exports import NETBOX_COLUMNS, WIRING_SHEET_COLUMNS


@pytest.fixture
def plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """R01/R02 facing pair of 2 racks (b=2, r=15) and two spines, single-homed p=2."""
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 2, "rack_template": h.template()},
    )
    assert r.status_code == 201, r.text
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    r01 = r.json()["rows"][0]["id"]
    owner.post(f"/api/v1/rows/{r01}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines})
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def cables(owner: TestClient, plan_id: int) -> list[dict[str, Any]]:
    return list(owner.get(f"/api/v1/wiring-plans/{plan_id}/cables", params={"limit": 500}).json()["items"])


def test_wiring_sheet_csv_names_both_ends(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="plan-' in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert list(rows[0]) == list(WIRING_SHEET_COLUMNS)
    expected = cables(owner, plan["id"])
    assert len(rows) == len(expected) == plan["summary"]["cables"]
    first, api = rows[0], expected[0]
    assert (first["cable_id"], first["label"]) == (api["cable_id"], api["label"])
    # H1.R01.K01.U05 -> site S1, hall H1, row R01, rack K01, U 5, port face front.
    device = api["a"]["device"]
    hall, row, rack, unit = device.split(".")
    assert (first["a_site"], first["a_hall"], first["a_row"], first["a_rack"]) == ("S1", hall, row, rack)
    assert (first["a_u"], first["a_face"], first["a_device"]) == (unit[1:].lstrip("0"), "front", device)
    assert first["ordered_length_m"] == f"{api['ordered_length_m']:.3f}"
    assert first["status"] == "planned"
    # A server-to-ToR cable of a single-homed plan stays inside its rack.
    assert {row["bundle"] for row in rows if row["a_rack"] == row["b_rack"] and row["a_row"] == row["b_row"]} == {
        "in-rack"
    }

    only_r02 = list(csv.DictReader(io.StringIO(owner.get(
        f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.csv", params={"row": "R02"}
    ).text)))  # fmt: skip
    assert only_r02 and all("R02" in (x["a_row"], x["b_row"]) for x in only_r02)
    assert len(only_r02) == sum("R02" in (c["a"]["row"], c["b"]["row"]) for c in expected)


def test_netbox_csv_uses_netbox_import_columns(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox-cables.csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert list(rows[0]) == list(NETBOX_COLUMNS)
    by_label = {c["label"]: c for c in cables(owner, plan["id"])}
    for row in rows:
        cable = by_label[row["label"]]
        assert (row["side_a_device"], row["side_a_name"]) == (cable["a"]["device"], cable["a"]["port"])
        assert row["side_a_type"] == row["side_b_type"] == "dcim.interface"
        assert row["length_unit"] == "m" and float(row["length"]) == cable["ordered_length_m"]
        expected = {"dac": "dac-passive", "acc": "dac-active", "aec": "dac-active", "aoc": "aoc"}.get(cable["medium"])
        if expected:
            assert row["type"] == expected


def test_xlsx_has_one_sheet_per_row_on_request(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.xlsx", params={"per_row": True})
    assert r.status_code == 200
    book = load_workbook(io.BytesIO(r.content), read_only=True)
    assert book.sheetnames == ["R01", "R02"]
    rows = list(book["R01"].iter_rows(values_only=True))
    assert rows[0] == WIRING_SHEET_COLUMNS
    assert len(rows) - 1 == sum("R01" in (c["a"]["row"], c["b"]["row"]) for c in cables(owner, plan["id"]))


def test_bill_of_materials_counts_every_part(owner: TestClient, plan: dict[str, Any], h: SimpleNamespace) -> None:
    bom = owner.get(f"/api/v1/wiring-plans/{plan['id']}/bom").json()
    all_cables = cables(owner, plan["id"])
    lines = bom["lines"]
    assert sum(x["quantity"] for x in lines if x["category"] == "cable") == len(all_cables)
    assert sum(x["quantity"] for x in lines if x["category"] == "transceiver") == 2 * sum(
        c["transceiver"] is not None for c in all_cables
    )
    # 8 ToRs (2 rows x 2 racks x b=2) and the 2 spines.
    switches = {x["part_number"]: x["quantity"] for x in lines if x["category"] == "switch"}
    assert switches == {"48x25G+8x100G ToR": 8, "64x100G spine": 2}
    assert bom["total"] == round(sum(x["total"] or 0 for x in lines), 2)
    assert {x["price_source"] for x in lines if x["category"] == "cable"} == {"default"}

    token = owner.post("/api/v1/tokens", json={"name": "procurement", "scopes": ["bom:read"]}).json()["token"]
    procurement = TestClient(h.app, headers={"Authorization": f"Bearer {token}"})
    assert procurement.get(f"/api/v1/wiring-plans/{plan['id']}/bom").json() == bom
    assert procurement.get(f"/api/v1/wiring-plans/{plan['id']}/cables").status_code == 403


def test_a_rack_scopes_the_csv_and_the_workbook(owner: TestClient, plan: dict[str, Any]) -> None:
    expected = cables(owner, plan["id"])
    rack = expected[0]["a"]["rack"]  # `<hall>.<row>.<rack>`, as the cable list and the sheet name it
    in_rack = [c for c in expected if rack in (c["a"]["rack"], c["b"]["rack"])]
    assert 0 < len(in_rack) < len(expected)
    base = f"/api/v1/wiring-plans/{plan['id']}/exports"

    r = owner.get(f"{base}/wiring-sheet.csv", params={"rack": rack})
    assert f"plan-{plan['id']}-wiring-{rack}.csv" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert sorted(x["cable_id"] for x in rows) == sorted(c["cable_id"] for c in in_rack)

    r = owner.get(f"{base}/wiring-sheet.xlsx", params={"rack": rack})
    book = load_workbook(io.BytesIO(r.content), read_only=True)
    assert book.sheetnames == [rack]
    sheet = list(book[rack].iter_rows(values_only=True))
    assert sheet[0] == WIRING_SHEET_COLUMNS
    assert sorted(str(x[0]) for x in sheet[1:]) == sorted(c["cable_id"] for c in in_rack)

    # A rack the plan has no cable in: the header alone, not another rack's cables.
    empty = owner.get(f"{base}/wiring-sheet.csv", params={"rack": "H1.R99.K99"}).text.splitlines()
    assert empty == [",".join(WIRING_SHEET_COLUMNS)]
