"""Seed the demo project (idempotent). `python -m loopline.seed`.

Creates, when missing: the user demo@loopline.local (password `loopline-demo`), the builtin device
catalog, and the project "Demo hall" owned by the demo user: one hall with 4 rows of 12 racks in
two facing pairs across 1.2 m cold aisles (a hot aisle between the pairs), 2 logical racks per
rack, each 15 servers of 2x25G and a 48x25G+8x100G ToR, and a network rack at the end of each row
holding two spines of a leaf-spine fabric. Prints one line.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Membership, Project, RackType, Role, ServerModel, SwitchModel, User
from loopline.db.session import session_scope
from loopline.domain.layout import FabricSettings, FabricType, NetworkRackPlacement, Point, RackRole, Side, TorPosition
from loopline.domain.rack_planning import FabricSwitchSpec, LogicalRackSpec, RackSpec, RowSpec
from loopline.domain.units import mm
from loopline.services import auth, catalog, halls, projects, rows
from loopline.services.access import Principal, ProjectAccess

DEMO_EMAIL = "demo@loopline.local"
DEMO_PASSWORD = "loopline-demo"  # noqa: S105 - the documented demo login
DEMO_PROJECT = "Demo hall"


def demo_rows(session: Session) -> list[RowSpec]:
    server = catalog.builtin_id(session, ServerModel, "2x25G server")
    tor = catalog.builtin_id(session, SwitchModel, "48x25G+8x100G ToR")
    spine = catalog.builtin_id(session, SwitchModel, "64x100G spine")
    rack_type = catalog.builtin_id(session, RackType, "42U 600x1200")
    lr = LogicalRackSpec(
        servers=15, server_model_id=server, ports_used=2, tor_model_id=tor, tor_position=TorPosition.TOP
    )
    out = []
    # Pairs facing across 1.2 m cold aisles; 1.2 m hot aisle between the pairs. Racks are 1.2 m deep.
    for i, (y, front) in enumerate(((2.0, Side.LEFT), (4.4, Side.RIGHT), (6.8, Side.LEFT), (9.2, Side.RIGHT)), 1):
        name = f"R{i:02d}"
        compute = [
            RackSpec(name=f"{name}-{k:02d}", rack_type_id=rack_type, logical_racks=(lr, lr)) for k in range(1, 13)
        ]
        network = RackSpec(
            name=f"{name}-NET",
            rack_type_id=rack_type,
            role=RackRole.NETWORK,
            fabric_switches=(
                FabricSwitchSpec(name=f"SP{2 * i - 1}", role="spine", switch_model_id=spine, u=20),
                FabricSwitchSpec(name=f"SP{2 * i}", role="spine", switch_model_id=spine, u=23),
            ),
        )
        origin = Point(mm(2.0), mm(y))
        out.append(RowSpec(name=name, origin=origin, direction=0, front=front, racks=(*compute, network)))
    return out


def seed(session: Session) -> str:
    added = catalog.ensure_builtin_catalog(session)
    user = session.execute(select(User).where(User.email == DEMO_EMAIL)).scalar_one_or_none()
    if user is None:
        user = auth.register(session, DEMO_EMAIL, DEMO_PASSWORD, "Demo", check_strength=False)
    principal = Principal(user)
    project_id = session.execute(
        select(Project.id)
        .join(Membership, Membership.project_id == Project.id)
        .where(Project.name == DEMO_PROJECT, Membership.user_id == user.id)
    ).scalar()
    if project_id is not None:
        return f"demo project {DEMO_PROJECT!r} (id {project_id}) already present; {added} catalog entries added"
    fabric = FabricSettings(
        fabric_type=FabricType.LEAF_SPINE,
        tor_uplinks=4,
        tor_uplink_gbps=100,
        agg_uplink_gbps=100,
        spines=8,
        rows_per_cluster=2,
        network_rack_placement=NetworkRackPlacement.END_OF_ROW,
    )
    project = projects.create_project(
        session, principal, DEMO_PROJECT, "4 rows x 12 racks, 2x25G servers, leaf-spine", fabric
    )
    access = ProjectAccess(project.id, principal, Role.OWNER)
    hall = halls.create_hall(
        session,
        access,
        {
            "name": "H1", "site": "S1", "width_mm": mm(14), "depth_mm": mm(13), "raised_floor": True,
            "raised_floor_mm": mm(0.6), "tray_height_mm": mm(0.3), "tile_mm": mm(0.6),
            "min_cold_aisle_mm": mm(1.2), "min_hot_aisle_mm": mm(0.9),
        },
    )  # fmt: skip
    created = rows.create_rows(session, access, hall.id, demo_rows(session), action="seed")
    return (
        f"demo project {DEMO_PROJECT!r} (id {project.id}) created: hall H1, {len(created.rows)} rows, "
        f"{len(created.rack_ids)} racks, {created.logical_racks} logical racks; {added} catalog entries added"
    )


def main() -> None:
    with session_scope() as session:
        outcome = seed(session)
    print(f"[loopline] seed: {outcome}; log in as {DEMO_EMAIL} / {DEMO_PASSWORD}", flush=True)


if __name__ == "__main__":
    main()
