"""Fabric port capacity of a hall: do the switches above the ToRs have the ports the wiring needs?

The wiring generator (domain/wiring/generate.py) cables each ToR's uplinks round-robin over the
spines (leaf-spine) or over the aggregation switches of its cluster (three-tier, VL2), and every
aggregation switch to every core; it stops at the first switch that runs out of downlink ports,
whatever the wiring pattern. This counts the same links with the generator's own arithmetic
(`tor_uplink_count`, `uplink_targets`), so a layout that cannot be wired is reported while it is
being edited, before anyone presses Generate. Clusters are the ToRs' home clusters (Subways Type 1);
Type 2 spreads a loop's ToRs over clusters but keeps each cluster's share even.

With breakouts (a structured plan's option), a switch whose port optic breaks out into the ToR
uplinks' speed serves ports x lanes links (`structured.optics.breakout_lanes`, which the generator
asks too): its available count is then links (lanes), not ports.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from loopline.domain.layout import FabricSettings, FabricSwitch, FabricType, Hall, RackRole
from loopline.domain.layout_rules import Issue, Severity
from loopline.domain.structured.optics import breakout_lanes
from loopline.domain.wiring.generate import tor_uplink_count, uplink_targets
from loopline.domain.wiring.spec import FabricKind

FABRIC_KIND = {
    FabricType.FAT_TREE: FabricKind.THREE_TIER,
    FabricType.LEAF_SPINE: FabricKind.LEAF_SPINE,
    FabricType.VL2: FabricKind.VL2,
}


@dataclass(frozen=True, slots=True)
class LayerPorts:
    """Ports one layer's links need against the ports its switches have.

    `direction` is `uplink` for the ToR layer (ports on the ToRs towards the fabric) and `downlink`
    for the layers above (ports facing the layer below). `busiest` is the switch needing the most
    ports relative to what it has (the first to run out), with its own need and ports. Counted with
    breakouts, a breaking-out switch's ports are its lanes (ports x lanes): the links it serves.
    """

    layer: str
    direction: str
    switches: int
    ports_needed: int
    ports_available: int
    busiest: str | None
    busiest_needed: int
    busiest_available: int

    @property
    def short(self) -> bool:
        return self.busiest_needed > self.busiest_available


@dataclass(slots=True)
class _Tally:
    """Per switch: ports needed and available, in the generator's order."""

    names: list[str]
    available: list[int]
    needed: list[int]

    def layer(self, layer: str, direction: str) -> LayerPorts:
        busiest = max(range(len(self.names)), key=lambda i: self.needed[i] - self.available[i], default=None)
        return LayerPorts(
            layer,
            direction,
            len(self.names),
            sum(self.needed),
            sum(self.available),
            None if busiest is None else self.names[busiest],
            0 if busiest is None else self.needed[busiest],
            0 if busiest is None else self.available[busiest],
        )


def _natural(switches: list[FabricSwitch]) -> list[FabricSwitch]:
    # The generator sorts fabric switches by (length, name) of their node id, `<hall>.<name>`.
    return sorted(switches, key=lambda fs: (len(fs.name), fs.name))


def _links_served(fs: FabricSwitch, uplink_gbps: float | None, breakouts: bool) -> int:
    """Links `fs` serves: its downlink ports, or with breakouts ports x lanes where its ports break
    out into the speed of the first ToR uplinks it takes (`uplink_gbps`; None: it takes none)."""
    if breakouts and uplink_gbps is not None:
        lanes = breakout_lanes(fs.name, fs.model.server_ports, fs.model.server_port_gbps, uplink_gbps)
        if lanes is not None:
            return lanes.capacity
    return fs.model.server_ports


def _downlinks(
    switches: list[FabricSwitch],
    demand: Counter[int],
    first_gbps: dict[int, float] | None = None,
    breakouts: bool = False,
) -> _Tally:
    names = [fs.name for fs in switches]
    gbps = first_gbps or {}
    return _Tally(
        names,
        [_links_served(fs, gbps.get(i), breakouts) for i, fs in enumerate(switches)],
        [demand[i] for i in range(len(switches))],
    )


def _uplink_demand(
    kind: FabricKind, tor_gbps: list[float], uplinks: int, switches: int
) -> tuple[Counter[int], dict[int, float]]:
    """Links each of `switches` takes from ToRs of uplink speeds `tor_gbps` (in wiring order), and
    the speed of the first ToR uplink each takes (what its ports break out into)."""
    demand: Counter[int] = Counter()
    first: dict[int, float] = {}
    for k, gbps in enumerate(tor_gbps):
        for i in uplink_targets(kind, k, uplinks, switches):
            demand[i] += 1
            first.setdefault(i, gbps)
    return demand, first


