"""Wiring plans: generate from a stored hall, store (COPY), list cables, diff, export to the engine."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from sqlalchemy import Select, delete, func, select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.db.repositories import Page, paginate
from loopline.db.repositories.wiring import CABLE_COPY_COLUMNS, DEVICE_COPY_COLUMNS, copy_rows
from loopline.domain import bom
from loopline.domain import layout as dl
from loopline.domain.cable_routes import Point3, route_points
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.labels import rack_name
from loopline.domain.media import Medium
from loopline.domain.routing import GeometryPreset, Via, geometry_preset, tray_z_mm
from loopline.domain.scenario import build_scenario
from loopline.domain.wiring import (
    Cable,
    Device,
    FabricKind,
    FabricSpec,
    GrinScope,
    LinkClass,
    Loop,
    ParallelPorts,
    Pattern,
    PlanDiff,
    Role,
    WiringPlan,
    WiringSpec,
    diff_plans,
    generate_plan,
    summarize,
)
from loopline.services import audit
from loopline.services.access import Principal
from loopline.services.layout_snapshot import get_hall_or_404, load_fabric, load_hall
from loopline.services.mutations import Target, audited_delete, audited_update

_FABRIC_KIND = {
    dl.FabricType.FAT_TREE: FabricKind.THREE_TIER,
    dl.FabricType.LEAF_SPINE: FabricKind.LEAF_SPINE,
    dl.FabricType.VL2: FabricKind.VL2,
}
DIFF_LIST_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class ParallelOptions:
    ports: int = 1
    gbps: float = 25.0
    tor_server_ports: int = 48
    clusters: int = 1


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """What a plan is generated from. Stored with the plan as its `spec` (`to_json`), which is also
    the API's request body: lengths there are metres (`service_allowance_m`)."""

    name: str
    pattern: Pattern
    ports: int | None = None
    subways_type: Literal[1, 2] = 1
    loop: int | None = None
    clusters: int = 1
    grin_degree: int = 0
    grin_scope: GrinScope = GrinScope.RACK
    geometry: Literal["default", "paper"] = "default"
    route_via: Literal["tray", "floor"] = "tray"
    service_allowance_m: float | None = None
    slack_pct: float | None = None
    fabric_optical: bool = True
    parallel: ParallelOptions | None = None
    upgrade_from_plan_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["pattern"] = self.pattern.value
        out["grin_scope"] = self.grin_scope.value
        out["parallel"] = None if self.parallel is None else asdict(self.parallel)
        return out

    @classmethod
    def from_json(cls, spec: dict[str, Any]) -> PlanOptions:
        values = dict(spec)
        values["pattern"] = Pattern(values["pattern"])
        if "grin_scope" in values:
            values["grin_scope"] = GrinScope(values["grin_scope"])
        if values.get("parallel") is not None:
            values["parallel"] = ParallelOptions(**values["parallel"])
        return cls(**values)


def wiring_spec(request: PlanOptions, fabric: dl.FabricSettings) -> WiringSpec:
    parallel = request.parallel
    return WiringSpec(
        pattern=request.pattern,
        ports=request.ports,
        subways_type=request.subways_type,
        loop=request.loop,
        clusters=request.clusters,
        grin_degree=request.grin_degree,
        grin_scope=request.grin_scope,
        rows_per_cluster=fabric.rows_per_cluster,
        fabric=FabricSpec(
            kind=_FABRIC_KIND[fabric.fabric_type],
            uplinks_per_tor=fabric.tor_uplinks,
            optical=request.fabric_optical,
        ),
        parallel=(
            ParallelPorts(parallel.ports, parallel.gbps, parallel.tor_server_ports, parallel.clusters)
            if parallel
            else None
        ),
    )


def geometry_for(request: PlanOptions) -> GeometryPreset:
    preset = geometry_preset(request.geometry)
    if request.route_via == "floor":
        if request.geometry == "paper":
            raise DomainError("route_via", "the paper geometry runs cables along the rack faces, not under the floor")
        preset = preset.with_route(Via.FLOOR)
    return preset.with_lengths(
        service_allowance_mm=None if request.service_allowance_m is None else round(request.service_allowance_m * 1000),
        slack_pct=request.slack_pct,
    )


