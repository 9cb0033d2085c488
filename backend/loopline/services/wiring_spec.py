"""What a wiring plan is generated from: the stored spec (`PlanOptions`, also the API's request body)
and its domain form (`WiringSpec`, the geometry preset, the route level), and the server port
speeds of a hall (which servers need a NIC)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import LogicalRack, ServerModel
from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.routing import GeometryPreset, Via, geometry_preset, tray_z_mm
from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
from loopline.domain.wiring import (
    SUBWAYS_PATTERNS,
    FabricKind,
    FabricSpec,
    GrinScope,
    ParallelPorts,
    Pattern,
    WiringSpec,
)

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
    cabling: Cabling = Cabling.DIRECT
    structured: StructuredSettings | None = None
    """The structured plant's settings; None: the defaults (with structured cabling)."""
    breakouts: bool = False
    """Fast fabric switch ports break out into lanes for slower ToR uplinks (structured cabling only)."""

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
            breakouts=request.breakouts,
        ),
        cabling=request.cabling,
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


def hall_server_speeds(session: Session, hall_id: int) -> dict[str, float]:
    """`server_port_speeds` of the stored hall, without loading its layout."""
    stmt = (
        select(ServerModel.name, ServerModel.port_gbps)
        .join(LogicalRack, LogicalRack.server_model_id == ServerModel.id)
        .where(LogicalRack.hall_id == hall_id)
        .distinct()
    )
    return {name: gbps for name, gbps in session.execute(stmt)}
