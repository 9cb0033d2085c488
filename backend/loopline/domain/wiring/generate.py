"""The wiring generator: layout + wiring choice -> every cable, with ports, length, medium, label.

`generate_plan(hall, spec)` is the entry point. It works in three passes:

1. index the hall (`_index_hall`): one `Device` per server, ToR (one per logical rack) and
   fabric switch, with its port position (routing.py);
2. wire logically (`_wire_logically`): group the logical racks (own rack, MC-LAG group or
   Subways loop mapped by the physical pattern, loops.py), then connect server ports to ToR
   ports, GRIN server pairs and ToR uplinks / agg-core links, as plain
   (class, A, A port, B, B port, Gb/s) tuples;
3. materialise (`_materialise`) each connection as a `Cable`: routed length, length with slack,
   medium and ordered length (media.py), stable ID and label (labels.py).

Port numbering is a pure function of the pattern, so a regenerated plan, or an upgrade that adds
server ports (p -> p+1), reuses the same port numbers for the same connections:
- server NIC ports ``p1..p<p>`` go to ToRs, then ``p<p+1>..p<p+n>`` to GRIN peers, then the
  parallel (heterogeneous) ports;
- server port ``k`` goes to the ToR at loop offset 0 (k = 1), ``-k/2`` (k even, counter-clockwise)
  or ``+(k-1)/2`` (k odd, clockwise): with p ports that is floor((p-1)/2) clockwise and
  ceil((p-1)/2) counter-clockwise neighbours (DESIGN §3.1), and adding port p+1 adds one neighbour;
- a ToR numbers its server-facing ports ``e1..`` by source class (its own servers' port 1 first,
  then the port-2 servers of its clockwise neighbour, ...), servers bottom to top within each
  class; its uplinks are ``e<server_ports+1>..``; aggregation/spine/core switches number their
  downlinks in ToR order and their uplinks after their downlink ports;
- with breakouts (`FabricSpec.breakouts`), a fabric switch whose port optic breaks out into the ToR
  uplinks' speed (`structured.optics.breakout_lanes`) serves ports x lanes links: its n-th downlink
  takes lane ``(n-1) % lanes + 1`` of port ``(n-1) // lanes + 1``, named ``e<port>/<lane>``
  (`structured.optics.lane_port`, which the plant builder reads back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from loopline.domain.errors import DomainError
from loopline.domain.labels import cable_id, cable_label, device_name, rack_name
from loopline.domain.layout import Hall, LogicalRack, RackRole, Row, SwitchModel, TorPosition
from loopline.domain.media import MediaChoice, MediaSelector
from loopline.domain.routing import (
    DEFAULT_GEOMETRY,
    GeometryPreset,
    Via,
    device_z_mm,
    ports_xy,
    tray_z_mm,
)
from loopline.domain.structured.optics import breakout_lanes, lane_port
from loopline.domain.structured.plant import Cabling
from loopline.domain.structured.sizing import PortLanes
from loopline.domain.wiring.frontend import (
    UPLINKS_NOT_WIRED,
    frontend_hall,
    frontend_ports,
    has_front_end_switches,
)
from loopline.domain.wiring.loops import (
    RowRacks,
    inter_chassis_loops,
    mc_lag_groups,
    paired_row_loops,
    side_to_side_loops,
)
from loopline.domain.wiring.model import Cable, Device, LinkClass, Loop, Role, WiringPlan, gpu_servers_of
from loopline.domain.wiring.spec import (
    MAX_PAIR_LOSS_DB,
    RAIL_PATTERNS,
    SUBWAYS_PATTERNS,
    FabricKind,
    GrinScope,
    Network,
    Pattern,
    RailSpec,
    WiringSpec,
)

PROPAGATION_NS_PER_M = 5
_FABRIC_CLASSES = frozenset({LinkClass.TOR_FABRIC, LinkClass.AGG_CORE})

# A pending connection: (class, device A, port A, device B, port B, Gb/s)
_Conn = tuple[LinkClass, int, str, int, str, float]


@dataclass(slots=True)
class _LR:
    name: str
    row: int
    lr: LogicalRack
    first_server: int
    servers: int
    tor: int
    tor2: int
    """Parallel (heterogeneous) ToR device index, -1 when none."""
    ports: int
    tor2_model: SwitchModel | None = None
    hall_row: int = -1
    """Index of its row in `hall.rows` (rail leaves are placed in the rows of their SU)."""


# Port names are shared strings (one object per name, not per cable); immutable, so thread-safe.
_PORT_NAMES: dict[str, tuple[str, ...]] = {x: tuple(f"{x}{n}" for n in range(4096)) for x in ("p", "e")}


def _port(prefix: str, n: int) -> str:
    names = _PORT_NAMES[prefix]
    return names[n] if n < len(names) else f"{prefix}{n}"


def server_port(n: int) -> str:
    """Port `n` (from 1) of a server's NIC, as the wiring names it: `p<n>`."""
    return _port("p", n)


def switch_port(n: int) -> str:
    """Port `n` (from 1) of a switch, as the wiring names it: `e<n>`, the server-facing (or
    downlink) ports first, the uplinks after."""
    return _port("e", n)


def _seen_left_is_increasing(row: Row) -> bool:
    """Looking at the rack fronts from the cold aisle, is 'left' the row's +direction?"""
    fx, fy = row.facing()
    return (fy, -fx) == row.unit


