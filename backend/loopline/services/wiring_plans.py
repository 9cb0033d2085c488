"""Wiring plans as a resource: generate one for a stored hall (or an upgrade of another, stored with
its diff), read, list, rename, delete. A plan is immutable once generated; regenerate to change it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import DomainError, NotFound
from loopline.domain.wiring import PlanDiff, diff_cables, generate_plan, summarize
from loopline.domain.wiring.diff import diff_plants
from loopline.services import audit, wiring_plant
from loopline.services.access import Principal
from loopline.services.layout_snapshot import get_hall_or_404, load_fabric, load_hall
from loopline.services.mutations import Target, audited_delete, audited_update
from loopline.services.wiring_compare import diff_cable_rows, diff_device_rows
from loopline.services.wiring_spec import (
    PlanOptions,
    geometry_for,
    resolve_rail,
    route_level_mm,
    server_port_speeds,
    upgrade_spec,
    wiring_spec,
)
from loopline.services.wiring_storage import store_plan


def create_upgrade(
    session: Session, principal: Principal, base: WiringPlanRow, name: str, changes: dict[str, Any]
) -> WiringPlanRow:
    """A plan for `base`'s hall from `base`'s parameters with `changes` (e.g. ``{"ports": 3}``,
    ``{"parallel": {...}}``, ``{"loop": 8}``), stored as an upgrade of `base` with its diff."""
    spec = {**upgrade_spec(base.spec, changes), "name": name, "upgrade_from_plan_id": base.id}
    return create_plan(session, principal, base.hall_id, PlanOptions.from_json(spec))


def create_plan(session: Session, principal: Principal, hall_id: int, request: PlanOptions) -> WiringPlanRow:
    hall_row = get_hall_or_404(session, hall_id)
    hall = load_hall(session, hall_id)
    fabric = load_fabric(session, hall_row.project_id)
    geometry = geometry_for(request)
    request = resolve_rail(session, hall_row.project_id, request)
    plan = generate_plan(hall, wiring_spec(request, fabric), geometry=geometry)
    plant = wiring_plant.build_plant(hall, plan, geometry)

    base: WiringPlanRow | None = None
    diff: PlanDiff | None = None
    if request.upgrade_from_plan_id is not None:
        base = session.get(WiringPlanRow, request.upgrade_from_plan_id)
        if base is None or base.project_id != hall_row.project_id:
            raise NotFound("upgrade_from_plan_id", f"wiring plan {request.upgrade_from_plan_id} not found")
        if base.hall_id != hall_id:
            raise DomainError("upgrade_from_plan_id", f"plan {base.id} wires another hall ({base.hall_id})")
        roles = {x.name: x.role for x in diff_device_rows(session, base.id)}
        diff = diff_cables(
            diff_cable_rows(session, base.id), plan.cables, roles, {x.name: x.role for x in plan.devices}
        )
    diff_json = diff.counts() if diff else None
    if diff_json is not None and base is not None:
        base_plant = wiring_plant.load_plant(session, base)
        if plant is not None or base_plant is not None:
            # Segment by segment ("no trunk moves; 96 cords added"); direct plans keep their diff as it was.
            diff_json["plant"] = diff_plants(base_plant, plant).to_json()

    row = WiringPlanRow(
        project_id=hall_row.project_id,
        hall_id=hall_id,
        name=request.name,
        spec=request.to_json(),
        base_plan_id=base.id if base else None,
        summary=summarize(plan, server_port_speeds(hall), plant).to_json(),
        diff=diff_json,
        loops=[
            {"id": lp.id, "subways_type": lp.subways_type, "logical_racks": list(lp.logical_racks)} for lp in plan.loops
        ],
        tray_z_mm=route_level_mm(geometry, hall),
        via=geometry.via.value,
        created_by=principal.user.id,
    )
    session.add(row)
    session.flush()
    store_plan(session, row.id, hall, plan)
    if plant is not None:
        wiring_plant.store_plant(session, row.id, plant)
    audit.record(
        session,
        principal,
        project_id=row.project_id,
        action="create",
        resource_type="wiring_plan",
        resource_id=row.id,
        after={"name": row.name, "spec": row.spec, "cables": len(plan.cables), "diff": row.diff},
    )
    return row


def get_plan(session: Session, plan_id: int) -> WiringPlanRow:
    row = session.get(WiringPlanRow, plan_id)
    if row is None:
        raise NotFound("plan_id", f"wiring plan {plan_id} not found")
    return row


def list_plans(session: Session, project_id: int, *, page: int, limit: int) -> Page[WiringPlanRow]:
    stmt = select(WiringPlanRow).where(WiringPlanRow.project_id == project_id).order_by(WiringPlanRow.id.desc())
    return paginate(session, stmt, page=page, limit=limit)


def rename_plan(session: Session, principal: Principal, plan: WiringPlanRow, name: str, if_match: int) -> WiringPlanRow:
    def change(plan: WiringPlanRow) -> None:
        plan.name = name

    audited_update(
        session, plan, if_match, _target(principal, plan),
        snapshot=lambda plan: {"name": plan.name}, change=change,
    )  # fmt: skip
    return plan


def delete_plan(session: Session, principal: Principal, plan: WiringPlanRow, if_match: int) -> None:
    audited_delete(
        session, plan, if_match, _target(principal, plan),
        snapshot=lambda plan: {"name": plan.name, "spec": plan.spec},
        remove=lambda plan: session.execute(delete(WiringPlanRow).where(WiringPlanRow.id == plan.id)),
    )  # fmt: skip


def _target(principal: Principal, plan: WiringPlanRow) -> Target:
    return Target(principal, plan.project_id, "wiring_plan", plan.id, f"wiring plan {plan.id}")