def fabric_ports(
    hall: Hall, fabric: FabricSettings, *, breakouts: bool = False
) -> tuple[list[LayerPorts], list[Issue]]:
    """Port need and capacity per layer (bottom up), and a warning for each layer that runs out.
    `breakouts`: count a breaking-out switch's lanes, as a plan with breakouts wires it."""
    kind = FABRIC_KIND[fabric.fabric_type]
    uplinks = tor_uplink_count(kind, fabric.tor_uplinks)
    # ToRs per home cluster, in hall order: one per logical rack of a compute rack.
    tors: list[tuple[str, int, int, float]] = []  # (ToR name, uplink ports, cluster, uplink Gb/s)
    compute_row = -1
    per_cluster = max(1, fabric.rows_per_cluster)
    for row in hall.rows:
        if any(rk.role is RackRole.COMPUTE and rk.logical_racks for rk in row.racks):
            compute_row += 1
        for rack in row.racks:
            if rack.role is not RackRole.COMPUTE:
                continue
            for j, lr in enumerate(rack.logical_racks):
                tors.append(
                    (
                        f"{rack.name}.L{j + 1}",
                        lr.tor_model.uplink_ports,
                        compute_row // per_cluster,
                        lr.tor_model.uplink_gbps,
                    )
                )
    if not tors:
        return [], []
    switches = [fs for row in hall.rows for rack in row.racks for fs in rack.fabric_switches]
    if not switches:
        # A hall still being laid out: like the switch-count rule, judge the fabric once some is placed.
        return [_Tally([t[0] for t in tors], [t[1] for t in tors], [uplinks] * len(tors)).layer("tor", "uplink")], []
    layers = [
        _Tally([t[0] for t in tors], [t[1] for t in tors], [uplinks] * len(tors)).layer("tor", "uplink"),
    ]
    issues: list[Issue] = []

    def short(field: str, message: str) -> None:
        issues.append(Issue(Severity.WARNING, "fabric_ports_short", field, message))

    tor_layer = layers[0]
    if tor_layer.short:
        short(
            "fabric.tor_uplinks",
            f"ToR {tor_layer.busiest} has {tor_layer.busiest_available} uplink ports; "
            f"the fabric asks for {uplinks} per ToR. Wiring will fail until the ToR model or the uplinks change.",
        )

    ports = "ports (lanes where a port breaks out)" if breakouts else "ports"
    if kind is FabricKind.LEAF_SPINE:
        spines = _natural([fs for fs in switches if fs.role == "spine"])
        if not spines:
            short("fabric.spines", "leaf-spine needs spine switches: place them in a network rack before wiring")
            return layers, issues
        demand, first = _uplink_demand(kind, [t[3] for t in tors], uplinks, len(spines))
        layer = _downlinks(spines, demand, first, breakouts).layer("spine", "downlink")
        layers.append(layer)
        if layer.short:
            short(
                "fabric.spines",
                f"the spines run out of ports: {len(tors)} ToRs x {uplinks} uplinks need {layer.ports_needed} "
                f"spine {ports}, the {layer.switches} spines have {layer.ports_available}; "
                f"{layer.busiest} needs {layer.busiest_needed} of its {layer.busiest_available}. "
                "Add spines, use a larger spine model or fewer uplinks per ToR.",
            )
        return layers, issues

    aggs: dict[int, list[FabricSwitch]] = {}
    for fs in switches:
        if fs.role == "agg" and fs.cluster is not None:
            aggs.setdefault(fs.cluster, []).append(fs)
    cores = _natural([fs for fs in switches if fs.role == "core"])
    cluster_gbps: dict[int, list[float]] = {}
    for t in tors:
        cluster_gbps.setdefault(t[2], []).append(t[3])
    agg_tally = _Tally([], [], [])
    for cluster in sorted(cluster_gbps):
        cl = _natural(aggs.get(cluster, []))
        if len(cl) < (2 if kind is FabricKind.VL2 else 1):
            short(
                "fabric.aggs_per_cluster",
                f"cluster {cluster} has {len(cl)} aggregation switches; "
                f"{'VL2 needs at least 2' if kind is FabricKind.VL2 else 'its ToRs need at least 1'}",
            )
            continue
        demand, first = _uplink_demand(kind, cluster_gbps[cluster], uplinks, len(cl))
        part = _downlinks(cl, demand, first, breakouts)
        agg_tally.names += part.names
        agg_tally.available += part.available
        agg_tally.needed += part.needed
    if agg_tally.names:
        layer = agg_tally.layer("agg", "downlink")
        layers.append(layer)
        if layer.short:
            short(
                "fabric.aggs_per_cluster",
                f"the aggregation switches run out of ports: {layer.busiest} needs {layer.busiest_needed} "
                f"ToR-facing {ports} and has {layer.busiest_available} "
                f"({layer.ports_needed} needed in all, {layer.ports_available} available). "
                "Add aggregation switches or use fewer uplinks per ToR.",
            )
    all_aggs = [fs for cluster in sorted(aggs) for fs in _natural(aggs[cluster])]
    if cores and all_aggs:
        narrow = [fs for fs in all_aggs if fs.model.uplink_ports < len(cores)]
        if narrow:
            short(
                "fabric.cores",
                f"aggregation switch {narrow[0].name} has {narrow[0].model.uplink_ports} uplink ports "
                f"for {len(cores)} core switches",
            )
        layer = _downlinks(cores, Counter({i: len(all_aggs) for i in range(len(cores))})).layer("core", "downlink")
        layers.append(layer)
        if layer.short:
            short(
                "fabric.cores",
                f"the core switches run out of ports: every core takes one link from each of the "
                f"{len(all_aggs)} aggregation switches, {layer.busiest} has {layer.busiest_available}",
            )
    return layers, issues