def _type1_offset(k: int) -> int:
    """Loop offset of the ToR that server port k (1-based) goes to."""
    if k == 1:
        return 0
    return -(k // 2) if k % 2 == 0 else (k - 1) // 2


class _RackDevices:
    """Devices in the order pass 1 finds them, each placed at the port position of its rack."""

    def __init__(self) -> None:
        self.devices: list[Device] = []
        self.pos_rack: list[int] = []
        self._rack = (0, "", 0, 0)

    def enter(self, rack_key: int, rack: str, x_mm: int, y_mm: int) -> None:
        self._rack = (rack_key, rack, x_mm, y_mm)

    def add(
        self, name: str, node_id: str, role: Role, u: int, model: str, z_mm: int, logical_rack: str | None = None
    ) -> int:
        """Add a device to the current rack; returns its index."""
        key, rack, x, y = self._rack
        self.devices.append(
            Device(
                name=name,
                node_id=node_id,
                role=role,
                rack=rack,
                u=u,
                model=model,
                logical_rack=logical_rack,
                x_mm=x,
                y_mm=y,
                z_mm=z_mm,
            )
        )
        self.pos_rack.append(key)
        return len(self.devices) - 1


@dataclass(slots=True)
class _HallIndex:
    """Pass 1's output: every device of the hall, indexed the way the wiring passes need it."""

    devices: list[Device]
    pos_rack: list[int]
    """Physical rack of each device (same index), to tell in-rack cables from between-rack ones."""
    lrs: list[_LR]
    rows: list[RowRacks]
    fabric: list[int]
    """Device indices of the fabric switches (aggregation, spine, core)."""
    compute_rows: int
    """Rows holding compute racks with logical racks (clusters group them)."""


@dataclass(slots=True)
class _LogicalWiring:
    """Pass 2's output: every connection, before it is routed, measured and labelled."""

    conns: list[_Conn]
    loops: list[Loop]
    warnings: list[str]


def generate_plan(
    hall: Hall,
    spec: WiringSpec,
    *,
    geometry: GeometryPreset = DEFAULT_GEOMETRY,
    selector: MediaSelector | None = None,
) -> WiringPlan:
    """Generate the full cabling plan of `hall` for `spec` (see the module docstring).

    Raises `DomainError` naming the field for anything that cannot be built: loops that do not fit
    the rows, too few ToR / NIC / fabric ports, a link no medium reaches, ...
    """
    _validate(spec)
    front_end = spec.network is Network.FRONT_END
    if front_end:
        if spec.pattern in RAIL_PATTERNS:
            raise DomainError("fabric", f"{spec.pattern.value} wires the compute fabric; the front-end fabric takes "
                              "the other patterns")  # fmt: skip
        uplinks_left_out = spec.fabric.kind is not FabricKind.NONE and not has_front_end_switches(hall)
        hall = frontend_hall(hall)
        if uplinks_left_out:
            spec = replace(spec, fabric=replace(spec.fabric, kind=FabricKind.NONE))
    sel = selector or MediaSelector(round_to_sold=geometry.round_to_sold)
    index = _index_hall(hall, spec, geometry)
    wiring = _wire_logically(index, hall, spec, geometry)
    cables, fec = _materialise(wiring.conns, index.devices, index.pos_rack, geometry, sel, hall, spec)
    warnings = wiring.warnings
    if fec:
        warnings.append(f"{fec} cables need RS-FEC for their copper reach (latency carried to the scenario)")
    models = {lr.server_model for row in hall.rows for rk in row.racks for lr in rk.logical_racks}
    plan = WiringPlan(hall.name, spec, geometry, index.devices, cables, wiring.loops, warnings, gpu_servers_of(models))
    if front_end:
        frontend_ports(plan)
        if uplinks_left_out:
            warnings.append(UPLINKS_NOT_WIRED)
    return plan


def server_ports_needed(spec: WiringSpec, lr: LogicalRack) -> int:
    """NIC ports each server of `lr` needs for `spec`: p (the spec's, else the logical rack's own),
    plus its GRIN links, plus the parallel ports. The rail patterns use one port per rail: the spec's
    `ports`, else every NIC port of the server model."""
    if spec.pattern in RAIL_PATTERNS:
        return spec.ports if spec.ports is not None else lr.server_model.nic_ports
    p = spec.ports if spec.ports is not None else lr.ports_used
    grin = spec.grin_degree if spec.pattern is Pattern.GRIN else 0
    return p + grin + (spec.parallel.ports if spec.parallel else 0)


def _index_hall(hall: Hall, spec: WiringSpec, geometry: GeometryPreset) -> _HallIndex:
    """Pass 1: one `Device` per server, ToR (two with parallel ports) and fabric switch, at its
    port position; logical racks in hall order; each row's compute racks seen from its aisle."""
    placed = _RackDevices()
    devices = placed.devices
    lrs: list[_LR] = []
    rows: list[RowRacks] = []
    fabric: list[int] = []
    parallel = spec.parallel

    rails = spec.pattern in RAIL_PATTERNS
    rack_key = 0
    compute_row = -1  # clusters group the rows that hold compute racks, in hall order
    for hall_row, row in enumerate(hall.rows):
        if any(rk.role is RackRole.COMPUTE and rk.logical_racks for rk in row.racks):
            compute_row += 1
        increasing = _seen_left_is_increasing(row)
        compute: list[tuple[int, list[int]]] = []
        for rack in row.racks:
            rack_key += 1
            rname = rack_name(hall.name, row.name, rack.name)
            x, y = ports_xy(geometry, row, rack)

            placed.enter(rack_key, rname, x, y)
            for fs in rack.fabric_switches:
                if fs.network != spec.network.value:
                    continue  # another network's switch (a GPU cluster's front-end or compute fabric)
                f = placed.add(
                    device_name(rname, fs.u),
                    f"{hall.name}.{fs.name}",
                    Role(fs.role),
                    fs.u,
                    fs.model.name,
                    device_z_mm(geometry, rack, fs.u, fs.model.height_u),
                )
                devices[f].cluster = fs.cluster
                fabric.append(f)
            if rack.role is not RackRole.COMPUTE or not rack.logical_racks:
                continue
            slots: list[int] = []
            for j, lr in enumerate(sorted(rack.logical_racks, key=lambda v: v.base_u)):
                lname = f"{rname}.L{j + 1}"
                need = server_ports_needed(spec, lr)
                p = need if rails else spec.ports if spec.ports is not None else lr.ports_used
                if need > lr.server_model.nic_ports:
                    raise DomainError(
                        "ports",
                        f"servers of {lname} ({lr.server_model.name}) have "
                        f"{lr.server_model.nic_ports} NIC ports; the wiring needs {need}",
                    )
                first = len(devices)
                sh = lr.server_model.height_u
                smodel = lr.server_model.name
                for s, u in enumerate(lr.server_us()):
                    placed.add(
                        device_name(rname, u),
                        f"{lname}.S{s + 1:02d}",
                        Role.SERVER,
                        u,
                        smodel,
                        device_z_mm(geometry, rack, u, sh),
                        lname,
                    )
                if rails:
                    # the rail leaves are the SU's, placed in its network racks (`_place_rail_leaves`)
                    slots.append(len(lrs))
                    lrs.append(_LR(lname, compute_row, lr, first, lr.servers, -1, -1, p, None, hall_row))
                    continue
                tu = lr.tor_u()
                tz = device_z_mm(geometry, rack, tu, lr.tor_model.height_u)
                if geometry.rack_height_mm is not None and lr.tor_position is TorPosition.MIDDLE:
                    # paper: the ToR sits exactly in the middle of its logical rack (odd r too)
                    tz = device_z_mm(geometry, rack, lr.base_u, lr.height_u)
                tor = placed.add(device_name(rname, tu), f"{lname}.TOR1", Role.TOR, tu, lr.tor_model.name, tz, lname)
                tor2 = -1
                tor2_model = None
                if parallel is not None:
                    tor2_model = SwitchModel(
                        name=f"{parallel.tor_server_ports}x{parallel.gbps:g}G ToR",
                        server_ports=parallel.tor_server_ports,
                        server_port_gbps=parallel.gbps,
                        uplink_ports=lr.tor_model.uplink_ports,
                        uplink_gbps=lr.tor_model.uplink_gbps,
                        height_u=lr.tor_model.height_u,
                    )
                    tor2 = placed.add(
                        device_name(rname, tu) + "B", f"{lname}.TOR2", Role.TOR, tu, tor2_model.name, tz, lname
                    )
                slots.append(len(lrs))
                lrs.append(_LR(lname, compute_row, lr, first, lr.servers, tor, tor2, p, tor2_model, hall_row))
            compute.append((rack.position_mm, slots))
        compute.sort(key=lambda t: t[0])
        phys = list(range(len(compute)))
        racks = [s for _, s in compute]
        if increasing:  # left (seen from the aisle) is +direction: left to right runs backwards
            racks.reverse()
            phys.reverse()
        rows.append(RowRacks(row.name, racks, phys))

    if not lrs:
        raise DomainError("layout", f"hall {hall.name} has no compute racks with logical racks")
    return _HallIndex(devices, placed.pos_rack, lrs, rows, fabric, compute_row + 1)


def _wire_logically(index: _HallIndex, hall: Hall, spec: WiringSpec, geometry: GeometryPreset) -> _LogicalWiring:
    """Pass 2: group the logical racks as the pattern wires them, then connect servers to ToRs,
    the parallel ports, GRIN server pairs and the fabric; sets each ToR's cluster and loop."""
    if spec.pattern in RAIL_PATTERNS:
        assert spec.rail is not None  # _validate
        return _wire_rails(index, hall, spec, spec.rail, geometry)
    devices, lrs, rows = index.devices, index.lrs, index.rows
    parallel = spec.parallel
    grin = spec.grin_degree if spec.pattern is Pattern.GRIN else 0
    warnings: list[str] = []
    n_clusters = (index.compute_rows - 1 + spec.rows_per_cluster) // spec.rows_per_cluster

    # --- groups of logical racks -------------------------------------------------------------
    subways = spec.pattern in SUBWAYS_PATTERNS
    if spec.subways_type == 2 and spec.clusters > n_clusters:
        raise DomainError(
            "clusters",
            f"Type 2 spreads each loop over c={spec.clusters} clusters but the hall has {n_clusters} "
            f"({index.compute_rows} rows of compute racks, {spec.rows_per_cluster} rows per cluster)",
        )
    if parallel is not None and parallel.clusters > n_clusters:
        raise DomainError("parallel.clusters", f"c={parallel.clusters} exceeds the hall's {n_clusters} clusters")
    groups = _groups(spec.pattern, spec.loop, rows, lrs, hall)

    # --- server -> ToR -----------------------------------------------------------------------
    conns: list[_Conn] = []
    loops: list[Loop] = []
    tor_order: list[int] = []
    for gi, group in enumerate(groups):
        n_loop = len(group)
        p = lrs[group[0]].ports
        if any(lrs[g].ports != p for g in group):
            raise DomainError("ports", f"logical racks of loop {gi} use different numbers of ports")
        single = spec.pattern in (Pattern.SINGLE_HOMED, Pattern.GRIN)
        if not single and n_loop < p:
            raise DomainError(
                "loop",
                f"a loop of l={n_loop} logical racks cannot give each server p={p} distinct ToRs (need l >= p)",
            )
        home = lrs[group[0]].row // spec.rows_per_cluster
        entries = [(k, 0 if single else _type1_offset(k), -1) for k in range(1, p + 1)]
        for i, g in enumerate(group):
            t = lrs[g].tor
            dev = devices[t]
            if spec.subways_type == 2 and subways:
                dev.cluster = (home + i % spec.clusters) % n_clusters
            else:
                dev.cluster = home
            if subways:
                dev.loop = len(loops)
                dev.loop_position = i
            tor_order.append(t)
        _wire_group(conns, devices, lrs, group, entries, use_parallel=False, port_base=0)
        if subways:
            loops.append(Loop(len(loops), tuple(lrs[g].name for g in group), spec.subways_type))
            if spec.subways_type == 2 and n_loop % spec.clusters:
                warnings.append(
                    f"loop {len(loops) - 1}: l={n_loop} is not a multiple of c={spec.clusters}; "
                    "ToRs at positions l-1 and 0 share a cluster"
                )
    for lrec in lrs:
        for s in range(lrec.servers):
            devices[lrec.first_server + s].cluster = devices[lrec.tor].cluster
    if parallel is not None:
        _wire_parallel(conns, devices, lrs, rows, hall, spec, loops, tor_order, n_clusters, grin)

    # --- GRIN --------------------------------------------------------------------------------
    if grin:
        _wire_grin(conns, devices, lrs, rows, spec, grin)

    # --- fabric ------------------------------------------------------------------------------
    if spec.fabric.kind is not FabricKind.NONE:
        _wire_fabric(conns, devices, lrs, index.fabric, tor_order, spec, hall)

    return _LogicalWiring(conns, loops, warnings)


def _groups(pattern: Pattern, loop: int | None, rows: list[RowRacks], lrs: list[_LR], hall: Hall) -> list[list[int]]:
    """Logical racks grouped as the pattern wires them (loops in loop order)."""
    if pattern is Pattern.SIDE_TO_SIDE:
        return side_to_side_loops(rows, loop)
    if pattern is Pattern.INTER_CHASSIS:
        return inter_chassis_loops(rows, loop)
    if pattern is Pattern.PAIRED_ROW:
        with_racks = [r for r in rows if r.racks]
        if len(with_racks) % 2:
            raise DomainError(
                "pattern",
                f"paired-row needs rows in facing pairs; row {with_racks[-1].name} has no partner "
                f"({len(with_racks)} rows with compute racks)",
            )
        pairs: list[tuple[RowRacks, RowRacks]] = []
        by_name = {r.name: r for r in hall.rows}
        for a, b in zip(with_racks[::2], with_racks[1::2], strict=True):
            fa, fb = by_name[a.name].facing(), by_name[b.name].facing()
            if (fa[0] + fb[0], fa[1] + fb[1]) != (0, 0):
                raise DomainError("pattern", f"rows {a.name} and {b.name} do not face each other")
            pairs.append((a, b))
        return paired_row_loops(pairs, loop)
    if pattern is Pattern.MC_LAG:
        return mc_lag_groups(rows, lrs[0].ports)
    return [[g] for g in range(len(lrs))]


def _wire_parallel(
    conns: list[_Conn],
    devices: list[Device],
    lrs: list[_LR],
    rows: list[RowRacks],
    hall: Hall,
    spec: WiringSpec,
    loops: list[Loop],
    tor_order: list[int],
    n_clusters: int,
    grin: int,
) -> None:
    """The heterogeneous ports: a parallel ToR per logical rack, wired as their own Subways loops
    (physical pattern `parallel.pattern`, default the spec's), Type 2 over `parallel.clusters`.
    One new port per server: even-indexed servers to their own new ToR, odd-indexed ones to the
    counter-clockwise neighbour's, so consecutive new ToRs overlap; more ports: Type 1 offsets."""
    par = spec.parallel
    assert par is not None
    pattern = par.pattern or spec.pattern
    groups = _groups(pattern, par.loop if par.loop is not None else spec.loop, rows, lrs, hall)
    subways = pattern in SUBWAYS_PATTERNS
    entries = (
        [(1, 0, 0), (1, -1, 1)] if par.ports == 1 else [(k, _type1_offset(k), -1) for k in range(1, par.ports + 1)]
    )
    for group in groups:
        n_loop = len(group)
        if par.ports > 1 and n_loop < par.ports:
            raise DomainError("parallel.ports", f"a loop of l={n_loop} cannot give {par.ports} distinct new ToRs")
        home = lrs[group[0]].row // spec.rows_per_cluster
        loop_id = len(loops) if subways and n_loop > 1 else None
        for i, g in enumerate(group):
            dev = devices[lrs[g].tor2]
            dev.cluster = (home + i % par.clusters) % n_clusters
            if loop_id is not None:
                dev.loop = loop_id
                dev.loop_position = i
            tor_order.append(lrs[g].tor2)
        if loop_id is not None:
            loops.append(Loop(loop_id, tuple(lrs[g].name for g in group), 2 if par.clusters > 1 else 1))
        base = lrs[group[0]].ports + grin
        _wire_group(
            conns,
            devices,
            lrs,
            group,
            entries,
            use_parallel=True,
            port_base=base,
            gbps=par.gbps,
            tor_ports=par.tor_server_ports,
        )


def _validate(spec: WiringSpec) -> None:
    if spec.ports is not None and spec.ports < 1:
        raise DomainError("ports", f"p must be >= 1, got {spec.ports}")
    if spec.subways_type not in (1, 2):
        raise DomainError("subways_type", f"must be 1 or 2, got {spec.subways_type}")
    if spec.subways_type == 2 and spec.pattern not in SUBWAYS_PATTERNS:
        raise DomainError("subways_type", f"Type 2 needs a Subways pattern, not {spec.pattern}")
    if spec.clusters < 1:
        raise DomainError("clusters", f"c must be >= 1, got {spec.clusters}")
    if spec.clusters > 1 and spec.subways_type != 2:
        raise DomainError("clusters", f"c={spec.clusters} spreads loops over clusters: that is Subways Type 2")
    if spec.loop is not None and spec.pattern not in SUBWAYS_PATTERNS:
        raise DomainError("loop", f"l applies to Subways patterns, not {spec.pattern}")
    if spec.loop is not None and spec.loop < 1:
        raise DomainError("loop", f"l must be >= 1, got {spec.loop}")
    if spec.pattern is Pattern.GRIN and spec.grin_degree < 1:
        raise DomainError("grin_degree", "the grin pattern needs a degree n >= 1")
    if spec.grin_degree and spec.pattern is not Pattern.GRIN:
        raise DomainError("grin_degree", f"n applies to the grin pattern, not {spec.pattern}")
    if spec.rows_per_cluster < 1:
        raise DomainError("rows_per_cluster", "must be >= 1")
    if spec.fabric.uplinks_per_tor < 0:
        raise DomainError("fabric.uplinks_per_tor", "must be >= 0")
    if spec.parallel is not None:
        par = spec.parallel
        if par.ports < 1 or par.gbps <= 0 or par.tor_server_ports < 1 or par.clusters < 1:
            raise DomainError("parallel", "ports, gbps, tor_server_ports and clusters must be positive")
    _validate_cabling(spec)
    _validate_rail(spec)


def _validate_rail(spec: WiringSpec) -> None:
    rail = spec.rail
    if spec.pattern not in RAIL_PATTERNS:
        if rail is not None:
            raise DomainError(
                "rail", f"SU size, leaf model and oversubscription apply to the rail patterns, not {spec.pattern}"
            )
        return
    if rail is None:
        raise DomainError("rail", f"{spec.pattern} needs the SU size and the rail leaf model")
    if spec.parallel is not None:
        raise DomainError("parallel", f"parallel ports are a Subways upgrade; {spec.pattern} wires every rail itself")
    if rail.su_size < 1:
        raise DomainError("rail.su_size", f"must be >= 1 server per scalable unit, got {rail.su_size}")
    if rail.su_size > rail.leaf_model.server_ports:
        raise DomainError(
            "rail.su_size",
            f"an SU of {rail.su_size} servers needs {rail.su_size} server-facing ports on each rail leaf; "
            f"{rail.leaf_model.name} has {rail.leaf_model.server_ports}",
        )
    if spec.pattern is Pattern.RAIL_ONLY and rail.oversubscription is not None:
        raise DomainError("rail.oversubscription", "rail-only has no spine: there is no leaf-to-spine ratio to choose")
    if spec.pattern is Pattern.RAIL_ONLY and rail.spine_planes != 1:
        raise DomainError("rail.spine_planes", "rail-only has no spine: there are no spine planes to choose")
    if rail.spine_planes < 1:
        raise DomainError("rail.spine_planes", f"must be >= 1, got {rail.spine_planes}")
    if rail.oversubscription is not None and not 0 < rail.oversubscription < 1e6:
        raise DomainError("rail.oversubscription", f"must be > 0 (down:up), got {rail.oversubscription}")


def _validate_cabling(spec: WiringSpec) -> None:
    structured = spec.cabling is Cabling.STRUCTURED
    if spec.fabric.breakouts and not structured:
        raise DomainError(
            "breakouts",
            "breakouts need structured cabling (cabling: structured): a broken-out port is built in the "
            "passive plant, through a breakout cable or cassette",
        )
    if spec.structured is not None:
        if not structured:
            raise DomainError("structured", "settings of the structured plant apply to structured cabling only")
        for name in ("lc_pair_loss_db", "mpo_pair_loss_db"):
            loss = getattr(spec.structured, name)
            if loss is not None and not 0 <= loss <= MAX_PAIR_LOSS_DB:
                raise DomainError(
                    f"structured.{name}", f"must be 0 to {MAX_PAIR_LOSS_DB:g} dB per mated pair, got {loss}"
                )


def _wire_group(
    conns: list[_Conn],
    devices: list[Device],
    lrs: list[_LR],
    group: Sequence[int],
    entries: list[tuple[int, int, int]],
    *,
    use_parallel: bool,
    port_base: int,
    gbps: float | None = None,
    tor_ports: int | None = None,
) -> None:
    """Connect servers to the ToRs of one group. `entries`: (server port k, loop offset, parity
    filter or -1), in the order the ToR numbers its ports."""
    n_loop = len(group)
    append = conns.append
    cls = LinkClass.SERVER_TOR
    for i, g in enumerate(group):
        target = lrs[g]
        tor = target.tor2 if use_parallel else target.tor
        model = target.lr.tor_model
        capacity = tor_ports if tor_ports is not None else model.server_ports
        n = 0
        for k, off, parity in entries:
            src = lrs[group[(i - off) % n_loop]]
            speed = gbps if gbps is not None else min(src.lr.server_model.port_gbps, model.server_port_gbps)
            sport = _port("p", port_base + k)
            first = src.first_server
            for s in range(src.servers):
                if parity >= 0 and s % 2 != parity:
                    continue
                n += 1
                append((cls, first + s, sport, tor, _port("e", n), speed))
        if n > capacity:
            raise DomainError(
                "ports",
                f"ToR port exhaustion: ToR {devices[tor].name} of {target.name} needs {n} "
                f"server-facing ports but has {capacity}",
            )


def _wire_grin(
    conns: list[_Conn],
    devices: list[Device],
    lrs: list[_LR],
    rows: list[RowRacks],
    spec: WiringSpec,
    n: int,
) -> None:
    """Server-to-server links of degree n: a circulant graph over the servers of each physical
    rack (offsets ±1..±n/2, plus the diametric link when n is odd), or (next-rack) a bipartite
    n-regular graph between the servers of racks paired left to right (s -> s+j, j = 0..n-1)."""
    cls = LinkClass.SERVER_SERVER
    for row in rows:
        racks: list[list[int]] = []
        for rack in row.racks:
            servers: list[int] = []
            for g in rack:
                lrec = lrs[g]
                servers.extend(range(lrec.first_server, lrec.first_server + lrec.servers))
            servers.sort(key=lambda d: devices[d].u)
            racks.append(servers)
        base: dict[int, int] = {}
        speed: dict[int, float] = {}
        for rack in row.racks:
            for g in rack:
                lrec = lrs[g]
                for d in range(lrec.first_server, lrec.first_server + lrec.servers):
                    base[d] = lrec.ports
                    speed[d] = lrec.lr.server_model.port_gbps
        if spec.grin_scope is GrinScope.RACK:
            for k, srv in enumerate(racks):
                big_n = len(srv)
                h = n // 2
                if big_n <= n or (n % 2 and big_n % 2):
                    raise DomainError(
                        "grin_degree",
                        f"rack {k + 1} of row {row.name} has {big_n} servers: too few for GRIN "
                        f"degree {n} without two links between one pair"
                        + (" (odd n needs an even number of servers)" if n % 2 else ""),
                    )
                for s in range(big_n):
                    a = srv[s]
                    pa = base[a]
                    for d in range(1, h + 1):
                        b = srv[(s + d) % big_n]
                        conns.append(
                            (
                                cls,
                                a,
                                _port("p", pa + 2 * d - 1),
                                b,
                                _port("p", base[b] + 2 * d),
                                min(speed[a], speed[b]),
                            )
                        )
                    if n % 2 and s < big_n // 2:
                        b = srv[s + big_n // 2]
                        conns.append((cls, a, _port("p", pa + n), b, _port("p", base[b] + n), min(speed[a], speed[b])))
        else:
            if len(racks) % 2:
                raise DomainError(
                    "grin_scope",
                    f"next-rack GRIN pairs racks; row {row.name} has {len(racks)} racks (odd)",
                )
            for k in range(0, len(racks), 2):
                ra, rb = racks[k], racks[k + 1]
                if len(ra) != len(rb) or len(ra) < n:
                    raise DomainError(
                        "grin_degree",
                        f"racks {k + 1} and {k + 2} of row {row.name} need equal server counts "
                        f">= n={n} for next-rack GRIN (have {len(ra)} and {len(rb)})",
                    )
                big_n = len(ra)
                for s in range(big_n):
                    a = ra[s]
                    for j in range(n):
                        b = rb[(s + j) % big_n]
                        conns.append(
                            (
                                cls,
                                a,
                                _port("p", base[a] + j + 1),
                                b,
                                _port("p", base[b] + j + 1),
                                min(speed[a], speed[b]),
                            )
                        )


def tor_uplink_count(kind: FabricKind, uplinks_per_tor: int) -> int:
    """Uplinks each ToR cables: VL2 always 2, the other fabrics `U`."""
    return 2 if kind is FabricKind.VL2 else uplinks_per_tor


def uplink_targets(kind: FabricKind, ordinal: int, uplinks: int, upper: int) -> list[int]:
    """Which of `upper` switches (spines in name order, or the aggregation switches of the ToR's
    cluster) the ToR's uplinks 1..`uplinks` go to. `ordinal` numbers the ToRs in wiring order: in the
    hall (leaf-spine) or in their cluster. Round-robin continues from ToR to ToR, so the switches fill
    evenly when uplinks < switches; VL2 takes two neighbouring aggs. Layout validation counts the
    downlink ports each switch needs with it (domain/fabric_capacity.py)."""
    if kind is FabricKind.VL2:
        return [(ordinal + u) % upper for u in range(2)]
    if kind is FabricKind.LEAF_SPINE and 0 < uplinks < upper:
        # Consecutive blocks (ordinal * U + u) would split U < S spines into S/U disjoint planes, and
        # two single-homed ToRs in different planes have no path. Shifted copies of a difference
        # cover share a spine whatever the shift, and still fill the spines evenly.
        return [(ordinal + d) % upper for d in _spine_offsets(uplinks, upper)]
    return [(ordinal * uplinks + u) % upper for u in range(uplinks)]


@lru_cache(maxsize=256)
def _spine_offsets(uplinks: int, spines: int) -> tuple[int, ...]:
    """`uplinks` offsets in Z_spines whose pairwise differences cover as much of Z_spines as greedy
    choice reaches (all of it whenever uplinks * (uplinks - 1) is comfortably >= spines - 1): then
    any two ToRs' uplink sets intersect, i.e. every pair of leaves shares a spine."""
    chosen = [0]
    covered = {0}

    def differences(c: int) -> set[int]:
        return {(c - d) % spines for d in chosen} | {(d - c) % spines for d in chosen}

    while len(chosen) < uplinks:
        best = max((c for c in range(spines) if c not in chosen), key=lambda c: (len(differences(c) - covered), -c))
        covered |= differences(best)
        chosen.append(best)
    return tuple(sorted(chosen))


def _wire_fabric(
    conns: list[_Conn],
    devices: list[Device],
    lrs: list[_LR],
    fabric: list[int],
    tor_order: list[int],
    spec: WiringSpec,
    hall: Hall,
    *,
    leaves: dict[int, SwitchModel] | None = None,
    uplinks_per_leaf: int | None = None,
) -> None:
    """ToR uplinks and aggregation-to-core links. `leaves` (rail leaves and their model) and
    `uplinks_per_leaf` stand in for the logical racks' ToRs and the fabric's U: the rail leaves go up
    to the spines as leaf-spine ToRs do."""
    kind = FabricKind.LEAF_SPINE if leaves is not None else spec.fabric.kind
    models = {f"{hall.name}.{fs.name}": fs.model for row in hall.rows for rk in row.racks for fs in rk.fabric_switches}
    tor_models: dict[int, SwitchModel]
    if leaves is not None:
        tor_models = dict(leaves)
    else:
        tor_models = {lrec.tor: lrec.lr.tor_model for lrec in lrs}
        tor_models.update({lrec.tor2: lrec.tor2_model for lrec in lrs if lrec.tor2_model is not None})
    aggs: dict[int, list[int]] = {}
    spines: list[int] = []
    cores: list[int] = []
    for f in fabric:
        d = devices[f]
        if d.role is Role.AGG:
            if d.cluster is None:
                raise DomainError("fabric", f"aggregation switch {d.node_id} has no cluster")
            aggs.setdefault(d.cluster, []).append(f)
        elif d.role is Role.SPINE:
            spines.append(f)
        elif d.role is Role.CORE:
            cores.append(f)

    def natural(f: int) -> tuple[int, str]:
        return (len(devices[f].node_id), devices[f].node_id)

    for v in aggs.values():
        v.sort(key=natural)
    spines.sort(key=natural)
    cores.sort(key=natural)
    next_down: dict[int, int] = {}
    uplinks = uplinks_per_leaf if uplinks_per_leaf is not None else tor_uplink_count(kind, spec.fabric.uplinks_per_tor)
    per_cluster: dict[int | None, int] = {}
    leaf_ordinal = 0

    breakouts = spec.fabric.breakouts
    # Per fabric switch, with breakouts: the speed of its first ToR link and how its ports serve it.
    lane_plans: dict[int, tuple[float, PortLanes | None]] = {}

    def downlink_lane(upper: int, um: SwitchModel, speed: float, nd: int, lower: int, lower_port: int) -> str | None:
        """The `nd`-th downlink's lane port ``e<port>/<lane>`` on a switch whose ports break out, or
        None when they do not (the link takes port ``e<nd>``, as without breakouts)."""
        switch = f"{devices[upper].node_id} ({um.name})"
        uplink = f"ToR {devices[lower].name} uplink {_port('e', lower_port)}"
        first = lane_plans.get(upper)
        if first is None or first[0] != speed:
            plan = breakout_lanes(switch, um.server_ports, um.server_port_gbps, speed)
            if plan is not None and um.breakout_links is not None and plan.lanes_per_port > um.breakout_links:
                # the optic could split the port further than the switch model allows (its catalog entry)
                raise DomainError(
                    "breakouts",
                    f"{switch} breaks a port out into at most {um.breakout_links} links; {uplink} is "
                    f"{speed:g}G, {plan.lanes_per_port} per {um.server_port_gbps:g}G port",
                )
            if first is None:
                lane_plans[upper] = (speed, plan)
            elif plan is not None or first[1] is not None:
                # A port's lanes carry one speed; one lane plan per switch keeps its capacity one number.
                raise DomainError(
                    "breakouts",
                    f"{switch} serves {first[0]:g}G ToR uplinks "
                    f"({first[1].describe() if first[1] else 'one per port'}); {uplink} is {speed:g}G: "
                    "with breakouts a fabric switch serves ToR uplinks of one speed",
                )
        lanes = lane_plans[upper][1]
        if lanes is None:
            return None
        if nd > lanes.capacity:
            raise DomainError("fabric", lanes.refusal(nd, uplink))
        port, lane = lanes.lane_of(nd)
        return lane_port(_port("e", port), lane)

    def link(cls: LinkClass, lower: int, lower_port: int, upper: int) -> None:
        lm = models.get(devices[lower].node_id) or tor_models.get(lower)
        um = models[devices[upper].node_id]
        nd = next_down.get(upper, 0) + 1
        next_down[upper] = nd
        speed = min(lm.uplink_gbps if lm else um.server_port_gbps, um.server_port_gbps)
        if breakouts and cls is LinkClass.TOR_FABRIC:
            lane = downlink_lane(upper, um, speed, nd, lower, lower_port)
            if lane is not None:
                conns.append((cls, lower, _port("e", lower_port), upper, lane, speed))
                return
        if nd > um.server_ports:
            raise DomainError(
                "fabric",
                f"{devices[upper].node_id} ({um.name}) has {um.server_ports} downlink ports, "
                f"too few for the links the fabric needs",
            )
        conns.append((cls, lower, _port("e", lower_port), upper, _port("e", nd), speed))

    for t in tor_order:
        d = devices[t]
        tm = tor_models[t]
        srv_ports = tm.server_ports
        up_ports = tm.uplink_ports
        if uplinks > up_ports:
            raise DomainError(
                "fabric.uplinks_per_tor",
                f"ToR {d.name} has {up_ports} uplink ports; the fabric needs {uplinks}",
            )
        ordinal = per_cluster.get(d.cluster, 0)
        per_cluster[d.cluster] = ordinal + 1
        if kind is FabricKind.LEAF_SPINE:
            if not spines:
                raise DomainError("fabric", "leaf-spine needs spine switches in the layout")
            for u, i in enumerate(uplink_targets(kind, leaf_ordinal, uplinks, len(spines))):
                link(LinkClass.TOR_FABRIC, t, srv_ports + u + 1, spines[i])
            leaf_ordinal += 1
            continue
        cl = aggs.get(d.cluster if d.cluster is not None else -1, [])
        if not cl:
            raise DomainError("fabric", f"cluster {d.cluster} of ToR {d.name} has no aggregation switches")
        if kind is FabricKind.VL2 and len(cl) < 2:
            raise DomainError("fabric", f"VL2 needs >= 2 aggregation switches in cluster {d.cluster}")
        for u, i in enumerate(uplink_targets(kind, ordinal, uplinks, len(cl))):
            link(LinkClass.TOR_FABRIC, t, srv_ports + u + 1, cl[i])
    if kind in (FabricKind.THREE_TIER, FabricKind.VL2) and cores:
        for h in sorted(aggs):
            for a in aggs[h]:
                am = models[devices[a].node_id]
                if len(cores) > am.uplink_ports:
                    raise DomainError(
                        "fabric",
                        f"{devices[a].node_id} has {am.uplink_ports} uplink ports for {len(cores)} core switches",
                    )
                for up, core in enumerate(cores):
                    link(LinkClass.AGG_CORE, a, am.server_ports + up + 1, core)


def _materialise(
    conns: list[_Conn],
    devices: list[Device],
    pos_rack: list[int],
    geometry: GeometryPreset,
    sel: MediaSelector,
    hall: Hall,
    spec: WiringSpec,
) -> tuple[list[Cable], int]:
    """Route, measure, choose media for, label and identify each connection. Returns the cables
    and how many of them need forced RS-FEC."""
    tray = tray_z_mm(geometry, hall)
    if geometry.via is Via.FLOOR:
        if hall.raised_floor_mm <= 0:
            raise DomainError("geometry", f"routing under the floor needs a raised floor; hall {hall.name} has none")
        # z' = -z - floor/2 turns the tray formula (2T - za - zb) into za + zb + floor
        tray = -(hall.raised_floor_mm // 2)
        sign = -1
    else:
        sign = 1
    tray2 = 2 * tray
    between_racks = geometry.via is not Via.FACES
    allow2 = 2 * geometry.service_allowance_mm
    slack = 1000 + geometry.slack_permille
    hop = spec.hop_latency_ns
    cables: list[Cable] = []
    append = cables.append
    select = sel.require
    fabric_optical = spec.fabric.optical
    fec = 0
    chosen: dict[tuple[float, int, bool], MediaChoice] = {}
    for cls, a, ap, b, bp, gbps in conns:
        da = devices[a]
        db = devices[b]
        dxy = abs(da.x_mm - db.x_mm) + abs(da.y_mm - db.y_mm)
        if between_racks and pos_rack[a] != pos_rack[b]:
            raw = sign * (tray2 - da.z_mm - db.z_mm) + dxy
        else:
            raw = dxy + abs(da.z_mm - db.z_mm)
        ws = ((raw + allow2) * slack + 999) // 1000
        an, bn = da.name, db.name
        label = cable_label(an, ap, bn, bp)
        optical = fabric_optical and cls in _FABRIC_CLASSES
        key = (gbps, ws, optical)
        choice = chosen.get(key)
        if choice is None:
            choice = chosen[key] = select(gbps, ws, label, optical=optical)
        opt = choice.option
        if opt.extra_latency_ns:
            fec += 1
        append(
            Cable(
                cable_id(an, ap, bn, bp),
                label,
                cls,
                an,
                ap,
                bn,
                bp,
                gbps,
                raw,
                ws,
                choice.ordered_mm,
                opt.medium,
                opt.part_number,
                opt.transceiver,
                hop + raw * PROPAGATION_NS_PER_M // 1000 + opt.extra_latency_ns,
                choice.unit_price,
            )
        )
    ids = {c.cable_id for c in cables}
    if len(ids) != len(cables):
        raise DomainError("cables", "duplicate cable (same two ports) in the plan")
    return cables, fec


def _wire_rails(
    index: _HallIndex, hall: Hall, spec: WiringSpec, rail: RailSpec, geometry: GeometryPreset
) -> _LogicalWiring:
    """The rail patterns: servers in hall order, `rail.su_size` to a scalable unit; NIC port i+1 of
    the SU's j-th server to server-facing port j+1 of the SU's rail leaf i; rail-optimized also
    wires each leaf's U uplinks to the spines (leaf-spine's spread, `uplink_targets`), U from the
    asked oversubscription."""
    devices, lrs = index.devices, index.lrs
    rails = lrs[0].ports
    if any(lrec.ports != rails for lrec in lrs):
        odd = next(lrec for lrec in lrs if lrec.ports != rails)
        raise DomainError(
            "ports",
            f"every server of a rail fabric needs the same rails: {lrs[0].name} has {rails} NIC ports, "
            f"{odd.name} has {odd.ports}",
        )
    servers = [(lrec, lrec.first_server + s) for lrec in lrs for s in range(lrec.servers)]
    size = rail.su_size
    units = [servers[k : k + size] for k in range(0, len(servers), size)]
    warnings: list[str] = []
    if len(units[-1]) < size:
        warnings.append(
            f"SU {len(units)} has {len(units[-1])} of {size} servers: its rail leaves keep ports for the rest"
        )
    leaf = rail.leaf_model
    unit_rows = [sorted({lrec.hall_row for lrec, _ in u}) for u in units]
    leaves = _place_rail_leaves(index, hall, geometry, unit_rows, rails, leaf)
    conns: list[_Conn] = []
    append = conns.append
    cls = LinkClass.SERVER_TOR
    for k, unit in enumerate(units):
        for j, (lrec, server) in enumerate(unit):
            devices[server].cluster = k
            speed = min(lrec.lr.server_model.port_gbps, leaf.server_port_gbps)
            for i in range(rails):
                append((cls, server, _port("p", i + 1), leaves[k][i], _port("e", j + 1), speed))
    if spec.pattern is Pattern.RAIL_ONLY:
        if len(units) > 1:
            warnings.append(
                f"rail-only: the {len(units)} SUs share no switch, so no path joins servers of different SUs"
            )
        return _LogicalWiring(conns, [], warnings)
    uplinks = _rail_uplinks(hall, rail, leaf, min(lrec.lr.server_model.port_gbps for lrec in lrs))
    for plane, spines in enumerate(_spine_planes(index, rail.spine_planes, rails)):
        order = [t for unit in leaves for i, t in enumerate(unit) if i % rail.spine_planes == plane]
        _wire_fabric(
            conns, devices, lrs, spines, order, spec, hall, leaves=dict.fromkeys(order, leaf), uplinks_per_leaf=uplinks
        )
    return _LogicalWiring(conns, [], warnings)


def _spine_planes(index: _HallIndex, planes: int, rails: int) -> list[list[int]]:
    """The layout's fabric switches cut into `planes` groups of spines, in name order (one group:
    all of them, as they are)."""
    if planes == 1:
        return [index.fabric]
    if planes > rails:
        raise DomainError("rail.spine_planes", f"{planes} planes for {rails} rails: a plane would serve no rail")
    spines = sorted(
        (f for f in index.fabric if index.devices[f].role is Role.SPINE),
        key=lambda f: (len(index.devices[f].node_id), index.devices[f].node_id),
    )
    if len(spines) % planes:
        raise DomainError(
            "rail.spine_planes",
            f"{len(spines)} spines do not split into {planes} equal planes",
        )
    size = len(spines) // planes
    return [spines[p * size : (p + 1) * size] for p in range(planes)]


def _rail_uplinks(hall: Hall, rail: RailSpec, leaf: SwitchModel, server_gbps: float) -> int:
    """Uplinks U per rail leaf for the asked oversubscription: a full SU's server-facing Gb/s over
    U x the leaf-to-spine link's Gb/s (the slower of the leaf's uplink and the spines' ports) must
    equal it, so U must come out whole and within the leaf's uplink ports."""
    spine_gbps = [
        fs.model.server_port_gbps
        for row in hall.rows
        for rk in row.racks
        for fs in rk.fabric_switches
        if Role(fs.role) is Role.SPINE and fs.network == Network.COMPUTE.value
    ]
    if not spine_gbps:
        raise DomainError("fabric", "rail-optimized needs spine switches in the layout (rail-only needs none)")
    ratio = 1.0 if rail.oversubscription is None else rail.oversubscription
    down = rail.su_size * min(server_gbps, leaf.server_port_gbps)
    up = min(leaf.uplink_gbps, min(spine_gbps))
    exact = down / (ratio * up)
    if exact > leaf.uplink_ports * (1 + 1e-9):  # also a ratio so small the count overflows
        lowest = f"the lowest it reaches is {down / (leaf.uplink_ports * up):g}:1" if leaf.uplink_ports else "none"
        raise DomainError(
            "rail.oversubscription",
            f"{ratio:g}:1 needs {exact:g} uplinks of {up:g}G per rail leaf; {leaf.name} has "
            f"{leaf.uplink_ports} ({lowest})",
        )
    uplinks = round(exact)
    if uplinks < 1 or abs(exact - uplinks) > 1e-9 * max(1.0, exact):
        lower, upper = max(1, int(exact)), int(exact) + 1
        raise DomainError(
            "rail.oversubscription",
            f"{ratio:g}:1 needs {exact:g} uplinks of {up:g}G per rail leaf ({rail.su_size} x {down / rail.su_size:g}G "
            f"down): not a whole number; {lower} uplinks give {down / (lower * up):g}:1, "
            f"{upper} give {down / (upper * up):g}:1",
        )
    return uplinks


def _place_rail_leaves(
    index: _HallIndex,
    hall: Hall,
    geometry: GeometryPreset,
    unit_rows: list[list[int]],
    rails: int,
    leaf: SwitchModel,
) -> list[list[int]]:
    """Mount each SU's `rails` leaves in the network racks of the rows its servers stand in (rows in
    hall order, racks along the row), each at the lowest free U range its height fits (the layout's
    fabric switches and leaves placed before it take theirs). Returns each SU's leaf device indices
    in rail order."""
    placed = _RackDevices()
    placed.devices = index.devices
    placed.pos_rack = index.pos_rack
    keys: dict[tuple[int, int], int] = {}
    key = 0
    for r, row in enumerate(hall.rows):
        for k in range(len(row.racks)):
            key += 1
            keys[(r, k)] = key
    used: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(hall.rows):
        for k, rack in enumerate(row.racks):
            used[(r, k)] = [(fs.u, fs.u + fs.model.height_u - 1) for fs in rack.fabric_switches]
    h = leaf.height_u

    def free_u(spot: tuple[int, int], top: int) -> int | None:
        u = 1
        for lo, hi in sorted(used[spot]):
            if u + h - 1 < lo:
                break
            u = max(u, hi + 1)
        return u if u + h - 1 <= top else None

    out: list[list[int]] = []
    for su, rows in enumerate(unit_rows):
        spots = [(r, k) for r in rows for k, rack in enumerate(hall.rows[r].racks) if rack.role is RackRole.NETWORK]
        unit: list[int] = []
        for i in range(rails):
            for r, k in spots:
                rack = hall.rows[r].racks[k]
                u = free_u((r, k), rack.rack_type.height_u)
                if u is None:
                    continue
                used[(r, k)].append((u, u + h - 1))
                rname = rack_name(hall.name, hall.rows[r].name, rack.name)
                x, y = ports_xy(geometry, hall.rows[r], rack)
                placed.enter(keys[(r, k)], rname, x, y)
                d = placed.add(
                    device_name(rname, u),
                    f"{hall.name}.SU{su + 1}.RAIL{i + 1}",
                    Role.TOR,
                    u,
                    leaf.name,
                    device_z_mm(geometry, rack, u, h),
                )
                index.devices[d].cluster = su
                unit.append(d)
                break
            else:
                names = ", ".join(hall.rows[r].name for r in rows)
                raise DomainError(
                    "layout",
                    f"SU {su + 1} (rows {names}) has room for {i} of its {rails} rail leaves ({leaf.name}, "
                    f"{h}U) in the network racks of its rows: add a network rack (or free U) there",
                )
        out.append(unit)
    return out
