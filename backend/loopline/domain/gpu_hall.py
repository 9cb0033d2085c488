"""GPU halls (issue 31): a GPU cluster asked for in numbers -> the rows and racks that hold it.

Each scalable unit (SU) is a row of its own: `ceil(servers_per_su / servers_per_rack)` GPU racks
(one logical rack each: the GPU servers and the front-end ToR they call their own) and, at the
row's end, one empty network rack for the SU's rail leaves. The rail wiring
(`wiring.generate._place_rail_leaves`) mounts an SU's leaves in the network racks of the rows its
servers stand in, so this is exactly what it needs. With a spine model, a last row of spine racks
holds the spines, stacked from U1, then the front-end fabric's spines (network `front_end`) if
asked. Rows come in pairs facing across a cold aisle of the hall's
minimum width, pairs apart by its minimum hot aisle, the first row that same cold-aisle width from
the hall's walls (room to walk round the rows).

Pure: catalog + spec + hall size in, `RowSpec`s out; `DomainError("gpu_cluster.<field>", reason)`
for what cannot be built.
"""

from __future__ import annotations

from dataclasses import dataclass

from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.rack_planning import Catalog, FabricSwitchSpec, LogicalRackSpec, RackSpec, RowSpec

FIELD = "gpu_cluster"
SPINE_ROW = "SPINES"


@dataclass(frozen=True, slots=True)
class GpuClusterSpec:
    scalable_units: int
    servers_per_su: int
    server_model_id: int
    servers_per_rack: int
    rail_leaf_model_id: int
    spine_model_id: int | None = None
    """None: a rail-only hall (no spines)."""
    spines: int = 0
    frontend_tor_model_id: int | None = None
    """The GPU racks' own ToR (the front-end fabric's); None: the rail leaf model."""
    frontend_spine_model_id: int | None = None
    """The front-end fabric's spines (network front_end, in the spine row after the compute spines);
    None: none (a front-end plan then wires servers to ToRs only)."""
    frontend_spines: int = 0

    @property
    def servers(self) -> int:
        return self.scalable_units * self.servers_per_su


@dataclass(frozen=True, slots=True)
class GpuHallPlan:
    rows: tuple[RowSpec, ...]
    width_mm: int
    depth_mm: int
    """The floor the rows need (walls included)."""


def _f(name: str) -> str:
    return f"{FIELD}.{name}"


