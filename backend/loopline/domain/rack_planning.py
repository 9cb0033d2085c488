"""Rack planning: what a request asks for (specs) plus the catalog -> the racks to write.

Pure: specs in, plans out, `DomainError(path, reason)` for unknown catalog entries or a bad name
pattern. The services write the plans (`db/repositories/layout.py`) and check the result with the
layout rules before anything is stored (`planned_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.facility.model import CoolingKind

DEFAULT_RACK_TYPE = "42U 600x1200"
DEFAULT_RACK_NAME_PATTERN = "{row}-{index:02d}"


# ---------------------------------------------------------------- specs (what is asked for)


@dataclass(frozen=True, slots=True)
class LogicalRackSpec:
    servers: int
    server_model_id: int
    tor_model_id: int
    ports_used: int = 1
    tor_position: dl.TorPosition = dl.TorPosition.TOP
    base_u: int | None = None
    """None: stacked right above the previous logical rack (from U1)."""


@dataclass(frozen=True, slots=True)
class FabricSwitchSpec:
    name: str
    role: str  # "agg" | "spine" | "core"
    switch_model_id: int
    u: int
    cluster: int | None = None
    network: str = "compute"  # "compute" | "front_end"


@dataclass(frozen=True, slots=True)
class FeedSetting:
    """A rack feed as written: None leaves that figure to the domain's default (`facility.model.Feed`)."""

    name: str
    voltage_v: float | None = None
    phases: int | None = None
    breaker_a: float | None = None
    pdu_model_id: int | None = None


