"""The facility checks of a structured plan (issue 29 item 2): its plant's cords and trunks are what
runs in the trays and bends there, its optics draw per device port, its panels weigh on their racks.

Hall `row_hall`: R01-01 (x 1,300 mm) and R01-02 (x 1,900 mm) each hold 2 logical racks of 2 servers
and a ToR (4 x 100G uplinks each); N01 (x 2,500 mm) a 64 x 100G spine. The tray runs along the row
at 2,167 mm (42U + 300 mm), cut at the 600 mm tiles: T1-1 1,300-1,800, T1-2 1,800-2,400, T1-3
2,400-2,500. With panels in every ToR rack, each ToR rack's 8 uplinks take 8 cords inside the rack
to its panel, one 24-fibre trunk (2 legs of 6 duplex ports) to N01's panel, and 8 cords there.
"""

from __future__ import annotations

import math
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.orm import Session

from loopline.domain.facility.model import CableFacts, FittedOptic, MountedPanel
from loopline.domain.structured.catalog import builtin_catalog
from loopline.services import facility_plant

TRUNK = "TRUNK-MPO-12-24F-B-UU-OS2"
CORD = "CORD-LC-LC-AB-OS2"
TRAY_MM2 = 305 * 102
"""The hall's default tray (catalog_facts.DEFAULT_TRAY): 305 mm wide, 102 mm usable depth."""


def structured_plan(owner: TestClient, h: SimpleNamespace, hall_id: int, **body: Any) -> dict[str, Any]:
    return dict(
        h.plan(owner, hall_id, name="structured", pattern="single-homed", ports=1, cabling="structured", **body)
    )


def segments(report: Any) -> list[tuple[str, int, float, float]]:
    return [(s.name, s.cables, s.fill_pct, s.kg_per_m) for s in report.trays]


def missing(report: Any) -> dict[str, str]:
    return {i.field: i.message for i in report.issues if i.code == "fact_missing"}


def test_a_trunk_runs_the_tray_once_in_place_of_the_uplinks_it_carries(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    hall_id = row_hall["id"]
    direct = h.plan(owner, hall_id, name="direct", pattern="single-homed", ports=1)
    plan = structured_plan(owner, h, hall_id, structured={"panel_at": "rack"})

    # Direct: every uplink is a cable in the tray; the 8 of R01-01 pass T1-1, all 16 T1-2 and T1-3.
    before = facility_plant.facility_report(db_session, hall_id, direct["id"])
    assert [(name, n) for name, n, _, _ in segments(before)] == [("T1-1", 8), ("T1-2", 16), ("T1-3", 16)]

    # Structured, with a trunk of 6 mm OD, 0.05 kg/m (a figure of this test's, the catalog has none):
    # one trunk on T1-1, two on T1-2 and T1-3; the cords stay inside their racks (no tray).
    catalog = builtin_catalog()
    trunk = replace(catalog.trunk(TRUNK), physical=CableFacts(od_mm=6.0, kg_per_m=0.05, min_bend_radius_mm=60.0))
    catalog = replace(catalog, trunks=tuple(trunk if t.name == TRUNK else t for t in catalog.trunks))
    after = facility_plant.facility_report(db_session, hall_id, plan["id"], structured_catalog=catalog)
    one = math.pi * 6.0**2 / 4 / TRAY_MM2 * 100  # 28.27 mm² of 31,110: 0.0909 %
    assert segments(after) == [
        ("T1-1", 1, pytest.approx(one), pytest.approx(0.05)),
        ("T1-2", 2, pytest.approx(2 * one), pytest.approx(0.1)),
        ("T1-3", 2, pytest.approx(2 * one), pytest.approx(0.1)),
    ]
    assert after.totals.fullest_tray == "T1-2" and after.totals.fullest_tray_pct == pytest.approx(2 * one)
    # The trunk bends too: up from its panel at U42 (1,845 mm) to the tray, along it, down into N01; its
    # 60 mm minimum radius is over the hall's 50 mm fittings.
    (bend,) = [i for i in after.issues if i.code == "bend_too_tight"]
    assert bend.field == "cables[T-H1.R01.R01-01-H1.R01.N01-1].points[1]"
    assert bend.message == (
        f"cable 'T-H1.R01.R01-01-H1.R01.N01-1' ({TRUNK}, minimum bend radius 60 mm) turns at (1300, 2200, 2167) mm "
        "on tray segment T1-1 (and 1 more corner of its own) bent at the hall's 50 mm radius; "
        "1 more cable of this part turn at 2 more corners"
    )

    # With the builtin catalog (no OD for the trunk) the report says so, counting 2 trunks, not 16 links;
    # the cords' 2.83 mm OD is known (issue 28's fibre cord), so nothing is said of their fill.
    r = owner.get(f"/api/v1/halls/{hall_id}/facility", params={"plan_id": plan["id"]})
    assert r.status_code == 200, r.text
    said = {i["field"]: i["message"] for i in r.json()["warnings"] if i["code"] == "fact_missing"}
    assert said[f"catalog.cables[{TRUNK}].od_mm"] == (
        f"cable part '{TRUNK}' has no od_mm: the tray fill check counted nothing for 2 cables of it"
    )
    assert f"catalog.cables[{CORD}].od_mm" not in said
    assert [(s["name"], s["cables"], s["fill_pct"]) for s in r.json()["trays"]] == [
        ("T1-1", 1, 0.0), ("T1-2", 2, 0.0), ("T1-3", 2, 0.0)
    ]  # fmt: skip


def test_a_twelve_fibre_trunk_fills_the_tray_with_its_sourced_diameter(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    """`row_hall` with one logical rack per ToR rack: its 4 uplinks (8 fibres) take one 6-port cassette
    and one 12-fibre trunk, whose builtin facts (NVIDIA's 3.0 mm MPO cable, 15 x OD = 45 mm loaded bend
    radius) the tray check now counts without a catalog of the test's own."""
    lr = h.lr(servers=2, ports=1)
    row = h.row(owner, hall["id"], n=2, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr]})
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201
    plan = structured_plan(owner, h, hall["id"], structured={"panel_at": "rack"})
    trunk = "TRUNK-MPO-12-12F-B-UU-OS2"
    plant = facility_plant.load_plant(db_session, hall["id"], plan["id"])
    assert sorted(c.part_number for c in plant.routed if c.part_number != "DAC-25G") == sorted(
        [CORD] * 16 + [trunk] * 2
    )

    report = facility_plant.facility_report(db_session, hall["id"], plan["id"])
    # One trunk of pi x 3.0^2 / 4 = 7.07 mm² on T1-1 (R01-01's), both on T1-2 and T1-3, of the tray's
    # 305 x 102 = 31,110 mm²: 0.0227 % and 0.0454 %. No weight per metre has a source: 0 kg/m, named.
    one = math.pi * 3.0**2 / 4 / TRAY_MM2 * 100
    assert segments(report) == [
        ("T1-1", 1, pytest.approx(one), 0.0),
        ("T1-2", 2, pytest.approx(2 * one), 0.0),
        ("T1-3", 2, pytest.approx(2 * one), 0.0),
    ]
    assert report.totals.fullest_tray == "T1-2" and report.totals.fullest_tray_pct == pytest.approx(2 * one)
    said = missing(report)
    assert f"catalog.cables[{trunk}].od_mm" not in said
    assert f"catalog.cables[{trunk}].kg_per_m" in said
    # 45 mm is inside the hall's 50 mm fittings: no bend is too tight.
    assert [i for i in report.issues if i.code == "bend_too_tight"] == []


