"""Packet-mode settings of a simulation request, and the run-time estimate before submitting."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from loopline.api.schemas.common import ReadSchema, Schema

PACKET_NOTE = "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)"
"""The engine's note on a packet-mode result (sim-engine/src/report.rs `PACKET_NOTE`)."""
DECOMPOSED_NOTE = (
    "link-level decomposition: every busy link simulated at packet level with the flows that cross it, "
    "per-hop delays summed along each flow's path (see sim-engine/README.md)"
)
"""The engine's note on a decomposed result (its `note`)."""


class DecomposedSettings(Schema):
    """Decomposed mode's own setting (`engine.decomposed`); the packet settings apply to every link simulation."""

    cluster_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Links whose load, flow-size mix and burstiness differ by at most this fraction share one "
        "simulation (their representative's); 0: every link with flows is simulated. Default: the engine's.",
        examples=[0.05],
    )


class PacketSettings(Schema):
    """What a planner sets for packet mode; everything else is the engine's default (`engine.packet`
    in sim-engine/schema/scenario.schema.json: 1,500-byte MTU all payload (no header, as htsim), initial window 10,
    RTO minimum 1 ms)."""

    transport: Literal["newreno", "dctcp", "mptcp"] = Field(
        "newreno",
        description="`newreno`: TCP NewReno; `dctcp`: DCTCP (reacts to ECN marks); `mptcp`: MPTCP with coupled "
        "congestion control over every path the routing gives a flow (GRIN, a Subways server's ToRs).",
    )
    buffer_bytes: int | None = Field(
        None,
        ge=1500,
        le=1_000_000_000,
        description="Drop-tail buffer of every switch output port, bytes (default 150,000: 100 packets). A "
        "server's NIC queue never drops (the host holds back what its NIC cannot send yet, as in htsim).",
        examples=[150000],
    )
    ecn_threshold_bytes: int | None = Field(
        None,
        ge=1,
        le=1_000_000_000,
        description="DCTCP only: mark packets that find this many bytes queued (below the buffer; default 20 "
        "packets, 30,000 bytes).",
        examples=[30000],
    )


class ModeEstimateRead(ReadSchema):
    mode: Literal["flow", "packet"] = Field(description="Engine mode.")
    wall_s: float = Field(description="Estimated wall time, seconds (a median run on the worker's machine).")
    memory_mb: float = Field(description="Estimated peak memory of the engine, MB.")
    events: float = Field(description="Engine events: packet mode, packet and ACK hops; flow mode, flows.")
    fits: bool = Field(description="Within the worker's time and memory limits.")
    reason: str | None = Field(None, description="Why it does not fit, when it does not.")


class WorkloadSizeRead(ReadSchema):
    flows: int = Field(description="Flows in the workload.")
    bytes: float = Field(description="Bytes the flows carry (a mean, for sizes drawn from a distribution).")
    mean_hops: float = Field(description="Links a byte crosses, on average (shortest server-to-server paths).")
    packets: float = Field(description="Packets in packet mode (payload = MTU - header).")


class DecomposedEstimateRead(ReadSchema):
    links_total: int = Field(description="Directed links of the network.")
    links_with_flows: int = Field(description="Links at least one flow crosses.")
    links_simulated: int = Field(description="Links to simulate (one per cluster of similar links).")
    links_clustered: int = Field(description="Links that take their cluster representative's result.")
    links_idle: int = Field(description="Links no flow crosses: nothing to simulate.")
    cluster_threshold: float = Field(description="The similarity threshold the clusters were made with.")
    packets_total: float = Field(description="Packet-hops over every link simulation (the engine's estimate).")
    largest_link_packets: float = Field(description="Packet-hops of the costliest link simulation.")
    workers: int = Field(description="Workers alive now, over which the link simulations are spread (at least 1).")
    planning_s: float = Field(description="Planning the run and combining its parts, seconds (not spread).")
    wall_s: float = Field(description="Expected time per worker, seconds: planning plus its share of the links.")
    fits: bool = Field(description="Within the worker's time limit.")
    reason: str | None = Field(None, description="Why it does not fit, when it does not.")
    basis: str = Field(description="How the figures are derived.")


class SimulationEstimate(ReadSchema):
    workload: WorkloadSizeRead = Field(description="What the estimate counted.")
    flow: ModeEstimateRead = Field(description="Flow mode (fluid estimate): fast.")
    packet: ModeEstimateRead = Field(description="Packet mode (exact tails): slower.")
    limit_wall_s: float = Field(description="The worker's time limit per run, seconds.")
    limit_memory_mb: int = Field(description="The worker's memory limit per run, MB.")
    basis: str = Field(description="How the figures are derived.")
    decomposed: DecomposedEstimateRead | None = Field(
        None,
        description="Decomposed mode (packet-level tails link by link, spread over the workers); null when the "
        "scenario cannot run decomposed (`decomposed_refused` says why).",
    )
    decomposed_refused: str | None = Field(
        None,
        description="Why the scenario cannot run in decomposed mode: the field and the reason.",
        examples=["scenario.engine.failures: decomposed mode ... does not model failures"],
    )
