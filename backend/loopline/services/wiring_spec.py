"""What a wiring plan is generated from: the stored spec (`PlanOptions`, also the API's request body)
and its domain form (`WiringSpec`, the geometry preset, the route level), and the server port
speeds of a hall (which servers need a NIC)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import LogicalRack, ServerModel, SwitchModel
from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.routing import GeometryPreset, Via, geometry_preset, tray_z_mm
from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
from loopline.domain.wiring import (
    RAIL_PATTERNS,
    SUBWAYS_PATTERNS,
    FabricKind,
    FabricSpec,
    GrinScope,
    ParallelPorts,
    Pattern,
    RailSpec,
    WiringSpec,
)
from loopline.domain.wiring.spec import Network
from loopline.services.layout_snapshot import usable_in_project

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
class RailLeaf:
    """The rail leaf model as the catalog held it when the plan was generated (stored with the plan,
    which is immutable: a later change to the catalog entry does not change how it was wired)."""

    name: str
    server_ports: int
    server_port_gbps: float
    uplink_ports: int
    uplink_gbps: float
    height_u: int


@dataclass(frozen=True, slots=True)
class RailOptions:
    """The rail patterns' parameters: SU size, the leaf's catalog switch model, the leaf-to-spine
    oversubscription (rail-optimized). `leaf` is filled from the catalog (`resolve_rail`)."""

    su_size: int
    leaf_model_id: int
    oversubscription: float | None = None
    spine_planes: int = 1
    leaf: RailLeaf | None = None


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
    cabling: Cabling = Cabling.DIRECT
    structured: StructuredSettings | None = None
    """The structured plant's settings; None: the defaults (with structured cabling)."""
    breakouts: bool = False
    """Fast fabric switch ports break out into lanes for slower ToR uplinks (structured cabling only)."""
    rail: RailOptions | None = None
    """Patterns rail-optimized and rail-only: SU size, leaf model, oversubscription."""
    fabric: Literal["compute", "front_end"] = "compute"
    """The network the plan wires: the servers' compute NICs, or their front-end NICs (`Network`)."""

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["pattern"] = self.pattern.value
        out["grin_scope"] = self.grin_scope.value
        out["parallel"] = None if self.parallel is None else asdict(self.parallel)
        if self.parallel is not None and self.parallel.pattern is not None:
            out["parallel"]["pattern"] = self.parallel.pattern.value
        out["cabling"] = self.cabling.value
        out["structured"] = None if self.structured is None else asdict(self.structured)
        if self.structured is not None:
            out["structured"]["panel_at"] = self.structured.panel_at.value
        out["rail"] = None if self.rail is None else asdict(self.rail)
        return out

    @classmethod
    def from_json(cls, spec: dict[str, Any]) -> PlanOptions:
        """The stored spec as options; specs stored before a field existed load with its default."""
        values = dict(spec)
        values["pattern"] = Pattern(values["pattern"])
        if "grin_scope" in values:
            values["grin_scope"] = GrinScope(values["grin_scope"])
        if values.get("parallel") is not None:
            par = dict(values["parallel"])
            if par.get("pattern") is not None:
                par["pattern"] = Pattern(par["pattern"])
            values["parallel"] = ParallelOptions(**par)
        if "cabling" in values:
            values["cabling"] = Cabling(values["cabling"])
        if values.get("structured") is not None:
            st = dict(values["structured"])
            if "panel_at" in st:
                st["panel_at"] = PanelPlacement(st["panel_at"])
            values["structured"] = StructuredSettings(**st)
        if values.get("rail") is not None:
            rail = dict(values["rail"])
            if rail.get("leaf") is not None:
                rail["leaf"] = RailLeaf(**rail["leaf"])
            values["rail"] = RailOptions(**rail)
        return cls(**values)


def resolve_rail(session: Session, project_id: int, request: PlanOptions) -> PlanOptions:
    """`request` with its rail leaf model read from the catalog entries the project may use."""
    rail = request.rail
    if rail is None:
        return request
    row = session.execute(
        select(SwitchModel).where(SwitchModel.id == rail.leaf_model_id, usable_in_project(SwitchModel, project_id))
    ).scalar_one_or_none()
    if row is None:
        raise DomainError(
            "rail.leaf_model_id", f"switch model {rail.leaf_model_id} is not in the catalog this project may use"
        )
    leaf = RailLeaf(row.name, row.server_ports, row.server_port_gbps, row.uplink_ports, row.uplink_gbps, row.height_u)
    return replace(request, rail=replace(rail, leaf=leaf))


def _rail_spec(rail: RailOptions | None) -> RailSpec | None:
    if rail is None:
        return None
    if rail.leaf is None:
        raise DomainError("rail.leaf_model_id", "the rail leaf model was not read from the catalog")
    leaf = dl.SwitchModel(**asdict(rail.leaf))
    return RailSpec(
        leaf_model=leaf, su_size=rail.su_size, oversubscription=rail.oversubscription, spine_planes=rail.spine_planes
    )


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
            breakouts=request.breakouts,
        ),
        cabling=request.cabling,
        rail=_rail_spec(request.rail),
        network=Network(request.fabric),
        structured=(
            (request.structured or StructuredSettings())
            if request.cabling is Cabling.STRUCTURED
            else request.structured
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
    Subways type or clusters outside Subways, a GRIN degree outside GRIN, rail settings outside the
    rail patterns) are dropped, not kept."""
    spec = {**base, **changes}
    pattern = Pattern(spec["pattern"])
    if pattern not in SUBWAYS_PATTERNS:
        spec.update(loop=None, subways_type=1, clusters=1)
    if pattern not in RAIL_PATTERNS:
        spec["rail"] = None
    if pattern is not Pattern.GRIN:
        spec["grin_degree"] = 0
    elif not spec.get("grin_degree"):
        spec["grin_degree"] = 1
    return spec


def hall_server_speeds(session: Session, hall_id: int) -> dict[str, float]:
    """`server_port_speeds` of the stored hall, without loading its layout."""
    stmt = (
        select(ServerModel.name, ServerModel.port_gbps)
        .join(LogicalRack, LogicalRack.server_model_id == ServerModel.id)
        .where(LogicalRack.hall_id == hall_id)
        .distinct()
    )
    return {name: gbps for name, gbps in session.execute(stmt)}
