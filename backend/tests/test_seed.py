"""The demo seed: idempotent, and a valid, realistic hall."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, LogicalRack, Project, Rack
from loopline.domain import layout_rules as rules
from loopline.domain.bom import Category
from loopline.seed import DEMO_PROJECT, seed
from loopline.services import wiring_bom, wiring_plans, wiring_spec
from loopline.services.access import Principal
from loopline.services.auth import authenticate
from loopline.services.layout_snapshot import load_fabric, load_hall


def test_seed_is_idempotent_and_valid(db_session: Session) -> None:
    first = seed(db_session)
    assert "created: hall H1, 4 rows, 52 racks, 96 logical racks" in first
    second = seed(db_session)
    assert "already present; 0 catalog entries added" in second
    assert (
        db_session.execute(select(func.count()).select_from(Project).where(Project.name == DEMO_PROJECT)).scalar() == 1
    )
    assert authenticate(db_session, "demo@loopline.local", "loopline-demo").email == "demo@loopline.local"

    hall_id = db_session.execute(select(Hall.id).join(Project).where(Project.name == DEMO_PROJECT)).scalar_one()
    hall = load_hall(db_session, hall_id)
    assert [r.name for r in hall.rows] == ["R01", "R02", "R03", "R04"]
    assert all(len(r.racks) == 13 and r.racks[-1].name.endswith("-NET") for r in hall.rows)
    lr = hall.rows[0].racks[0].logical_racks[0]
    assert (lr.servers, lr.ports_used, lr.server_model.nic_ports, lr.server_model.port_gbps) == (15, 2, 2, 25.0)
    assert lr.tor_model.name == "48x25G+8x100G ToR"
    assert len(hall.rows[0].racks[0].logical_racks) == 2
    fabric = load_fabric(db_session, hall_id and db_session.get(Hall, hall_id).project_id)  # type: ignore[union-attr]
    assert rules.validate_hall(hall, fabric=fabric) == []
    assert [a.kind.value for a in rules.derive_aisles(hall)] == ["cold", "hot", "cold"]
    assert db_session.execute(select(func.count()).select_from(Rack).where(Rack.hall_id == hall_id)).scalar() == 52
    assert (
        db_session.execute(select(func.count()).select_from(LogicalRack).where(LogicalRack.hall_id == hall_id)).scalar()
        == 96
    )


def test_the_demo_switches_stay_unpriced_and_the_bom_says_so(db_session: Session) -> None:
    """No public list price could be cited for the builtin switch models, so none is invented: a
    plan of the demo hall prices everything else and names its two switch models as unpriced
    (the editor's plan list says so and offers "Set switch prices…")."""
    seed(db_session)
    hall_id = db_session.execute(select(Hall.id).join(Project).where(Project.name == DEMO_PROJECT)).scalar_one()
    user = authenticate(db_session, "demo@loopline.local", "loopline-demo")
    row = wiring_plans.create_plan(
        db_session,
        Principal(user),
        hall_id,
        wiring_spec.PlanOptions.from_json({"name": "demo", "pattern": "single-homed"}),
    )
    bom = wiring_bom.bill_of_materials(db_session, row)
    assert sorted((x.category.value, x.part_number, x.quantity) for x in bom.unpriced) == [
        ("switch", "48x25G+8x100G ToR", 96),  # a ToR per logical rack
        ("switch", "64x100G spine", 8),  # two per row's network rack
    ]
    assert not bom.complete and bom.subtotal(Category.SWITCH) == 0
    assert all(x.unit_price is not None for x in bom.lines if x.category is not Category.SWITCH)
    assert {w for w in bom.warnings if "no price" in w} == {
        "no price for switch '48x25G+8x100G ToR': add it to the price book",
        "no price for switch '64x100G spine': add it to the price book",
    }