def route_level_mm(geometry: GeometryPreset, hall: dl.Hall) -> int:
    """Height of the cable run between racks: the tray, or half-way down the raised floor."""
    if geometry.via is Via.FLOOR:
        return -(hall.raised_floor_mm // 2)
    return tray_z_mm(geometry, hall)


# ---------------------------------------------------------------- create


def create_plan(session: Session, principal: Principal, hall_id: int, request: PlanOptions) -> WiringPlanRow:
    hall_row = get_hall_or_404(session, hall_id)
    hall = load_hall(session, hall_id)
    fabric = load_fabric(session, hall_row.project_id)
    geometry = geometry_for(request)
    plan = generate_plan(hall, wiring_spec(request, fabric), geometry=geometry)

    base: WiringPlanRow | None = None
    diff: PlanDiff | None = None
    if request.upgrade_from_plan_id is not None:
        base = session.get(WiringPlanRow, request.upgrade_from_plan_id)
        if base is None or base.project_id != hall_row.project_id:
            raise NotFound("upgrade_from_plan_id", f"wiring plan {request.upgrade_from_plan_id} not found")
        if base.hall_id != hall_id:
            raise DomainError("upgrade_from_plan_id", f"plan {base.id} wires another hall ({base.hall_id})")
        diff = diff_plans(load_plan(session, base), plan)

    row = WiringPlanRow(
        project_id=hall_row.project_id,
        hall_id=hall_id,
        name=request.name,
        spec=request.to_json(),
        base_plan_id=base.id if base else None,
        summary=summarize(plan).to_json(),
        diff=diff.counts() if diff else None,
        loops=[
            {"id": lp.id, "subways_type": lp.subways_type, "logical_racks": list(lp.logical_racks)} for lp in plan.loops
        ],
        tray_z_mm=route_level_mm(geometry, hall),
        via=geometry.via.value,
        created_by=principal.user.id,
    )
    session.add(row)
    session.flush()
    _store_plan(session, row.id, hall, plan)
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


def _store_plan(session: Session, plan_id: int, hall: dl.Hall, plan: WiringPlan) -> None:
    row_of_rack = {rack_name(hall.name, r.name, k.name): r.name for r in hall.rows for k in r.racks}
    rack_of = {d.name: d.rack for d in plan.devices}
    copy_rows(
        session,
        "plan_devices",
        DEVICE_COPY_COLUMNS,
        (
            (plan_id, d.node_id, d.name, d.role.value, d.rack, d.u, d.model, d.logical_rack,
             d.cluster, d.loop, d.loop_position, d.x_mm, d.y_mm, d.z_mm)
            for d in plan.devices
        ),
    )  # fmt: skip
    copy_rows(
        session,
        "plan_cables",
        CABLE_COPY_COLUMNS,
        (
            (plan_id, c.cable_id, seq, c.label, c.link_class.value,
             c.a_device, c.a_port, (ar := rack_of[c.a_device]), row_of_rack.get(ar, ""),
             c.b_device, c.b_port, (br := rack_of[c.b_device]), row_of_rack.get(br, ""),
             c.gbps, c.raw_mm, c.slack_mm, c.ordered_mm, c.medium.value, c.part_number,
             c.transceiver, c.latency_ns, c.unit_price)
            for seq, c in enumerate(plan.cables)
        ),
    )  # fmt: skip


# ---------------------------------------------------------------- read


def get_plan(session: Session, plan_id: int) -> WiringPlanRow:
    row = session.get(WiringPlanRow, plan_id)
    if row is None:
        raise NotFound("plan_id", f"wiring plan {plan_id} not found")
    return row


def list_plans(session: Session, project_id: int, *, page: int, limit: int) -> Page[WiringPlanRow]:
    stmt = select(WiringPlanRow).where(WiringPlanRow.project_id == project_id).order_by(WiringPlanRow.id.desc())
    return paginate(session, stmt, page=page, limit=limit)


def load_plan(session: Session, row: WiringPlanRow) -> WiringPlan:
    """Rebuild the domain plan from storage (for diffs and scenario export)."""
    devices = [
        Device(
            name=d.name, node_id=d.node_id, role=Role(d.role), rack=d.rack, u=d.u, model=d.model,
            logical_rack=d.logical_rack, cluster=d.cluster, loop=d.loop, loop_position=d.loop_position,
            x_mm=d.x_mm, y_mm=d.y_mm, z_mm=d.z_mm,
        )
        for d in session.execute(
            select(PlanDeviceRow).where(PlanDeviceRow.plan_id == row.id).order_by(PlanDeviceRow.node_id)
        ).scalars()
    ]  # fmt: skip
    cables = [
        Cable(
            c.cable_id, c.label, LinkClass(c.link_class), c.a_device, c.a_port, c.b_device, c.b_port, c.gbps,
            c.raw_mm, c.slack_mm, c.ordered_mm, Medium(c.medium), c.part_number, c.transceiver, c.latency_ns,
            c.unit_price,
        )
        for c in session.execute(
            select(PlanCableRow).where(PlanCableRow.plan_id == row.id).order_by(PlanCableRow.seq)
        ).scalars()
    ]  # fmt: skip
    request = PlanOptions.from_json(row.spec)
    loops = [Loop(lp["id"], tuple(lp["logical_racks"]), lp["subways_type"]) for lp in row.loops]
    return WiringPlan(
        hall=str(row.hall_id),
        spec=wiring_spec(request, dl.FabricSettings()),
        geometry=geometry_for(request),
        devices=devices,
        cables=cables,
        loops=loops,
        warnings=list(row.summary.get("warnings", [])),
    )


@dataclass(frozen=True, slots=True)
class CableFilters:
    row: str | None = None
    rack: str | None = None
    medium: Medium | None = None
    link_class: LinkClass | None = None
    min_length_mm: int | None = None
    max_length_mm: int | None = None


def _filtered(plan_id: int, f: CableFilters) -> Select[tuple[PlanCableRow]]:
    stmt = select(PlanCableRow).where(PlanCableRow.plan_id == plan_id)
    if f.row is not None:
        stmt = stmt.where((PlanCableRow.a_row == f.row) | (PlanCableRow.b_row == f.row))
    if f.rack is not None:
        # Either the full name (H1.R01.K03) or the rack's own name (K03) within the filtered row.
        if "." in f.rack:
            stmt = stmt.where((PlanCableRow.a_rack == f.rack) | (PlanCableRow.b_rack == f.rack))
        else:
            suffix = f"%.{f.rack}"
            stmt = stmt.where(PlanCableRow.a_rack.like(suffix) | PlanCableRow.b_rack.like(suffix))
    if f.medium is not None:
        stmt = stmt.where(PlanCableRow.medium == f.medium.value)
    if f.link_class is not None:
        stmt = stmt.where(PlanCableRow.link_class == f.link_class.value)
    if f.min_length_mm is not None:
        stmt = stmt.where(PlanCableRow.raw_mm >= f.min_length_mm)
    if f.max_length_mm is not None:
        stmt = stmt.where(PlanCableRow.raw_mm <= f.max_length_mm)
    return stmt


def list_cables(
    session: Session, plan: WiringPlanRow, filters: CableFilters, *, page: int, limit: int, include_route: bool
) -> Page[dict[str, Any]]:
    stmt = _filtered(plan.id, filters)
    total = session.execute(select(func.count()).select_from(stmt.subquery())).scalar_one()
    rows = list(session.execute(stmt.order_by(PlanCableRow.seq).limit(limit).offset((page - 1) * limit)).scalars())
    positions = (
        _positions(session, plan.id, {n for c in rows for n in (c.a_device, c.b_device)}) if include_route else {}
    )
    items = [_cable_json(plan, c, positions if include_route else None) for c in rows]
    return Page(items=items, total=total, page=page, limit=limit)


def _positions(session: Session, plan_id: int, names: set[str] | None) -> dict[str, tuple[Point3, str]]:
    stmt = select(PlanDeviceRow.name, PlanDeviceRow.x_mm, PlanDeviceRow.y_mm, PlanDeviceRow.z_mm, PlanDeviceRow.rack)
    stmt = stmt.where(PlanDeviceRow.plan_id == plan_id)
    if names is not None:
        stmt = stmt.where(PlanDeviceRow.name.in_(names))
    # Plain Core rows: no ORM bookkeeping for the 100,000 devices of a large plan.
    return {name: ((x, y, z), rack) for name, x, y, z, rack in session.connection().execute(stmt)}


def _route(plan: WiringPlanRow, a: tuple[Point3, str], b: tuple[Point3, str]) -> list[Point3]:
    return route_points(Via(plan.via), plan.tray_z_mm, a[1] == b[1], a[0], b[0])


def _cable_json(
    plan: WiringPlanRow, c: PlanCableRow, positions: dict[str, tuple[Point3, str]] | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cable_id": c.cable_id,
        "label": c.label,
        "link_class": c.link_class,
        "a": {"device": c.a_device, "port": c.a_port, "row": c.a_row, "rack": c.a_rack},
        "b": {"device": c.b_device, "port": c.b_port, "row": c.b_row, "rack": c.b_rack},
        "gbps": c.gbps,
        "medium": c.medium,
        "part_number": c.part_number,
        "transceiver": c.transceiver,
        "raw_length_m": c.raw_mm / 1000,
        "length_with_slack_m": c.slack_mm / 1000,
        "ordered_length_m": c.ordered_mm / 1000,
        "unit_price": c.unit_price,
    }
    if positions is not None:
        points = _route(plan, positions[c.a_device], positions[c.b_device])
        out["route"] = [(x / 1000, y / 1000, z / 1000) for x, y, z in points]
    return out


def render_buffers(session: Session, plan: WiringPlanRow) -> dict[str, Any]:
    positions = _positions(session, plan.id, None)
    media: dict[str, int] = {}
    cable_ids: list[str] = []
    labels: list[str] = []
    medium: list[int] = []
    lengths: list[int] = []
    offsets: list[int] = []
    points: list[int] = []
    stmt = select(
        PlanCableRow.cable_id, PlanCableRow.label, PlanCableRow.medium, PlanCableRow.raw_mm,
        PlanCableRow.a_device, PlanCableRow.b_device,
    ).where(PlanCableRow.plan_id == plan.id).order_by(PlanCableRow.seq)  # fmt: skip
    n_points = 0
    for cable_id, label, med, raw, a, b in session.connection().execute(stmt):
        cable_ids.append(cable_id)
        labels.append(label)
        medium.append(media.setdefault(med, len(media)))
        lengths.append(raw)
        offsets.append(n_points)
        route = _route(plan, positions[a], positions[b])
        n_points += len(route)
        for p in route:
            points.extend(p)
    offsets.append(n_points)
    return {
        "media": list(media),
        "cable_ids": cable_ids,
        "labels": labels,
        "medium": medium,
        "raw_length_mm": lengths,
        "offsets": offsets,
        "points": points,
    }


def plan_diff(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> dict[str, Any]:
    if old.hall_id != new.hall_id:
        raise Conflict("against", f"plans {old.id} and {new.id} wire different halls")
    d = diff_plans(load_plan(session, old), load_plan(session, new))
    return {
        "old_plan_id": old.id,
        "new_plan_id": new.id,
        "counts": d.counts(),
        "added": d.added[:DIFF_LIST_LIMIT],
        "moved": d.moved[:DIFF_LIST_LIMIT],
        "removed": d.removed[:DIFF_LIST_LIMIT],
        "hardware_added": {role: names[:DIFF_LIST_LIMIT] for role, names in d.hardware_added.items()},
    }


def scenario(session: Session, plan: WiringPlanRow) -> dict[str, Any]:
    return build_scenario(load_plan(session, plan), name=plan.name)


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


def bill_of_materials(session: Session, plan: WiringPlanRow) -> dict[str, object]:
    return bom.bill_of_materials(load_plan(session, plan)).to_json()