def plan_gpu_hall(
    cat: Catalog, spec: GpuClusterSpec, *, width_mm: int, depth_mm: int, cold_aisle_mm: int, hot_aisle_mm: int
) -> GpuHallPlan:
    """The rows of a GPU hall (see the module docstring), checked against the catalog and the
    hall's floor (`width_mm` x `depth_mm`)."""
    # the rows face in pairs across cold aisles and turn their backs across hot ones: touching rows
    # leave no aisle between them, and the layout rules then pair rows across them (a mixed aisle)
    for field, width, kind in (("min_cold_aisle_m", cold_aisle_mm, "cold"), ("min_hot_aisle_m", hot_aisle_mm, "hot")):
        if width <= 0:
            raise DomainError(
                field, f"a GPU hall's row pairs are laid out across {kind} aisles of this width: it must be > 0"
            )
    server = cat.servers.get(spec.server_model_id)
    if server is None:
        raise DomainError(_f("server_model_id"), f"unknown server model {spec.server_model_id}")
    if server.gpus < 1:
        raise DomainError(_f("server_model_id"), f"{server.name} is not a GPU server (it has no GPUs)")
    leaf = cat.switches.get(spec.rail_leaf_model_id)
    if leaf is None:
        raise DomainError(_f("rail_leaf_model_id"), f"unknown switch model {spec.rail_leaf_model_id}")
    if spec.servers_per_su > leaf.server_ports:
        raise DomainError(
            _f("servers_per_su"),
            f"an SU of {spec.servers_per_su} servers needs {spec.servers_per_su} server ports on each rail leaf; "
            f"{leaf.name} has {leaf.server_ports}",
        )
    tor_id = spec.frontend_tor_model_id if spec.frontend_tor_model_id is not None else spec.rail_leaf_model_id
    tor = cat.switches.get(tor_id)
    if tor is None:
        raise DomainError(_f("frontend_tor_model_id"), f"unknown switch model {tor_id}")
    rack_type_id = cat.default_rack_type_id()
    rack_type = cat.rack_types[rack_type_id]
    per_rack = spec.servers_per_rack
    if per_rack * server.height_u + tor.height_u > rack_type.height_u:
        raise DomainError(
            _f("servers_per_rack"),
            f"{per_rack} x {server.height_u}U {server.name} and the {tor.height_u}U ToR need "
            f"{per_rack * server.height_u + tor.height_u}U; a {rack_type.name} rack has {rack_type.height_u}U",
        )
    # the GPU racks' logical rack cables the front-end NICs to its ToR: `p` is their count
    frontend = max(server.frontend_nic_ports, 1)
    if per_rack * frontend > tor.server_ports:
        field = "frontend_tor_model_id" if spec.frontend_tor_model_id is not None else "servers_per_rack"
        raise DomainError(
            _f(field),
            f"{per_rack} servers x {frontend} front-end ports need {per_rack * frontend} server ports on the ToR; "
            f"{tor.name} has {tor.server_ports}",
        )
    rails = server.nic_ports
    if rails * leaf.height_u > rack_type.height_u:
        raise DomainError(
            _f("rail_leaf_model_id"),
            f"an SU's {rails} rail leaves of {leaf.height_u}U do not fit its {rack_type.height_u}U network rack",
        )
    # the spines to stack: the compute fabric's, then the front-end fabric's (name, model id, height in U, network)
    spines: list[tuple[str, int, int, str]] = []
    for model_field, count_field, prefix, network, none in (
        ("spine_model_id", "spines", "SPINE", "compute", "a rail-only hall has no spines"),
        ("frontend_spine_model_id", "frontend_spines", "FESPINE", "front_end", "the front-end fabric has no spines"),
    ):
        model_id, count = getattr(spec, model_field), getattr(spec, count_field)
        if model_id is None:
            if count:
                raise DomainError(_f(count_field), f"no {model_field}: {none}")
            continue
        model = cat.switches.get(model_id)
        if model is None:
            raise DomainError(_f(model_field), f"unknown switch model {model_id}")
        if model.height_u > rack_type.height_u:
            raise DomainError(_f(model_field), f"{model.name} does not fit a {rack_type.name} rack")
        if count < 1:
            raise DomainError(_f(count_field), f"a hall with a {model_field} needs at least 1 spine")
        digits = max(2, len(str(count)))
        spines += [(f"{prefix}{s + 1:0{digits}d}", model_id, model.height_u, network) for s in range(count)]

    racks_per_su = -(-spec.servers_per_su // per_rack)
    width_digits = max(2, len(str(spec.scalable_units)))
    rows: list[RowSpec] = []
    lengths: list[int] = []
    for k in range(spec.scalable_units):
        name = f"SU{k + 1:0{width_digits}d}"
        racks: list[RackSpec] = []
        left = spec.servers_per_su
        for j in range(racks_per_su):
            n = min(per_rack, left)
            left -= n
            lr = LogicalRackSpec(
                servers=n, server_model_id=spec.server_model_id, tor_model_id=tor_id, ports_used=frontend
            )
            racks.append(RackSpec(name=f"{name}-{j + 1:02d}", rack_type_id=rack_type_id, logical_racks=(lr,)))
        racks.append(RackSpec(name=f"{name}-N", rack_type_id=rack_type_id, role=dl.RackRole.NETWORK))
        rows.append(RowSpec(name=name, origin=dl.Point(0, 0), racks=tuple(racks)))
        lengths.append(len(racks) * rack_type.width_mm)
    if spines:
        # stacked from U1, a new rack when the next one does not fit
        stacks: list[list[FabricSwitchSpec]] = [[]]
        u = 1
        for name, model_id, height, network in spines:
            if u + height - 1 > rack_type.height_u:
                stacks.append([])
                u = 1
            stacks[-1].append(FabricSwitchSpec(name, "spine", model_id, u, network=network))
            u += height
        spine_racks = [
            RackSpec(name=f"{SPINE_ROW}-{r + 1:02d}", rack_type_id=rack_type_id, role=dl.RackRole.NETWORK,
                     fabric_switches=tuple(stack))
            for r, stack in enumerate(stacks)
        ]  # fmt: skip
        rows.append(RowSpec(name=SPINE_ROW, origin=dl.Point(0, 0), racks=tuple(spine_racks)))
        lengths.append(len(spine_racks) * rack_type.width_mm)

    # rows in facing pairs: A's fronts face +y, B's face back across the cold aisle
    margin = cold_aisle_mm
    depth = rack_type.depth_mm
    placed: list[RowSpec] = []
    y = margin
    for i, row in enumerate(rows):
        front = dl.Side.LEFT if i % 2 == 0 else dl.Side.RIGHT
        placed.append(RowSpec(name=row.name, origin=dl.Point(margin, y), direction=0, front=front, racks=row.racks))
        y += depth + (cold_aisle_mm if i % 2 == 0 else hot_aisle_mm)
    plan = GpuHallPlan(tuple(placed), margin + max(lengths) + margin, placed[-1].origin.y_mm + depth + margin)
    for field, need, have in (("width_m", plan.width_mm, width_mm), ("depth_m", plan.depth_mm, depth_mm)):
        if need > have:
            raise DomainError(
                field,
                f"the GPU cluster's {len(rows)} rows need a floor of {plan.width_mm / 1000:g} x "
                f"{plan.depth_mm / 1000:g} m (aisles and walls at the hall's minimum cold aisle); "
                f"the hall is {width_mm / 1000:g} x {depth_mm / 1000:g} m",
            )
    return plan
