"""Wiring plans: generate from a stored hall, store (COPY), list cables, diff, price, export to the engine.

Prices are never stored with a plan: its summary keeps the plan's materials (parts and quantities,
`domain.bom.Materials`), and every read prices them with the project's current price book, naming
the book version. A plan generated last year is compared with today's prices, like every other.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Select, delete, func, select
from sqlalchemy.orm import Session

from loopline.db.models import LogicalRack, ServerModel
from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.db.repositories import Page, paginate
from loopline.db.repositories.wiring import CABLE_COPY_COLUMNS, DEVICE_COPY_COLUMNS, copy_rows
from loopline.domain import bom
from loopline.domain import layout as dl
from loopline.domain.cable_routes import Point3, route_points
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.labels import rack_name
from loopline.domain.media import Medium, PriceBook
from loopline.domain.routing import GeometryPreset, Via, geometry_preset, tray_z_mm
from loopline.domain.scenario import build_scenario
from loopline.domain.wiring import (
    SUBWAYS_PATTERNS,
    Cable,
    Device,
    DiffStatus,
    FabricKind,
    FabricSpec,
    GrinScope,
    LinkClass,
    Loop,
    ParallelPorts,
    Pattern,
    PlanDiff,
    Role,
    UpgradeMaterials,
    WiringPlan,
    WiringSpec,
    diff_cables,
    generate_plan,
    summarize,
    upgrade_materials,
)
from loopline.domain.wiring.options import Feasibility, feasibility
from loopline.domain.wiring.summary import SUMMARY_FORMAT
from loopline.domain.wiring.work_order import WorkStep, work_order
from loopline.services import audit, pricing
from loopline.services.access import Principal
from loopline.services.layout_snapshot import get_hall_or_404, load_catalog, load_fabric, load_hall
from loopline.services.mutations import Target, audited_delete, audited_update

_FABRIC_KIND = {
    dl.FabricType.FAT_TREE: FabricKind.THREE_TIER,
    dl.FabricType.LEAF_SPINE: FabricKind.LEAF_SPINE,
    dl.FabricType.VL2: FabricKind.VL2,
}


@dataclass(frozen=True, slots=True)
class ParallelOptions:
    ports: int = 1
    gbps: float = 25.0
    tor_server_ports: int = 48
    clusters: int = 1
    pattern: Pattern | None = None
    loop: int | None = None


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
        if self.parallel is not None and self.parallel.pattern is not None:
            out["parallel"]["pattern"] = self.parallel.pattern.value
        return out

    @classmethod
    def from_json(cls, spec: dict[str, Any]) -> PlanOptions:
        values = dict(spec)
        values["pattern"] = Pattern(values["pattern"])
        if "grin_scope" in values:
            values["grin_scope"] = GrinScope(values["grin_scope"])
        if values.get("parallel") is not None:
            par = dict(values["parallel"])
            if par.get("pattern") is not None:
                par["pattern"] = Pattern(par["pattern"])
            values["parallel"] = ParallelOptions(**par)
        return cls(**values)


def wiring_spec(request: PlanOptions, fabric: dl.FabricSettings) -> WiringSpec:
    parallel = request.parallel
    if parallel is not None and parallel.loop is not None:
        loop_pattern = parallel.pattern or request.pattern
        if loop_pattern not in SUBWAYS_PATTERNS:
            raise DomainError("parallel.loop", f"l applies to Subways patterns, not {loop_pattern}")
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
            ParallelPorts(
                parallel.ports,
                parallel.gbps,
                parallel.tor_server_ports,
                parallel.clusters,
                parallel.pattern,
                parallel.loop,
            )
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


def server_port_speeds(hall: dl.Hall) -> dict[str, float]:
    """Server model name -> its ports' speed, for the models of the hall (which servers need a NIC)."""
    return {
        lr.server_model.name: lr.server_model.port_gbps
        for row in hall.rows
        for rk in row.racks
        for lr in rk.logical_racks
    }


