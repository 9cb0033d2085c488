"""How long and how much memory a simulation will take, in flow and in packet mode, before it runs.

The engine reads the workload (`loopline-sim validate --json`, its `estimate` object:
sim-engine/src/preflight.rs): its flows, their bytes, the packets they make with the scenario's
packet settings and the links each crosses (`mean_hops`: the shortest server-to-server path over
switches, which is the up-down path of a Clos; routings that take longer paths, VLB or detours,
cost more than this says). This module keeps only the timing constants and multiplies.

Packet mode: each packet and its ACK cost `EVENTS_PER_PACKET_HOP` events per link crossed, run at
`PACKET_EVENTS_PER_S`. Flow mode: its cost grows with flows (an arrival, a completion and the rate
updates around them), at `FLOW_FLOWS_PER_S`. The constants are measured (see each one), so the
figures are estimates of the median run on this kind of machine, not bounds;
`scripts/calibrate_sim_estimate.py` prints the measured figures beside the estimate.

Decomposed mode: the engine's `decompose plan` says what the run will simulate (links with flows,
representatives of clusters, idle links, and the packet-hops of every link simulation); the link
simulations are spread over the live workers, the plan and the combination of the parts are not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Mode = Literal["flow", "packet"]

DEFAULT_BUFFER_BYTES = 150_000
"""The engine's drop-tail buffer per port (sim-engine/src/scenario/mod.rs `PacketSpec`), which the
API's ECN-threshold check compares with."""

EVENTS_PER_PACKET_HOP = 4.0
"""A data packet's departure from a port and its arrival at the far end of the wire, and the same
for its ACK on the way back: 4 events per link crossed (sim-engine/src/packet/events.rs, `EV_DEPART`,
`EV_WIRE`); retransmissions and timers add a few per cent (measured: see the calibration script)."""

PACKET_EVENTS_PER_S = 3_000_000.0
"""Packet-mode events per second of wall time on this 2-core machine shared with other work:
`scripts/calibrate_sim_estimate.py` measured 4.9 M and 5.4 M with light load, 1.5 M to 2.7 M with
heavy load (FatTree k=4 and k=8, web search and a permutation; 0.5 to 90 s runs); measured events
were 4.00 to 4.20 per packet-hop. 3 M sits between: a loaded machine takes up to twice as long."""

FLOW_FLOWS_PER_S = 90_000.0
"""Flow-mode flows per second of wall time: the engine's `run_info.flows_per_s` on FatTree k=16
with 300,000 web-search flows at 40% load (3.3 s, 97 MB peak). Small runs are all start-up."""

STARTUP_S = 0.05
"""Reading the scenario, building the network and routes, writing the result."""

BASE_MEMORY_MB = 6.0
"""The engine's resident memory with a small workload (5 to 6 MB measured)."""

BYTES_PER_FLOW = {"flow": 300.0, "packet": 400.0}
"""Memory per flow: its record, route and (packet mode) connection state."""

BYTES_PER_LINK = 2_000.0
"""Memory per directed link: the port, its queue histogram and series buckets."""

PACKET_POOL_BYTES = 64.0
"""Memory per pooled packet; the pool holds at most the packets every queue can buffer."""


class Unestimable(Exception):
    """The engine found no estimate for the scenario (a flow's servers have no path over switches)."""


@dataclass(frozen=True, slots=True)
class ModeEstimate:
    mode: Mode
    wall_s: float
    memory_mb: float
    events: float
    """Engine events (packet mode: packet and ACK hops; flow mode: flows)."""


@dataclass(frozen=True, slots=True)
class WorkloadSize:
    flows: int
    bytes: float
    mean_hops: float
    """Links a flow crosses, on average over the workload's bytes."""
    packets: float
    """Packets in packet mode (the MTU and header of the scenario), before any stop time."""
    packet_hops: float
    """Packets times the links each crosses; capped by the stop time when one is set."""


@dataclass(frozen=True, slots=True)
class Estimate:
    workload: WorkloadSize
    flow: ModeEstimate
    packet: ModeEstimate

    def of(self, mode: Mode) -> ModeEstimate:
        return self.flow if mode == "flow" else self.packet


