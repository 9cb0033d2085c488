"""Packet-mode settings of a simulation request, and the run-time estimate before submitting."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from loopline.api.schemas.common import ReadSchema, Schema

PACKET_NOTE = "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)"
"""The engine's note on a packet-mode result (sim-engine/src/report.rs `PACKET_NOTE`)."""


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


class SimulationEstimate(ReadSchema):
    workload: WorkloadSizeRead = Field(description="What the estimate counted.")
    flow: ModeEstimateRead = Field(description="Flow mode (fluid estimate): fast.")
    packet: ModeEstimateRead = Field(description="Packet mode (exact tails): slower.")
    limit_wall_s: float = Field(description="The worker's time limit per run, seconds.")
    limit_memory_mb: int = Field(description="The worker's memory limit per run, MB.")
    basis: str = Field(description="How the figures are derived.")
