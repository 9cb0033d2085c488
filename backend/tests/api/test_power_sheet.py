"""The hall's power sheet through the API (issue 28 item 6): CSV, XLSX and PDF read back, hand-derived
lines, the layout:read scope, the downloads' admission lane, refusals naming the field."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook
from pypdf import PdfReader
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.api.admission import Lane, lane_of
from loopline.db.models import PduModel, Rack, RackFeed
from loopline.domain.facility.power_sheet import POWER_SHEET_COLUMNS


@pytest.fixture
def power_hall(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, db_session: Session) -> dict[str, Any]:
    """Row R01: rack R01-01 with 40 servers of 700 W max (450 W typical) and their ToR of 400 W max
    (250 W typical) on feeds A and B, 230 V 32 A single-phase, each with a PDU-24; rack R01-02 the
    same devices on the default feeds (A and B, 230 V 32 A, no PDU)."""
    server = owner.post(
        "/api/v1/catalog/server-models",
        json={"name": "S700", "nic_ports": 1, "port_gbps": 25, "typical_w": 450, "max_w": 700},
    )
    assert server.status_code == 201, server.text
    tor = owner.post(
        "/api/v1/catalog/switch-models",
        json={"name": "T400", "server_ports": 48, "server_port_gbps": 25, "uplink_ports": 8, "uplink_gbps": 100,
              "typical_w": 250, "max_w": 400},
    )  # fmt: skip
    assert tor.status_code == 201, tor.text
    lr = h.lr(servers=40, ports=1, server_model_id=server.json()["id"], tor_model_id=tor.json()["id"])
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2,
            "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [lr]}}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body)
    assert r.status_code == 201, r.text
    pdu = PduModel(name="PDU-24", outlets=24, phases=1, weight_kg=4.5)
    db_session.add(pdu)
    db_session.flush()
    rack = db_session.execute(select(Rack.id).where(Rack.hall_id == hall["id"], Rack.name == "R01-01")).scalar_one()
    for feed in "AB":
        db_session.add(RackFeed(hall_id=hall["id"], rack_id=rack, name=feed, voltage_v=230, phases=1, breaker_a=32,
                                pdu_model_id=pdu.id))  # fmt: skip
    db_session.commit()
    return hall


# Each feed must carry the whole rack (N+N): 40 x 700 + 400 = 28,400 W against 230 x 32 x 1 x PF 1 =
# 7,360 W capacity, 0.8 x 7,360 = 5,888 W limit: 28,400 / 5,888 = 482.34 %. Typical: 40 x 450 + 250 = 18,250 W.
LINES = [
    ["R01-01", "R01", "A", "230", "1", "32", "PDU-24", "28400", "7360", "5888", "482.3", "28400", "18250", "over"],
    ["R01-01", "R01", "B", "230", "1", "32", "PDU-24", "28400", "7360", "5888", "482.3", "28400", "18250", "over"],
    ["R01-02", "R01", "A", "230", "1", "32", "", "28400", "7360", "5888", "482.3", "28400", "18250", "over"],
    ["R01-02", "R01", "B", "230", "1", "32", "", "28400", "7360", "5888", "482.3", "28400", "18250", "over"],
]


def url(hall_id: int, ext: str) -> str:
    return f"/api/v1/halls/{hall_id}/exports/power-sheet.{ext}"


def test_power_sheet_csv_xlsx_and_pdf_carry_a_line_per_rack_feed(owner: TestClient, power_hall: dict[str, Any]) -> None:
    r = owner.get(url(power_hall["id"], "csv"))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/csv")
    assert f"hall-{power_hall['id']}-power-sheet.csv" in r.headers["content-disposition"]
    got = list(csv.reader(io.StringIO(r.text)))
    assert got == [list(POWER_SHEET_COLUMNS), *LINES]

    r = owner.get(url(power_hall["id"], "xlsx"))
    assert r.status_code == 200
    book = load_workbook(io.BytesIO(r.content))
    assert book.sheetnames == ["R01"]
    rows = [["" if v is None else str(v) for v in row] for row in book["R01"].iter_rows(values_only=True)]
    assert rows == [list(POWER_SHEET_COLUMNS), *LINES]

    r = owner.get(url(power_hall["id"], "pdf"))
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    (page,) = PdfReader(io.BytesIO(r.content)).pages
    text = page.extract_text()
    assert "Power sheet: hall H1" in text and "Row R01" in text
    assert text.count("R01-01") == 2 and text.count("R01-02") == 2 and text.count("OVER") == 4
    assert "28,400" in text and "482.3 %" in text and "PDU-24" in text


def test_power_sheet_is_read_with_layout_read_in_the_download_lane(
    owner: TestClient, power_hall: dict[str, Any], h: SimpleNamespace
) -> None:
    for ext in ("csv", "xlsx", "pdf"):
        assert lane_of("GET", url(power_hall["id"], ext)) is Lane.EXPORT
    stranger = h.client("stranger@example.com")
    assert stranger.get(url(power_hall["id"], "csv")).status_code == 404
    token = owner.post("/api/v1/tokens", json={"name": "t", "scopes": ["bom:read"]})
    assert token.status_code == 201, token.text
    bearer = {"Authorization": f"Bearer {token.json()['token']}"}
    anonymous = TestClient(h.app)
    r = anonymous.get(url(power_hall["id"], "csv"), headers=bearer)
    assert r.status_code == 403 and "layout:read" in r.text
    token = owner.post("/api/v1/tokens", json={"name": "t2", "scopes": ["layout:read"]})
    r = anonymous.get(url(power_hall["id"], "csv"), headers={"Authorization": f"Bearer {token.json()['token']}"})
    assert r.status_code == 200 and r.text.count("\n") == 1 + len(LINES)


def test_a_plan_of_another_hall_is_refused_naming_plan_id(
    owner: TestClient, power_hall: dict[str, Any], project: int, h: SimpleNamespace
) -> None:
    other = owner.post(f"/api/v1/projects/{project}/halls", json={"name": "H2", "width_m": 30, "depth_m": 20}).json()
    row = h.row(owner, other["id"], n=1)
    spine = {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}
    owner.post(f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [spine]})
    plan = h.plan(owner, other["id"], pattern="single-homed")
    r = owner.get(url(power_hall["id"], "csv"), params={"plan_id": plan["id"]})
    assert r.status_code == 404 and r.json()["detail"][0]["field"] == "plan_id"
    r = owner.get(url(power_hall["id"], "csv"), params={"plan_id": 0})
    assert r.status_code == 422 and "plan_id" in r.text


def test_a_hall_without_racks_has_a_power_sheet_of_its_header_alone(owner: TestClient, hall: dict[str, Any]) -> None:
    assert owner.get(url(hall["id"], "csv")).text == ",".join(POWER_SHEET_COLUMNS) + "\n"
    book = load_workbook(io.BytesIO(owner.get(url(hall["id"], "xlsx")).content))
    assert book.sheetnames == ["No racks"]
    assert [list(r) for r in book["No racks"].iter_rows(values_only=True)] == [list(POWER_SHEET_COLUMNS)]
    pdf = owner.get(url(hall["id"], "pdf")).content
    assert pdf.startswith(b"%PDF") and len(PdfReader(io.BytesIO(pdf)).pages) == 1
    assert owner.get("/api/v1/halls/999999/exports/power-sheet.csv").status_code == 404