def test_optics_draw_per_port_and_panels_weigh_on_their_racks(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    hall_id = row_hall["id"]
    plan = structured_plan(owner, h, hall_id, structured={"panel_at": "rack"})
    plant = facility_plant.load_plant(db_session, hall_id, plan["id"])
    # One 100G-DR per ToR port and per spine port: 8 in each ToR rack, 16 at the spine.
    assert plant.fitted_optics == (
        FittedOptic("R01-01", "100G-DR", 8), FittedOptic("N01", "100G-DR", 16), FittedOptic("R01-02", "100G-DR", 8)
    )  # fmt: skip
    # Panels: each ToR rack's 8 ports fill 2 six-port cassettes; N01's 16 ports arrive on 4 trunk legs.
    cassette = "FS FHD-1MTP6LCDOS2A"
    assert sorted(plant.panels, key=lambda p: p.rack) == [
        MountedPanel("N01", "FS FHD-1UFCE", cassette, 4),
        MountedPanel("R01-01", "FS FHD-1UFCE", cassette, 2),
        MountedPanel("R01-02", "FS FHD-1UFCE", cassette, 2),
    ]
    # Routed: 8 server DACs, 32 cords and 2 trunks; none of the 16 logical uplinks.
    parts = sorted(c.part_number for c in plant.routed)
    assert parts == sorted(["DAC-25G"] * 8 + [CORD] * 32 + [TRUNK] * 2)
    assert all(c.optic is None for c in plant.routed if c.part_number != "DAC-25G")

    report = facility_plant.facility_report(db_session, hall_id, plan["id"])
    max_w = {r.rack: r.max_w for r in report.racks}
    # R01-01: 4 servers x 800 W + 2 ToRs x 647 W + 8 x 3.5 W (100G-DR, issue 28's XCVR-100G-DR) = 4,522 W;
    # N01: the spine's 616 W + 16 x 3.5 W = 672 W.
    assert max_w == {"R01-01": 4522.0, "R01-02": 4522.0, "N01": 672.0}
    assert report.totals.max_w == 4522.0 * 2 + 672.0
    said = missing(report)
    assert not [f for f in said if f.startswith("catalog.optics")], said
    # No panel or cassette weight has a source: each model is named, with how many went uncounted.
    assert said["catalog.panels[FS FHD-1UFCE].weight_kg"] == (
        "panel model 'FS FHD-1UFCE' has no weight_kg: the rack weight and floor load check counted nothing "
        "for 3 panels of it"
    )
    assert said[f"catalog.cassettes[{cassette}].weight_kg"] == (
        f"cassette model '{cassette}' has no weight_kg: the rack weight and floor load check counted nothing "
        "for 8 cassettes of it"
    )
    # The plan's summary carries the same totals (issue 28's per-plan facility figures).
    summary = owner.get(f"/api/v1/wiring-plans/{plan['id']}").json()["summary"]["facility"]
    assert summary["max_w"] == 9716.0


def test_a_broken_out_port_draws_its_optic_once(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    """16 uplinks of 100G on lanes 1-4 of a 64 x 400G spine's ports e1..e4: 4 x 400G-DR4 at the spine
    (not 16, nor 32 link ends), one MPO cord per port (its 4 lanes reach one row end, so the port's MPO
    travels whole from an adapter plate beside the spine to a module there), shared by its 4 lanes."""
    spine = owner.post("/api/v1/catalog/switch-models", json={
        "name": "64x400G spine 1 kW", "server_ports": 64, "server_port_gbps": 400, "uplink_ports": 0,
        "uplink_gbps": 400, "height_u": 2, "max_w": 1000, "typical_w": 600}).json()["id"]  # fmt: skip
    lr = h.lr(servers=2, ports=1)
    row = h.row(owner, hall["id"], n=2, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]})
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": "SP1", "role": "spine", "switch_model_id": spine, "u": 20}]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201
    plan = structured_plan(owner, h, hall["id"], breakouts=True)

    plant = facility_plant.load_plant(db_session, hall["id"], plan["id"])
    fitted = {(f.rack, f.part): f.count for f in plant.fitted_optics}
    assert fitted == {("R01-01", "100G-DR"): 8, ("R01-02", "100G-DR"): 8, ("N01", "400G-DR4"): 4}
    assert sum(c.part_number == "CORD-MPO12-MPO12-B-PU-OS2" for c in plant.routed) == 4
    report = facility_plant.facility_report(db_session, hall["id"], plan["id"])
    # N01: the spine's 1,000 W + 4 x 9 W (400G-DR4, issue 28's XCVR-400G-DR); typical 600 + 36.
    (n01,) = [r for r in report.racks if r.rack == "N01"]
    assert (n01.max_w, n01.typical_w) == (1036.0, 636.0)
    assert "catalog.panels[Corning EDGE-01U].weight_kg" in missing(report), "the breakout modules' housing"