def upgrade_spec(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`base`'s stored spec with `changes`; parameters the new pattern does not take (a loop, a
    Subways type or clusters outside Subways, a GRIN degree outside GRIN) are dropped, not kept."""
    spec = {**base, **changes}
    pattern = Pattern(spec["pattern"])
    if pattern not in SUBWAYS_PATTERNS:
        spec.update(loop=None, subways_type=1, clusters=1)
    if pattern is not Pattern.GRIN:
        spec["grin_degree"] = 0
    elif not spec.get("grin_degree"):
        spec["grin_degree"] = 1
    return spec


def create_upgrade(
    session: Session, principal: Principal, base: WiringPlanRow, name: str, changes: dict[str, Any]
) -> WiringPlanRow:
    """A plan for `base`'s hall from `base`'s parameters with `changes` (e.g. ``{"ports": 3}``,
    ``{"parallel": {...}}``, ``{"loop": 8}``), stored as an upgrade of `base` with its diff."""
    spec = {**upgrade_spec(base.spec, changes), "name": name, "upgrade_from_plan_id": base.id}
    return create_plan(session, principal, base.hall_id, PlanOptions.from_json(spec))


# ---------------------------------------------------------------- what the hall can build


@dataclass(frozen=True, slots=True)
class WiringOption:
    """A change (an upgrade's) or a pattern (a new plan's) the form may offer, and whether the hall
    can build it; `server_models`: the catalog's models with the NIC ports it needs, when it needs them."""

    kind: str
    label: str
    change: dict[str, Any]
    feasibility: Feasibility
    server_models: list[ServerModel]


_PARALLEL_DEFAULT = {"ports": 1, "gbps": 100.0, "tor_server_ports": 32, "clusters": 1}
_LOOP_SUGGESTIONS = (2, 3, 4, 6, 8)


def _option(
    session: Session, hall: dl.Hall, project_id: int, fabric: dl.FabricSettings, kind: str, label: str,
    change: dict[str, Any], spec: dict[str, Any],
) -> WiringOption:  # fmt: skip
    request = PlanOptions.from_json({**spec, "name": label, "upgrade_from_plan_id": None})
    try:
        found = feasibility(hall, wiring_spec(request, fabric), geometry_for(request))
    except DomainError as e:  # the request itself (a parameter out of place)
        found = Feasibility(False, e.field, e.reason)
    models: list[ServerModel] = []
    if found.needs_hardware:
        need = max(x.needed for x in found.shortfalls)
        speeds = {lr.server_model.port_gbps for row in hall.rows for rk in row.racks for lr in rk.logical_racks}
        servers, _, _ = load_catalog(session, usable_in=project_id)
        models = sorted(
            (m for m in servers.values() if m.nic_ports >= need and m.port_gbps in speeds),
            key=lambda m: (m.nic_ports, m.height_u, m.name),
        )
    return WiringOption(kind, label, change, found, models)


def upgrade_options(session: Session, base: WiringPlanRow) -> list[WiringOption]:
    """The upgrades of `base` a planner is offered (p + 1, a parallel port, other loop lengths, other
    patterns), each generated against the hall as it is now: buildable, buildable with servers of more
    NIC ports (and which catalog models have them), or not, with the reason."""
    hall = load_hall(session, base.hall_id)
    fabric = load_fabric(session, base.project_id)
    spec = base.spec
    pattern = Pattern(spec["pattern"])
    own = max((lr.ports_used for row in hall.rows for rk in row.racks for lr in rk.logical_racks), default=1)
    ports = int(spec.get("ports") or own)
    candidates: list[tuple[str, str, dict[str, Any]]] = [
        ("ports", f"p={ports + 1}", {"ports": ports + 1}),
        ("parallel", "+1x100G parallel", {"parallel": dict(_PARALLEL_DEFAULT)}),
    ]
    if pattern in SUBWAYS_PATTERNS:
        candidates += [
            ("loop", f"l={n}", {"loop": n}) for n in _LOOP_SUGGESTIONS if n >= ports and n != spec.get("loop")
        ]
    candidates += [("pattern", f"pattern {p.value}", {"pattern": p.value}) for p in Pattern if p is not pattern]
    return [
        _option(session, hall, base.project_id, fabric, kind, label, change, upgrade_spec(spec, change))
        for kind, label, change in candidates
    ]


