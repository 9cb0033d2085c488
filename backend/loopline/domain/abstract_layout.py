"""A whole hall built from a handful of numbers, for the CLI, benchmarks and tests.

`build_abstract_layout(AbstractLayoutSpec(...))` returns a `layout.Hall` the wiring generator reads
exactly like one built from the database. The choices made here:

- Rows come in facing pairs: row ``2k`` (``R01``, ``R03``, ...) fronts face +y, row ``2k+1`` fronts
  face -y, the two fronts ``cold_aisle_mm`` (1.2 m) apart: a cold aisle. Pairs are separated by a
  hot aisle of ``hot_aisle_mm`` (1.2 m) between their rear faces. An odd last row stands alone.
  Every row runs along +x (direction 0) from x = ``margin_mm``; racks touch (no gaps).
- Each row holds ``racks_per_row`` compute racks ``K01..Knn`` and one network rack ``N01``: at its
  +x end (``network_rack="end"``, the default) or in the middle of the row, after compute rack
  ``K<n/2>`` (``network_rack="middle"``); the compute racks keep their names either way.
- A compute rack holds ``logical_per_rack`` (``b``) logical racks stacked from U1, each of
  ``servers_per_logical_rack`` (``r``) 1U servers plus a 1U ToR (top of the logical rack in the
  ``default`` geometry, middle in ``paper``).
- Clusters are groups of ``rows_per_cluster`` consecutive rows (default 2: a facing pair). The
  aggregation switches of a cluster are spread round-robin over the network racks of its rows;
  core / spine switches round-robin over all network racks. Fabric switch models are sized so
  their ports suffice, with room for a parallel set of ToRs (they stand for chassis switches);
  the ToR model is a real constraint.
- ``default`` geometry: 600 mm wide, 1200 mm deep, 42U racks. ``paper`` geometry (DESIGN §3.3):
  500 mm wide racks whose height in U is exactly ``b*(r+1)`` (the routing preset scales it to 2.0 m),
  so every logical rack is ``2.0/b`` m tall with its ToR in the middle.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from loopline.domain.errors import DomainError
from loopline.domain.layout import (
    FabricSwitch,
    Face,
    Hall,
    LogicalRack,
    Point,
    Rack,
    RackRole,
    RackType,
    Row,
    ServerModel,
    Side,
    SwitchModel,
    TorPosition,
)

DEFAULT_RACK_U = 42


@dataclass(frozen=True, slots=True)
class AbstractLayoutSpec:
    rows: int
    racks_per_row: int
    logical_per_rack: int = 1
    servers_per_logical_rack: int = 16
    ports: int = 1
    port_gbps: float = 25.0
    geometry: str = "default"
    grin_degree: int = 0
    spare_nic_ports: int = 0
    """NIC ports beyond p + n (e.g. for a heterogeneous upgrade's new ports)."""
    tor_server_ports: int = 48
    tor_uplink_ports: int = 8
    uplinks_per_tor: int = 4
    uplink_gbps: float = 100.0
    rows_per_cluster: int = 2
    aggs_per_cluster: int = 4
    core_switches: int = 4
    spine_switches: int = 0
    hall_name: str = "H1"
    cold_aisle_mm: int = 1200
    hot_aisle_mm: int = 1200
    margin_mm: int = 1200
    network_rack: str = "end"
    """``end`` (after the last compute rack) or ``middle`` of each row."""


def _positive(field: str, value: int, minimum: int = 1) -> None:
    if value < minimum:
        raise DomainError(field, f"must be >= {minimum}, got {value}")


def cluster_count(rows: int, rows_per_cluster: int) -> int:
    return (rows + rows_per_cluster - 1) // rows_per_cluster


def build_abstract_layout(spec: AbstractLayoutSpec) -> Hall:
    """Build the hall described by `spec` (see the module docstring for the conventions)."""
    _positive("rows", spec.rows)
    _positive("racks_per_row", spec.racks_per_row)
    _positive("logical_per_rack", spec.logical_per_rack)
    _positive("servers_per_logical_rack", spec.servers_per_logical_rack)
    _positive("ports", spec.ports)
    _positive("grin_degree", spec.grin_degree, 0)
    _positive("spare_nic_ports", spec.spare_nic_ports, 0)
    _positive("tor_server_ports", spec.tor_server_ports)
    _positive("uplinks_per_tor", spec.uplinks_per_tor, 0)
    _positive("rows_per_cluster", spec.rows_per_cluster)
    _positive("aggs_per_cluster", spec.aggs_per_cluster, 0)
    _positive("core_switches", spec.core_switches, 0)
    _positive("spine_switches", spec.spine_switches, 0)
    if spec.port_gbps <= 0:
        raise DomainError("port_gbps", f"must be > 0, got {spec.port_gbps}")
    if spec.network_rack not in ("end", "middle"):
        raise DomainError("network_rack", f"unknown placement {spec.network_rack!r}; use end or middle")
    if spec.geometry not in ("default", "paper"):
        raise DomainError("geometry", f"unknown geometry {spec.geometry!r}; use default or paper")
    if spec.uplinks_per_tor > spec.tor_uplink_ports:
        raise DomainError(
            "uplinks_per_tor",
            f"{spec.uplinks_per_tor} uplinks per ToR exceed its {spec.tor_uplink_ports} uplink ports",
        )
    b, r = spec.logical_per_rack, spec.servers_per_logical_rack
    paper = spec.geometry == "paper"
    lr_height = r + 1
    height_u = b * lr_height if paper else DEFAULT_RACK_U
    if b * lr_height > height_u:
        raise DomainError(
            "logical_per_rack",
            f"{b} logical racks of {r} servers + 1 ToR need {b * lr_height}U but a rack has {height_u}U",
        )
    width = 500 if paper else 600
    depth = 1200
    rack_type = RackType(name=f"{height_u}U {width}x{depth}", width_mm=width, depth_mm=depth, height_u=height_u)
    nic = spec.ports + spec.grin_degree + spec.spare_nic_ports
    server_model = ServerModel(
        name=f"{nic}x{spec.port_gbps:g}G server",
        nic_ports=nic,
        port_gbps=spec.port_gbps,
    )
    tor_model = SwitchModel(
        name=f"{spec.tor_server_ports}x{spec.port_gbps:g}G+{spec.tor_uplink_ports}x{spec.uplink_gbps:g}G ToR",
        server_ports=spec.tor_server_ports,
        server_port_gbps=spec.port_gbps,
        uplink_ports=spec.tor_uplink_ports,
        uplink_gbps=spec.uplink_gbps,
    )
    tor_pos = TorPosition.MIDDLE if paper else TorPosition.TOP
    logical = tuple(
        LogicalRack(
            servers=r,
            server_model=server_model,
            tor_model=tor_model,
            tor_position=tor_pos,
            base_u=1 + j * lr_height,
            ports_used=spec.ports,
        )
        for j in range(b)
    )

    rows: list[Row] = []
    y = spec.margin_mm
    for i in range(spec.rows):
        second = i % 2 == 1
        net_slot = spec.racks_per_row if spec.network_rack == "end" else spec.racks_per_row // 2
        racks = [
            Rack(
                name=f"K{k + 1:02d}",
                rack_type=rack_type,
                position_mm=(k + (1 if k >= net_slot else 0)) * width,
                logical_racks=logical,
                role=RackRole.COMPUTE,
                port_face=Face.FRONT,
            )
            for k in range(spec.racks_per_row)
        ]
        racks.append(
            Rack(
                name="N01",
                rack_type=rack_type,
                position_mm=net_slot * width,
                role=RackRole.NETWORK,
                port_face=Face.FRONT,
            )
        )
        racks.sort(key=lambda rk: rk.position_mm)
        rows.append(
            Row(
                name=f"R{i + 1:02d}",
                origin=Point(spec.margin_mm, y),
                direction=0,
                front=Side.RIGHT if second else Side.LEFT,
                racks=tuple(racks),
            )
        )
        y += depth + (spec.hot_aisle_mm if second else spec.cold_aisle_mm)
    hall_width = 2 * spec.margin_mm + (spec.racks_per_row + 1) * width
    hall_depth = y - (spec.hot_aisle_mm if spec.rows % 2 == 0 else spec.cold_aisle_mm) + spec.margin_mm
    hall = Hall(
        name=spec.hall_name,
        width_mm=hall_width,
        depth_mm=hall_depth,
        rows=tuple(rows),
        tray_height_mm=0 if paper else 300,
    )
    return place_fabric(
        hall,
        aggs_per_cluster=0 if spec.spine_switches else spec.aggs_per_cluster,
        core_switches=0 if spec.spine_switches else spec.core_switches,
        spine_switches=spec.spine_switches,
        rows_per_cluster=spec.rows_per_cluster,
        uplinks_per_tor=spec.uplinks_per_tor,
        uplink_gbps=spec.uplink_gbps,
    )


def place_fabric(
    hall: Hall,
    *,
    aggs_per_cluster: int = 4,
    core_switches: int = 4,
    spine_switches: int = 0,
    rows_per_cluster: int = 2,
    uplinks_per_tor: int = 4,
    uplink_gbps: float = 100.0,
) -> Hall:
    """Mount fabric switches in the hall's network racks (role NETWORK) and return the new hall.

    Clusters are `rows_per_cluster` consecutive rows holding compute racks, in hall order (the
    wiring generator groups them the same way). The aggregation switches of a cluster go
    round-robin to the network racks of its rows, or, when its rows have none (a dedicated
    network row), round-robin over all network racks. Spine and core switches go round-robin over
    all network racks. Each network rack is filled upwards from its lowest free U. Models are
    chassis sized so their ports suffice, with room for a parallel set of ToRs.
    """
    for name, v in (("aggs_per_cluster", aggs_per_cluster), ("core_switches", core_switches),
                    ("spine_switches", spine_switches), ("uplinks_per_tor", uplinks_per_tor)):  # fmt: skip
        _positive(name, v, 0)
    _positive("rows_per_cluster", rows_per_cluster)
    compute_rows = [
        i
        for i, row in enumerate(hall.rows)
        if any(rk.role is RackRole.COMPUTE and rk.logical_racks for rk in row.racks)
    ]
    clusters = [compute_rows[i : i + rows_per_cluster] for i in range(0, len(compute_rows), rows_per_cluster)]
    network = [
        (i, k) for i, row in enumerate(hall.rows) for k, rk in enumerate(row.racks) if rk.role is RackRole.NETWORK
    ]
    if not network and (aggs_per_cluster or core_switches or spine_switches):
        raise DomainError("layout", f"hall {hall.name} has no network rack for its fabric switches")
    added: dict[tuple[int, int], list[FabricSwitch]] = {key: [] for key in network}
    next_u = {
        (i, k): max((fs.u + fs.model.height_u for fs in hall.rows[i].racks[k].fabric_switches), default=1)
        for i, k in network
    }

    def tors(rows: list[int]) -> int:
        return sum(len(rk.logical_racks) for i in rows for rk in hall.rows[i].racks if rk.role is RackRole.COMPUTE)

    def place(key: tuple[int, int], name: str, role: str, model: SwitchModel, cluster: int | None) -> None:
        i, k = key
        rack = hall.rows[i].racks[k]
        u = next_u[key]
        if u + model.height_u - 1 > rack.rack_type.height_u:
            raise DomainError(
                f"rows[{i}].racks[{k}].fabric_switches",
                f"network rack {hall.rows[i].name}.{rack.name} has {rack.rack_type.height_u}U, too few for "
                "its fabric switches",
            )
        added[key].append(FabricSwitch(name=name, role=role, model=model, u=u, cluster=cluster))
        next_u[key] = u + model.height_u

    if spine_switches:
        spine_model = SwitchModel(
            name="spine chassis",
            server_ports=max(1, 2 * tors(compute_rows) * uplinks_per_tor),
            server_port_gbps=uplink_gbps,
            uplink_ports=0,
            uplink_gbps=uplink_gbps,
        )
        for j in range(spine_switches):
            place(network[j % len(network)], f"SPINE{j + 1}", "spine", spine_model, None)
    if aggs_per_cluster:
        biggest = max((tors(rows) for rows in clusters), default=0)
        agg_model = SwitchModel(
            name="aggregation chassis",
            server_ports=max(1, 2 * biggest * uplinks_per_tor),
            server_port_gbps=uplink_gbps,
            uplink_ports=max(1, core_switches),
            uplink_gbps=uplink_gbps,
        )
        for h, rows in enumerate(clusters):
            own = [key for key in network if key[0] in rows]
            for j in range(aggs_per_cluster):
                key = own[j % len(own)] if own else network[(h * aggs_per_cluster + j) % len(network)]
                place(key, f"C{h}.AGG{j + 1}", "agg", agg_model, h)
    if core_switches:
        core_model = SwitchModel(
            name="core chassis",
            server_ports=max(1, len(clusters) * aggs_per_cluster),
            server_port_gbps=uplink_gbps,
            uplink_ports=0,
            uplink_gbps=uplink_gbps,
        )
        for j in range(core_switches):
            place(network[j % len(network)], f"CORE{j + 1}", "core", core_model, None)
    rows_out = list(hall.rows)
    for (i, k), new in added.items():
        if not new:
            continue
        racks = list(rows_out[i].racks)
        racks[k] = replace(racks[k], fabric_switches=racks[k].fabric_switches + tuple(new))
        rows_out[i] = replace(rows_out[i], racks=tuple(racks))
    return replace(hall, rows=tuple(rows_out))