def test_a_direct_plan_has_no_plant(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    direct = h.plan(owner, row_hall["id"], name="direct", pattern="single-homed", ports=1)
    plant = facility_plant.load_plant(db_session, row_hall["id"], direct["id"])
    assert (plant.fitted_optics, plant.panels) == ((), ())
    assert len(plant.routed) == direct["summary"]["cables"]


def test_a_structured_plans_load_takes_three_more_queries_whatever_its_size(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace, db_session: Session, monkeypatch: Any
) -> None:
    hall_id = row_hall["id"]
    direct = h.plan(owner, hall_id, name="direct", pattern="single-homed", ports=1)
    small = structured_plan(owner, h, hall_id, structured={"panel_at": "rack"})
    h.row(
        owner,
        hall_id,
        "R02",
        y=5,
        n=2,
        rack_template={"rack_type_id": h.cat.rack, "logical_racks": [h.lr(servers=2, ports=1)] * 2},
    )
    big = h.plan(owner, hall_id, name="big", pattern="single-homed", ports=1, cabling="structured")
    assert big["summary"]["cables"] > small["summary"]["cables"]

    fetch_all = facility_plant._fetch_all
    seen: list[str] = []

    def driver_fetch(session: Session, stmt: Any) -> list[tuple[Any, ...]]:
        """The bulk reads go through the driver, past SQLAlchemy's events: counted here, then run."""
        seen.append(str(stmt))
        return fetch_all(session, stmt)

    monkeypatch.setattr(facility_plant, "_fetch_all", driver_fetch)

    def queries(plan_id: int) -> int:
        seen.clear()

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if not statement.startswith(("SAVEPOINT", "RELEASE")):  # the test's own transaction
                seen.append(statement)

        engine = db_session.get_bind()
        db_session.expire_all()
        event.listen(engine, "before_cursor_execute", count)
        try:
            facility_plant.load_plant(db_session, hall_id, plan_id)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(seen)

    # Panels, the plant's cables and its optics (the cables' query leaves the chained links out itself).
    assert queries(small["id"]) == queries(big["id"]) == queries(direct["id"]) + 3 == 16