def pattern_options(session: Session, hall_id: int) -> list[WiringOption]:
    """Every pattern for a new plan of the hall with its default parameters (the racks' own p, GRIN
    degree 1), and whether the hall can build it as it is, or with servers of more NIC ports."""
    hall_row = get_hall_or_404(session, hall_id)
    hall = load_hall(session, hall_id)
    fabric = load_fabric(session, hall_row.project_id)
    out = []
    for p in Pattern:
        change: dict[str, Any] = {"pattern": p.value, **({"grin_degree": 1} if p is Pattern.GRIN else {})}
        out.append(_option(session, hall, hall_row.project_id, fabric, "pattern", p.value, change, change))
    return out


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
        roles = {x.name: x.role for x in _diff_devices(session, base.id)}
        diff = diff_cables(_diff_cables(session, base.id), plan.cables, roles, {x.name: x.role for x in plan.devices})

    row = WiringPlanRow(
        project_id=hall_row.project_id,
        hall_id=hall_id,
        name=request.name,
        spec=request.to_json(),
        base_plan_id=base.id if base else None,
        summary=summarize(plan, server_port_speeds(hall)).to_json(),
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


# ---------------------------------------------------------------- priced summaries and BOMs


@dataclass(frozen=True, slots=True)
class PlanView:
    """A stored plan as the API shows it: its summary priced with the project's current book."""

    id: int
    project_id: int
    hall_id: int
    name: str
    spec: dict[str, Any]
    base_plan_id: int | None
    summary: dict[str, Any]
    diff: dict[str, Any] | None
    loops: list[Any]
    created_at: datetime
    version: int


def current_summary(session: Session, row: WiringPlanRow) -> dict[str, Any]:
    """The stored summary; one of an older format (no materials) is recomputed once and stored."""
    if row.summary.get("format") != SUMMARY_FORMAT:
        row.summary = summarize(load_plan(session, row), _hall_server_speeds(session, row.hall_id)).to_json()
        session.flush()
    return row.summary


def plan_materials(session: Session, row: WiringPlanRow) -> bom.Materials:
    return bom.Materials.from_json(current_summary(session, row)["materials"])


def plan_view(session: Session, row: WiringPlanRow, book: PriceBook | None = None) -> PlanView:
    book = book or pricing.price_book(session, row.project_id)
    summary = dict(current_summary(session, row))
    priced = bom.price(bom.Materials.from_json(summary.pop("materials")), book)
    summary["cost"] = priced.cost_summary()
    summary["warnings"] = [*summary.get("warnings", []), *priced.warnings]
    return PlanView(
        row.id, row.project_id, row.hall_id, row.name, row.spec, row.base_plan_id, summary, row.diff, row.loops,
        row.created_at, row.version,
    )  # fmt: skip


def list_plan_views(
    session: Session, project_id: int, *, page: int, limit: int, hall_id: int | None = None
) -> Page[PlanView]:
    stmt = select(WiringPlanRow).where(WiringPlanRow.project_id == project_id)
    if hall_id is not None:
        stmt = stmt.where(WiringPlanRow.hall_id == hall_id)
    found = paginate(session, stmt.order_by(WiringPlanRow.id.desc()), page=page, limit=limit)
    book = pricing.price_book(session, project_id)
    return Page([plan_view(session, r, book) for r in found.items], found.total, found.page, found.limit)


def bill_of_materials(session: Session, plan: WiringPlanRow) -> bom.Bom:
    """Priced from the plan's stored materials: no cable is read, whatever the plan's size."""
    return bom.price(plan_materials(session, plan), pricing.price_book(session, plan.project_id))


# ---------------------------------------------------------------- diffs


_DIFF_COLUMNS = (
    PlanCableRow.cable_id, PlanCableRow.a_device, PlanCableRow.a_port, PlanCableRow.b_device, PlanCableRow.b_port,
    PlanCableRow.part_number, PlanCableRow.ordered_mm, PlanCableRow.medium, PlanCableRow.transceiver,
    PlanCableRow.gbps,
)  # fmt: skip


def _diff_cables(session: Session, plan_id: int) -> Sequence[Any]:
    # Plain Core rows of the ten columns a diff reads: a 200,000-cable plan stays light.
    stmt = select(*_DIFF_COLUMNS).where(PlanCableRow.plan_id == plan_id).order_by(PlanCableRow.seq)
    return session.connection().execute(stmt).all()


def _diff_devices(session: Session, plan_id: int) -> Sequence[Any]:
    stmt = select(PlanDeviceRow.name, PlanDeviceRow.role, PlanDeviceRow.model).where(PlanDeviceRow.plan_id == plan_id)
    return session.connection().execute(stmt.order_by(PlanDeviceRow.node_id)).all()


@dataclass(frozen=True, slots=True)
class Comparison:
    """`new` diffed against `old`, and the bill of materials of the change alone, priced."""

    old: WiringPlanRow
    new: WiringPlanRow
    diff: PlanDiff
    buy: bom.Bom
    freed: bom.Bom


def _check_pair(old: WiringPlanRow, new: WiringPlanRow) -> None:
    if old.hall_id != new.hall_id:
        raise Conflict("against", f"plans {old.id} and {new.id} wire different halls")


def compare_plans(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> Comparison:
    _check_pair(old, new)
    d, change = _computed_diff(session, old, new)
    book = pricing.price_book(session, new.project_id)
    return Comparison(old, new, d, bom.price(change.buy, book), bom.price(change.freed, book))


_DIFF_CACHE: OrderedDict[tuple[object, ...], tuple[PlanDiff, UpgradeMaterials]] = OrderedDict()
_DIFF_CACHE_SIZE = 4
_DIFF_CACHE_LOCK = threading.Lock()


def _computed_diff(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> tuple[PlanDiff, UpgradeMaterials]:
    """The diff of two plans and the parts of the change, unpriced. A plan's cables and devices
    never change once generated, so neither does this: the pages of a 200,000-cable diff and the
    diff's own answer share it through a small per-process cache (the last few pairs, keyed by
    plan ids and the hall's server port speeds) instead of reading both plans again each time."""
    speeds = _hall_server_speeds(session, new.hall_id)
    key = (old.id, new.id, tuple(sorted(speeds.items())))
    with _DIFF_CACHE_LOCK:
        found = _DIFF_CACHE.get(key)
        if found is not None:
            _DIFF_CACHE.move_to_end(key)
            return found
    old_cables, new_cables = _diff_cables(session, old.id), _diff_cables(session, new.id)
    old_devices, new_devices = _diff_devices(session, old.id), _diff_devices(session, new.id)
    d = diff_cables(
        old_cables, new_cables, {x.name: x.role for x in old_devices}, {x.name: x.role for x in new_devices}
    )
    computed = (d, upgrade_materials(d, old_cables, new_cables, old_devices, new_devices, speeds))
    with _DIFF_CACHE_LOCK:
        _DIFF_CACHE[key] = computed
        while len(_DIFF_CACHE) > _DIFF_CACHE_SIZE:
            _DIFF_CACHE.popitem(last=False)
    return computed


def plan_diff(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> PlanDiff:
    """`new` diffed against `old` (same hall), as the comparison and the work order read it."""
    _check_pair(old, new)
    return _computed_diff(session, old, new)[0]


def _hall_server_speeds(session: Session, hall_id: int) -> dict[str, float]:
    """`server_port_speeds` of the stored hall, without loading its layout."""
    stmt = (
        select(ServerModel.name, ServerModel.port_gbps)
        .join(LogicalRack, LogicalRack.server_model_id == ServerModel.id)
        .where(LogicalRack.hall_id == hall_id)
        .distinct()
    )
    return {name: gbps for name, gbps in session.execute(stmt)}


def _statuses(d: PlanDiff, status: DiffStatus | None) -> list[tuple[DiffStatus, str]]:
    order = (
        [status] if status is not None else [DiffStatus.ADDED, DiffStatus.MOVED, DiffStatus.REMOVED, DiffStatus.KEPT]
    )
    return [(st, cable_id) for st in order for cable_id in d.new_ids(st)]


def diff_cable_page(
    session: Session, old: WiringPlanRow, new: WiringPlanRow, status: DiffStatus | None, *, page: int, limit: int
) -> Page[dict[str, Any]]:
    """The diff's cables with both ends, labels and lengths, `status` first (added, moved, removed,
    kept when None). Kept, added and moved cables are read from the new plan (a moved one with the
    old cable it replaces as `moved_from`), removed ones from the old plan."""
    _check_pair(old, new)
    d, _ = _computed_diff(session, old, new)
    listing = _statuses(d, status)
    chunk = listing[(page - 1) * limit : page * limit]
    moved_from = {n: o for o, n in d.moved}
    changed = set(d.changed)
    in_new = _cables_by_id(session, new.id, [i for st, i in chunk if st is not DiffStatus.REMOVED])
    old_ids = [i if st is DiffStatus.REMOVED else moved_from[i] for st, i in chunk if st in _FROM_OLD]
    in_old = _cables_by_id(session, old.id, old_ids)
    items = []
    for st, cable_id in chunk:
        row = in_old[cable_id] if st is DiffStatus.REMOVED else in_new[cable_id]
        items.append(
            {
                "status": st.value,
                "changed": cable_id in changed,
                "cable": _cable_json(new, row, None),
                "moved_from": _cable_json(old, in_old[moved_from[cable_id]], None) if st is DiffStatus.MOVED else None,
            }
        )
    return Page(items=items, total=len(listing), page=page, limit=limit)


_FROM_OLD = (DiffStatus.REMOVED, DiffStatus.MOVED)


_WORK_COLUMNS = (
    PlanCableRow.cable_id, PlanCableRow.label, PlanCableRow.a_device, PlanCableRow.a_port, PlanCableRow.a_row,
    PlanCableRow.a_rack, PlanCableRow.b_device, PlanCableRow.b_port, PlanCableRow.b_row, PlanCableRow.b_rack,
    PlanCableRow.part_number, PlanCableRow.ordered_mm,
)  # fmt: skip


def _work_cables(session: Session, plan_id: int, ids: list[str]) -> dict[str, Any]:
    # Plain Core rows of the columns a work order reads, in batches (an IN list of 100,000 is slow).
    out: dict[str, Any] = {}
    for i in range(0, len(ids), 5000):
        stmt = select(*_WORK_COLUMNS).where(
            PlanCableRow.plan_id == plan_id, PlanCableRow.cable_id.in_(ids[i : i + 5000])
        )
        out.update((r.cable_id, r) for r in session.connection().execute(stmt))
    return out


def work_order_steps(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> list[WorkStep]:
    """The re-cabling work order of `old` -> `new` (`domain.wiring.work_order`): the diff's cables
    with their ends, and every server's links in the old plan."""
    _check_pair(old, new)
    d, _ = _computed_diff(session, old, new)
    old_cables = _work_cables(session, old.id, [*d.removed, *(o for o, _ in d.moved), *d.changed])
    new_cables = _work_cables(session, new.id, [*d.added, *(n for _, n in d.moved), *d.changed])
    servers = (
        select(PlanDeviceRow.name).where(PlanDeviceRow.plan_id == old.id, PlanDeviceRow.role == Role.SERVER.value)
    ).subquery()
    links: dict[str, int] = {name: 0 for (name,) in session.execute(select(servers.c.name))}
    for end in (PlanCableRow.a_device, PlanCableRow.b_device):
        stmt = (
            select(end, func.count())
            .where(PlanCableRow.plan_id == old.id, end.in_(select(servers.c.name)))
            .group_by(end)
        )
        for name, n in session.execute(stmt):
            links[name] += int(n)
    return work_order(d, old_cables, new_cables, links)


def _cables_by_id(session: Session, plan_id: int, ids: Iterable[str]) -> dict[str, PlanCableRow]:
    wanted = list(ids)
    if not wanted:
        return {}
    stmt = select(PlanCableRow).where(PlanCableRow.plan_id == plan_id, PlanCableRow.cable_id.in_(wanted))
    return {c.cable_id: c for c in session.execute(stmt).scalars()}