@dataclass(frozen=True, slots=True)
class RackFacilitySetting:
    """A rack's facility settings as written (stored as they are: None, and no feeds, leave the
    domain's defaults of `facility.model.RackFacility` in effect)."""

    power_budget_kw: float | None = None
    cooling_kw: float | None = None
    cooling_kind: CoolingKind | None = None
    static_load_kg: float | None = None
    feeds: tuple[FeedSetting, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class RackSpec:
    """Compared by identity: a row's template is recognised as the same object among its racks."""

    name: str | None = None
    rack_type_id: int | None = None
    """None: the default rack type (42U 600x1200)."""
    position_mm: int | None = None
    """None: touching the previous rack."""
    role: dl.RackRole = dl.RackRole.COMPUTE
    port_face: dl.Face = dl.Face.FRONT
    logical_racks: tuple[LogicalRackSpec, ...] = ()
    fabric_switches: tuple[FabricSwitchSpec, ...] = ()
    facility: RackFacilitySetting | None = None
    """None: every facility setting the domain's default."""


@dataclass(frozen=True, slots=True)
class RowSpec:
    name: str
    origin: dl.Point
    direction: int = 0
    front: dl.Side = dl.Side.LEFT
    racks: tuple[RackSpec, ...] = ()
    rack_count: int | None = None
    """Append this many copies of `rack_template`."""
    rack_template: RackSpec | None = None
    rack_name_pattern: str = DEFAULT_RACK_NAME_PATTERN
    cooling_kw: float | None = None
    """The row's own cooling; None: it shares the hall's."""


@dataclass(frozen=True, slots=True)
class RowPairSpec:
    """Two rows facing each other across a cold aisle: A at `origin`, B across the aisle."""

    name_a: str
    name_b: str
    origin: dl.Point
    rack_count: int
    rack_template: RackSpec
    direction: int = 0
    cold_aisle_mm: int = 1200
    rack_name_pattern: str = DEFAULT_RACK_NAME_PATTERN
    cooling_kw: float | None = None
    """Each row's own cooling; None: they share the hall's."""


# ---------------------------------------------------------------- catalog


class LogicalRackFields(Protocol):
    @property
    def servers(self) -> int: ...
    @property
    def server_model_id(self) -> int: ...
    @property
    def tor_model_id(self) -> int: ...
    @property
    def tor_position(self) -> dl.TorPosition: ...
    @property
    def base_u(self) -> int: ...
    @property
    def ports_used(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Catalog:
    """The device catalog by id, as domain value objects."""

    servers: Mapping[int, dl.ServerModel] = field(default_factory=dict)
    switches: Mapping[int, dl.SwitchModel] = field(default_factory=dict)
    rack_types: Mapping[int, dl.RackType] = field(default_factory=dict)

    def default_rack_type_id(self) -> int:
        for i, t in self.rack_types.items():
            if t.name == DEFAULT_RACK_TYPE:
                return i
        if not self.rack_types:
            raise DomainError("rack_type_id", "the catalog has no rack types: create one first")
        return min(self.rack_types)

    def logical_rack(self, lr: LogicalRackFields) -> dl.LogicalRack:
        return dl.LogicalRack(
            servers=lr.servers,
            server_model=self.servers[lr.server_model_id],
            tor_model=self.switches[lr.tor_model_id],
            tor_position=lr.tor_position,
            base_u=lr.base_u,
            ports_used=lr.ports_used,
        )


# ---------------------------------------------------------------- plans (what gets written)


@dataclass(frozen=True, slots=True)
class PlannedLogicalRack:
    ordinal: int
    servers: int
    server_model_id: int
    ports_used: int
    tor_model_id: int
    tor_position: dl.TorPosition
    base_u: int


@dataclass(frozen=True, slots=True)
class PlannedSwitch:
    name: str
    role: str
    switch_model_id: int
    u: int
    cluster: int | None
    network: str = "compute"


@dataclass(frozen=True, slots=True)
class RackPlan:
    name: str
    rack_type_id: int
    position_mm: int
    role: dl.RackRole
    port_face: dl.Face
    logical_racks: tuple[PlannedLogicalRack, ...] = ()
    switches: tuple[PlannedSwitch, ...] = ()
    facility: RackFacilitySetting | None = None


MAX_RACK_NAME = 100
"""Characters in a rack name (the same limit as a name the user types)."""


def rack_name(pattern: str, row_name: str, index: int, path: str) -> str:
    try:
        name = pattern.format(row=row_name, index=index)
    except (KeyError, IndexError, ValueError) as exc:
        raise DomainError(f"{path}rack_name_pattern", f"cannot format {pattern!r}: {exc}") from None
    if len(name) > MAX_RACK_NAME:
        # A long row name fills the pattern past the limit: say so rather than fail on storing it.
        raise DomainError(
            f"{path}rack_name_pattern",
            f"names rack {index} of row {row_name[:20]!r}... with {len(name)} characters; at most {MAX_RACK_NAME}",
        )
    return name


def plan_logical_racks(cat: Catalog, specs: Sequence[LogicalRackSpec], path: str) -> list[PlannedLogicalRack]:
    """Ordinals from 0; an unplaced logical rack sits right above the previous one (from U1)."""
    out: list[PlannedLogicalRack] = []
    cursor = 1
    for j, spec in enumerate(specs):
        p = f"{path}logical_racks[{j}]"
        if spec.server_model_id not in cat.servers:
            raise DomainError(f"{p}.server_model_id", f"unknown server model {spec.server_model_id}")
        if spec.tor_model_id not in cat.switches:
            raise DomainError(f"{p}.tor_model_id", f"unknown switch model {spec.tor_model_id}")
        base = spec.base_u if spec.base_u is not None else cursor
        height = spec.servers * cat.servers[spec.server_model_id].height_u + cat.switches[spec.tor_model_id].height_u
        cursor = base + height
        out.append(
            PlannedLogicalRack(
                ordinal=j,
                servers=spec.servers,
                server_model_id=spec.server_model_id,
                ports_used=spec.ports_used,
                tor_model_id=spec.tor_model_id,
                tor_position=spec.tor_position,
                base_u=base,
            )
        )
    return out


def plan_switches(cat: Catalog, specs: Sequence[FabricSwitchSpec], path: str) -> list[PlannedSwitch]:
    out: list[PlannedSwitch] = []
    for j, spec in enumerate(specs):
        if spec.switch_model_id not in cat.switches:
            raise DomainError(
                f"{path}fabric_switches[{j}].switch_model_id", f"unknown switch model {spec.switch_model_id}"
            )
        out.append(PlannedSwitch(spec.name, spec.role, spec.switch_model_id, spec.u, spec.cluster, spec.network))
    return out


def plan_rack(cat: Catalog, spec: RackSpec, name: str, position_mm: int, path: str) -> RackPlan:
    type_id = spec.rack_type_id if spec.rack_type_id is not None else cat.default_rack_type_id()
    if type_id not in cat.rack_types:
        raise DomainError(f"{path}rack_type_id", f"unknown rack type {type_id}")
    return RackPlan(
        name=name,
        rack_type_id=type_id,
        position_mm=position_mm,
        role=spec.role,
        port_face=spec.port_face,
        logical_racks=tuple(plan_logical_racks(cat, spec.logical_racks, path)),
        switches=tuple(plan_switches(cat, spec.fabric_switches, path)),
        facility=spec.facility,
    )


def plan_row_racks(cat: Catalog, row: RowSpec, path: str, *, start_index: int = 1, start_mm: int = 0) -> list[RackPlan]:
    """Explicit racks, then `rack_count` copies of the template; unpositioned racks touch the previous one.

    A rack without a name (and every copy of the template) is named from `rack_name_pattern`,
    with `index` counting from `start_index`; the first unpositioned rack starts at `start_mm`.
    """
    specs: list[tuple[str, RackSpec]] = [(f"{path}racks[{i}].", spec) for i, spec in enumerate(row.racks)]
    if row.rack_count and row.rack_template is not None:
        specs += [(f"{path}rack_template.", row.rack_template)] * row.rack_count
    plans: list[RackPlan] = []
    cursor = start_mm
    template_plan: RackPlan | None = None
    for offset, (p, spec) in enumerate(specs):
        index = start_index + offset
        is_template = spec is row.rack_template
        name = spec.name if spec.name and not is_template else rack_name(row.rack_name_pattern, row.name, index, path)
        position = spec.position_mm if spec.position_mm is not None else cursor
        if is_template and template_plan is not None:
            # Same contents for every copy: plan the template once.
            plan = RackPlan(
                name,
                template_plan.rack_type_id,
                position,
                template_plan.role,
                template_plan.port_face,
                template_plan.logical_racks,
                template_plan.switches,
                template_plan.facility,
            )
        else:
            plan = plan_rack(cat, spec, name, position, p)
            if is_template:
                template_plan = plan
        plans.append(plan)
        cursor = position + cat.rack_types[plan.rack_type_id].width_mm
    return plans


def row_pair(cat: Catalog, pair: RowPairSpec) -> tuple[RowSpec, RowSpec]:
    """Row A at the origin with its fronts towards +normal; row B across the cold aisle facing back."""
    type_id = pair.rack_template.rack_type_id or cat.default_rack_type_id()
    if type_id not in cat.rack_types:
        raise DomainError("rack_template.rack_type_id", f"unknown rack type {type_id}")
    depth = cat.rack_types[type_id].depth_mm
    ux, uy = dl.Row("", dl.Point(0, 0), pair.direction).normal
    offset = depth + pair.cold_aisle_mm
    bx, by = pair.origin.x_mm + ux * offset, pair.origin.y_mm + uy * offset
    if bx < 0 or by < 0:
        raise DomainError(
            "y_m" if uy else "x_m",
            f"row {pair.name_b!r} would start outside the hall ({bx / 1000:g}, {by / 1000:g})",
        )

    def row(name: str, origin: dl.Point, front: dl.Side) -> RowSpec:
        return RowSpec(
            name=name,
            origin=origin,
            direction=pair.direction,
            front=front,
            rack_count=pair.rack_count,
            rack_template=pair.rack_template,
            rack_name_pattern=pair.rack_name_pattern,
            cooling_kw=pair.cooling_kw,
        )

    return row(pair.name_a, pair.origin, dl.Side.LEFT), row(pair.name_b, dl.Point(bx, by), dl.Side.RIGHT)


def planned_rows(cat: Catalog, rows: Sequence[RowSpec], plans: Sequence[Sequence[RackPlan]]) -> list[dl.Row]:
    """The rows about to be written, as the domain sees them (identical contents share objects)."""
    lr_cache: dict[tuple[object, ...], dl.LogicalRack] = {}
    out: list[dl.Row] = []
    for row, rack_plans in zip(rows, plans, strict=True):
        racks = []
        for p in rack_plans:
            lrs = []
            for lr in p.logical_racks:
                key = (
                    lr.ordinal, lr.servers, lr.server_model_id, lr.ports_used, lr.tor_model_id, lr.tor_position,
                    lr.base_u,
                )  # fmt: skip
                if key not in lr_cache:
                    lr_cache[key] = cat.logical_rack(lr)
                lrs.append(lr_cache[key])
            racks.append(
                dl.Rack(
                    name=p.name,
                    rack_type=cat.rack_types[p.rack_type_id],
                    position_mm=p.position_mm,
                    logical_racks=tuple(lrs),
                    role=p.role,
                    port_face=p.port_face,
                    fabric_switches=tuple(
                        dl.FabricSwitch(
                            sw.name, sw.role, cat.switches[sw.switch_model_id], sw.u, sw.cluster, sw.network
                        )
                        for sw in p.switches
                    ),
                )
            )
        out.append(dl.Row(row.name, row.origin, row.direction, row.front, tuple(racks)))
    return out
