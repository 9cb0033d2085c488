"""Plan summaries, compare and upgrades carry what a plan asks of the plant (issue 28 item 5): IT
power typical/max, heat, weight, the fullest tray, and an upgrade's difference in numbers and words.
Hand-derived from the hall's devices and the plans' optics."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Table, event
from sqlalchemy.orm import Session
from sqlalchemy.sql import visitors

from loopline.services import facility_plant, plan_facility


@pytest.fixture
def hall_with_plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """Rack R01-01: one logical rack of 2 servers (700 W max, 450 W typical) and its ToR (400 / 250 W);
    network rack N01 beside it: a spine (500 / 300 W). Plan `a`: single-homed, p = 1, 4 ToR uplinks
    (the project's leaf-spine default), each a 5 m AOC-100G (as in test_pricing_and_bom), 2.5 W an end."""
    server = owner.post("/api/v1/catalog/server-models", json={
        "name": "S700", "nic_ports": 2, "port_gbps": 25, "typical_w": 450, "max_w": 700})  # fmt: skip
    tor = owner.post("/api/v1/catalog/switch-models", json={
        "name": "T400", "server_ports": 48, "server_port_gbps": 25, "uplink_ports": 8, "uplink_gbps": 100,
        "typical_w": 250, "max_w": 400})  # fmt: skip
    spine = owner.post("/api/v1/catalog/switch-models", json={
        "name": "SP500", "server_ports": 64, "server_port_gbps": 100, "uplink_ports": 0, "uplink_gbps": 100,
        "typical_w": 300, "max_w": 500})  # fmt: skip
    assert {server.status_code, tor.status_code, spine.status_code} == {201}, (server.text, tor.text, spine.text)
    lr = h.lr(servers=2, ports=1, server_model_id=server.json()["id"], tor_model_id=tor.json()["id"])
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 1,
            "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [lr]}}  # fmt: skip
    row = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).json()
    sp = {"name": "SP1", "role": "spine", "switch_model_id": spine.json()["id"], "u": 20}
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [sp]})
    assert r.status_code == 201, r.text
    plan = h.plan(owner, hall["id"], name="a", pattern="single-homed", ports=1)
    return {"hall": hall, "plan": plan, "server_id": server.json()["id"]}


def test_a_plans_summary_carries_its_power_heat_weight_and_fullest_tray(
    owner: TestClient, hall_with_plan: dict[str, Any]
) -> None:
    plan = hall_with_plan["plan"]
    f = owner.get(f"/api/v1/wiring-plans/{plan['id']}").json()["summary"]["facility"]
    # 2 x 700 + 400 + 500 + 8 AOC ends x 2.5 = 2,320 W at most; 2 x 450 + 250 + 300 + 20 = 1,470 W typical.
    assert (f["max_w"], f["typical_w"], f["heat_w"]) == (2320.0, 1470.0, 2320.0)
    assert f["change"] is None, "not an upgrade"
    # The same figures as the hall's facility report with this plan, and in the plan list.
    report = owner.get(f"/api/v1/halls/{plan['hall_id']}/facility", params={"plan_id": plan["id"]}).json()["totals"]
    assert {k: f[k] for k in report} == {k: round(v, 1) if isinstance(v, float) else v for k, v in report.items()}
    assert f["fullest_tray"] is not None and f["fullest_tray_pct"] > 0, "the uplinks run in a tray"
    listed = owner.get(f"/api/v1/projects/{plan['project_id']}/wiring-plans").json()["items"][0]
    assert listed["summary"]["facility"] == f

    # The catalog's figures are read now, not stored with the plan: a server of 800 W max adds 2 x 100 W.
    sid = hall_with_plan["server_id"]
    version = owner.get(f"/api/v1/catalog/server-models/{sid}").headers["etag"]
    r = owner.patch(f"/api/v1/catalog/server-models/{sid}", json={"max_w": 800}, headers={"If-Match": version})
    assert r.status_code == 200, r.text
    assert owner.get(f"/api/v1/wiring-plans/{plan['id']}").json()["summary"]["facility"]["max_w"] == 2520.0


def test_an_upgrade_and_the_diff_say_what_it_adds_in_numbers_and_words(
    owner: TestClient, hall_with_plan: dict[str, Any], h: SimpleNamespace
) -> None:
    base = hall_with_plan["plan"]
    project = base["project_id"]
    fabric = owner.get(f"/api/v1/projects/{project}/fabric")
    r = owner.patch(f"/api/v1/projects/{project}/fabric", json={"tor_uplinks": 8},
                    headers={"If-Match": fabric.headers["etag"]})  # fmt: skip
    assert r.status_code == 200, r.text
    upgrade = h.upgrade(owner, base["id"])
    # 8 uplinks instead of 4: 4 more AOCs, 8 more ends x 2.5 W = 20 W more at most and typical.
    f = upgrade["summary"]["facility"]
    assert (f["max_w"], f["typical_w"]) == (2340.0, 1490.0)
    change = f["change"]
    assert (change["max_w"], change["typical_w"], change["heat_w"]) == (20.0, 20.0, 20.0)
    assert change["was_fullest_tray"] is not None and change["fullest_tray"] is not None
    assert change["fullest_tray_pct"] > change["was_fullest_tray_pct"], "twice the uplinks in the tray"
    assert change["words"].startswith("adds 20 W at most (20 W typical)")
    # The test's models give no weight: the weight's difference is not known, and not stated.
    assert change["incomplete"] == ["weight_kg"], "every device has its typical and max figures"
    assert "changes the weight by an amount not known for every part" in change["words"]
    assert f"fills tray {change['fullest_tray']} to {change['fullest_tray_pct']:.0f} %" in change["words"]

    diff = owner.get(f"/api/v1/wiring-plans/{upgrade['id']}/diff", params={"against": base["id"]}).json()
    assert diff["facility"] == change, "the comparison says the same as the upgrade's summary"
    back = owner.get(f"/api/v1/wiring-plans/{base['id']}/diff", params={"against": upgrade["id"]}).json()
    assert (back["facility"]["max_w"], back["facility"]["typical_w"]) == (-20.0, -20.0)
    assert back["facility"]["words"].startswith("removes 20 W at most (20 W typical)")


