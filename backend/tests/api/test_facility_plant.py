"""`services.facility_plant.load_plant`: the stored hall, settings and a plan's cables as the checks see them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from loopline.db.models import PlanCableRow
from loopline.domain.cable_routes import polyline_length_mm
from loopline.domain.facility import catalog_facts
from loopline.domain.facility.model import Feed, RackFacility
from loopline.services import facility_plant


def test_a_plans_cables_are_routed_as_stored(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    """Every routed polyline is as long as the cable's stored raw length (`cable_routes`: the polyline's
    Manhattan length is the routed length), its ends are the layout's rack names, and each end of a
    fibre link draws its transceiver."""
    plan = h.plan(owner, row_hall["id"], pattern="single-homed")
    plant = facility_plant.load_plant(db_session, row_hall["id"], plan["id"])
    stored = db_session.execute(
        select(PlanCableRow.label, PlanCableRow.raw_mm, PlanCableRow.transceiver, PlanCableRow.medium)
        .where(PlanCableRow.plan_id == plan["id"])
        .order_by(PlanCableRow.seq)
    ).all()
    assert len(plant.routed) == len(stored) == plan["summary"]["cables"]
    racks = {r.name for row in plant.hall.rows for r in row.racks}
    assert racks == {"R01-01", "R01-02", "N01"}
    for cable, (label, raw_mm, transceiver, medium) in zip(plant.routed, stored, strict=True):
        assert cable.label == label
        assert polyline_length_mm(list(cable.points)) == raw_mm, label
        assert {cable.rack_a, cable.rack_b} <= racks
        assert cable.optic == (transceiver if transceiver else (cable.part_number if medium != "dac" else None))
    # Server cables stay in their rack; uplinks leave it for the network rack.
    assert sum(c.rack_a == c.rack_b for c in plant.routed) == 8
    assert sum({c.rack_a, c.rack_b} == {"R01-01", "N01"} for c in plant.routed) >= 1


def test_settings_come_with_the_domains_defaults(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    rows = owner.get(f"/api/v1/halls/{row_hall['id']}/rows").json()["items"]
    row_id = rows[0]["id"]
    url = f"/api/v1/rows/{row_id}"
    owner.patch(url, json={"facility": {"cooling_kw": 40}}, headers={"If-Match": owner.get(url).headers["etag"]})
    rack = owner.get(f"/api/v1/rows/{row_id}/racks").json()["items"][0]
    owner.patch(
        f"/api/v1/racks/{rack['id']}",
        json={"facility": {"power_budget_kw": 7.5, "feeds": [{"name": "A", "breaker_a": 16}]}},
        headers={"If-Match": f'"{rack["version"]}"'},
    ).raise_for_status()
    plant = facility_plant.load_plant(db_session, row_hall["id"], None)
    assert plant.routed == ()
    assert plant.facility.row_cooling_kw == {"R01": 40}
    assert plant.racks[rack["name"]] == RackFacility(feeds=(Feed("A", breaker_a=16),), power_budget_kw=7.5)
    others = {name: rf for name, rf in plant.racks.items() if name != rack["name"]}
    assert set(others) == {"R01-02", "N01"} and all(rf == RackFacility() for rf in others.values())
    # The builtin entries' facts as catalog_facts has them (written by ensure_builtin_catalog).
    for name, facts in catalog_facts.SERVER_FACTS.items():
        assert plant.servers[name] == facts
    for name, kg in catalog_facts.RACK_TYPE_STATIC_LOAD_KG.items():
        assert plant.rack_static_load_kg[name] == kg


def test_the_query_count_does_not_grow_with_the_hall(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    spine = {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}
    row = h.row(owner, hall["id"], n=1)
    owner.post(f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [spine]})
    small = h.plan(owner, hall["id"], pattern="single-homed", name="small")
    h.row(owner, hall["id"], "R02", y=5, n=3)
    h.row(owner, hall["id"], "R03", y=9, n=3)
    big = h.plan(owner, hall["id"], pattern="single-homed", name="big")
    assert big["summary"]["cables"] > 3 * small["summary"]["cables"]

    def queries(plan_id: int) -> list[str]:
        seen: list[str] = []
        engine = db_session.get_bind()

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if not statement.startswith(("SAVEPOINT", "RELEASE")):  # the test's own transaction
                seen.append(statement)

        event.listen(engine, "before_cursor_execute", count)
        try:
            facility_plant.load_plant(db_session, hall["id"], plan_id)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return seen

    db_session.expire_all()
    n_small = len(queries(small["id"]))
    db_session.expire_all()
    # The same statements whatever the size (the plan's cables and devices, 2 more, go through the driver).
    assert len(queries(big["id"])) == n_small <= 12