def estimate(validation: Mapping[str, Any]) -> Estimate:
    """Wall time and peak memory in both modes, from the engine's validation document of the
    scenario (sim-engine/schema/validation.schema.json). Raises `Unestimable` when the engine gave
    no estimate, with its reason."""
    inputs = validation.get("estimate")
    if not isinstance(inputs, Mapping):
        raise Unestimable(str(validation.get("unestimable") or "the engine gave no estimate"))
    nflows = int(inputs["flows"])
    packets = float(inputs["packets"])
    packet_hops = float(inputs["packet_hops"])
    size = WorkloadSize(nflows, float(inputs["bytes"]), float(inputs["mean_hops"]), packets, packet_hops)
    ports = int(inputs["directed_links"])
    memory = {
        mode: BASE_MEMORY_MB + (BYTES_PER_FLOW[mode] * nflows + BYTES_PER_LINK * ports) / 1e6
        for mode in ("flow", "packet")
    }
    events = EVENTS_PER_PACKET_HOP * packet_hops
    return Estimate(
        size,
        ModeEstimate("flow", STARTUP_S + nflows / FLOW_FLOWS_PER_S, memory["flow"], float(nflows)),
        ModeEstimate(
            "packet",
            STARTUP_S + events / PACKET_EVENTS_PER_S,
            memory["packet"] + PACKET_POOL_BYTES * float(inputs["pool_packets"]) / 1e6,
            events,
        ),
    )


# --- decomposed mode -------------------------------------------------------------------------------

LINK_PACKET_HOPS_PER_S = 2_000_000.0
"""Packet-hops (the plan's `packets_total`) per second of one worker's link simulations (`loopline-sim
decompose links`), measured with the engine as committed (29c939a..a4e3848) on this 2-core machine
shared with other work, 2026-11-26, web-search flows at 40 % load. One engine on one core: FatTree k=8,
20,000 flows (166 links simulated, 70.6 M packet-hops) in 22.5 s (`--jobs 1`, load 4.7), 3.1 M/s; k=4,
20,000 flows (21 links, 71.4 M) in 19.1 s (load 4.3), 3.7 M/s; k=16, 100,000 flows (600 links, 164.5 M)
in 23.0 s on both cores (load 3.1), 3.6 M/s a core. Through the stack, two workers sharing the 2 cores
(load 4.9): the k=8 job ran in 23.9 s, 1.5 M/s per worker. 2 M sits between, as packet mode's rate
does: a worker on cores of its own is faster, two sharing loaded cores about a third slower."""

PLAN_FLOWS_PER_S = 110_000.0
"""Flows per second of planning a decomposed run (`decompose plan`: route every flow, a fluid run for
each flow's bottleneck, build and cluster the links' workloads), same machine and minutes: FatTree k=16,
100,000 web-search flows in 0.77-0.89 s."""

COMBINE_FLOWS_PER_S = 110_000.0
"""Flows per second of combining the parts (`decompose combine`: every flow's per-hop delays summed, the
result with per-flow records written), same machine and minutes: the k=16 run's 100,000 flows in 0.89 s."""


@dataclass(frozen=True, slots=True)
class DecompositionPlan:
    """The engine's `decompose plan` document: what a decomposed run will simulate."""

    flows: int
    links_total: int
    """Directed links of the network."""
    links_with_flows: int
    links_simulated: int
    """Links simulated: one per cluster of similar links (the representative)."""
    links_clustered: int
    """Links with flows that take a representative's result instead of their own simulation."""
    links_idle: int
    """Links no flow crosses: nothing to simulate."""
    cluster_threshold: float
    packets_total: float
    """Packet-hops over every link simulation (estimated by the engine)."""
    largest_link_packets: float
    """Packet-hops of the costliest single link simulation (it cannot be split)."""

    @classmethod
    def of(cls, document: Mapping[str, Any]) -> DecompositionPlan:
        return cls(
            flows=int(document["flows"]), links_total=int(document["links_total"]),
            links_with_flows=int(document["links_with_flows"]), links_simulated=int(document["links_simulated"]),
            links_clustered=int(document["links_clustered"]), links_idle=int(document["links_idle"]),
            cluster_threshold=float(document["cluster_threshold"]), packets_total=float(document["packets_total"]),
            largest_link_packets=float(document["largest_link_packets"]),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class DecomposedEstimate:
    plan: DecompositionPlan
    workers: int
    """Live workers the link simulations are spread over (at least 1: the run waits for one)."""
    planning_s: float
    """Planning the run and combining its parts (neither is spread over the workers)."""
    links_s: float
    """Every link simulation, on one worker."""
    wall_s: float
    """Expected time per worker: planning, then its share of the link simulations (never less than the
    costliest single link's)."""


def decomposed(plan: DecompositionPlan, workers: int) -> DecomposedEstimate:
    """The expected time per worker of a decomposed run over `workers` live workers."""
    n = max(1, workers)
    planning = 2 * STARTUP_S + plan.flows / PLAN_FLOWS_PER_S + plan.flows / COMBINE_FLOWS_PER_S
    links = plan.packets_total / LINK_PACKET_HOPS_PER_S
    share = max(links / n, plan.largest_link_packets / LINK_PACKET_HOPS_PER_S)
    return DecomposedEstimate(plan, n, planning, links, planning + share)