def test_a_change_does_not_state_a_typical_figure_a_plan_leaves_a_device_out_of(
    owner: TestClient, hall_with_plan: dict[str, Any], h: SimpleNamespace
) -> None:
    base = hall_with_plan["plan"]
    project = base["project_id"]
    fabric = owner.get(f"/api/v1/projects/{project}/fabric")
    r = owner.patch(f"/api/v1/projects/{project}/fabric", json={"tor_uplinks": 8},
                    headers={"If-Match": fabric.headers["etag"]})  # fmt: skip
    assert r.status_code == 200, r.text
    upgrade = h.upgrade(owner, base["id"])
    # The server model loses its typical figure: both plans' typical totals leave the 2 servers out
    # (1,470 - 900 = 570 W and 1,490 - 900 = 590 W, at least), so their +20 W typical is no known difference.
    sid = hall_with_plan["server_id"]
    version = owner.get(f"/api/v1/catalog/server-models/{sid}").headers["etag"]
    r = owner.patch(f"/api/v1/catalog/server-models/{sid}", json={"typical_w": None}, headers={"If-Match": version})
    assert r.status_code == 200, r.text
    f = owner.get(f"/api/v1/wiring-plans/{upgrade['id']}").json()["summary"]["facility"]
    assert (f["typical_w"], f["incomplete"]) == (590.0, ["typical_w", "weight_kg"])
    change = f["change"]
    assert (change["max_w"], change["incomplete"]) == (20.0, ["typical_w", "weight_kg"])
    assert change["words"].startswith("adds 20 W at most (typical not known for every device)")
    assert "20 W typical" not in change["words"]
    diff = owner.get(f"/api/v1/wiring-plans/{upgrade['id']}/diff", params={"against": base["id"]}).json()
    assert diff["facility"] == change


def test_the_power_sheet_with_a_plan_counts_its_optics_in_their_racks(
    owner: TestClient, hall_with_plan: dict[str, Any]
) -> None:
    plan = hall_with_plan["plan"]
    url = f"/api/v1/halls/{plan['hall_id']}/exports/power-sheet.csv"
    # Each of the 4 AOC uplinks has an end in R01-01 (its ToR) and one in N01 (the spine): 4 x 2.5 = 10 W a rack.
    # R01-01: 2 x 700 + 400 + 10 = 1,810 W (1,810 / 5,888 = 30.7 %), typical 2 x 450 + 250 + 10 = 1,160 W;
    # N01: 500 + 10 = 510 W (8.7 %), typical 300 + 10 = 310 W. Both on the default feeds.
    with_plan = list(csv.reader(io.StringIO(owner.get(url, params={"plan_id": plan["id"]}).text)))[1:]
    assert with_plan == [
        ["N01", "R01", f, "230", "1", "32", "", "510", "7360", "5888", "8.7", "510", "310", "ok"] for f in "AB"
    ] + [["R01-01", "R01", f, "230", "1", "32", "", "1810", "7360", "5888", "30.7", "1810", "1160", "ok"] for f in "AB"]
    devices_only = list(csv.reader(io.StringIO(owner.get(url).text)))[1:]
    assert [(r[0], r[7], r[12]) for r in devices_only] == [
        ("N01", "500", "300"), ("N01", "500", "300"), ("R01-01", "1800", "1150"), ("R01-01", "1800", "1150"),
    ]  # fmt: skip


def test_the_hall_fingerprint_covers_every_table_the_plant_is_loaded_from(
    owner: TestClient, hall_with_plan: dict[str, Any], db_session: Session
) -> None:
    """If the plant's loader starts reading another table, the cached totals' fingerprint must hash it."""
    hall_id = hall_with_plan["hall"]["id"]
    tables: set[str] = set()

    def record(conn: Any, clause: Any, multiparams: Any, params: Any, options: Any) -> None:
        tables.update(t.name for t in visitors.iterate(clause) if isinstance(t, Table))

    engine = db_session.get_bind()
    event.listen(engine, "before_execute", record)
    try:
        db_session.expire_all()
        facility_plant.load_plant(db_session, hall_id, None)
    finally:
        event.remove(engine, "before_execute", record)
    assert {"halls", "racks", "rack_feeds", "server_models"} <= tables <= plan_facility.FINGERPRINTED_TABLES, tables
    hashed = plan_facility.FINGERPRINT.text
    assert [t for t in sorted(plan_facility.FINGERPRINTED_TABLES) if f" FROM {t} " not in hashed] == []

    # A feed's change is a new fingerprint (a plan's totals are reckoned again); reading twice is not.
    before = plan_facility.hall_fingerprint(db_session, hall_id)
    assert plan_facility.hall_fingerprint(db_session, hall_id) == before
    layout = owner.get(f"/api/v1/halls/{hall_id}/layout").json()
    rack = next(k for r in layout["rows"] for k in r["racks"] if k["name"] == "R01-01")
    r = owner.patch(f"/api/v1/racks/{rack['id']}", json={"facility": {"feeds": [{"name": "A", "breaker_a": 16}]}},
                    headers={"If-Match": f'"{rack["version"]}"'})  # fmt: skip
    assert r.status_code == 200, r.text
    assert plan_facility.hall_fingerprint(db_session, hall_id) != before
