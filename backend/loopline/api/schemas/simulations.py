"""Simulation jobs: what to simulate, and the job with its progress and result."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, ModelWrapValidatorHandler, model_validator

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.api.schemas.sim_estimates import PACKET_NOTE, PacketSettings
from loopline.db.models import JobStatus

FLUID_NOTE = "fluid estimate: tails, incast and latency bounds need packet mode"


class EngineSettings(Schema):
    seed: int = Field(1, ge=0, description="Random seed: the same scenario and seed give the same result.")
    stop_time_s: float | None = Field(None, gt=0, description="Stop the simulation at this simulated time.")
    failures: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Links or switches down at given times (engine schema `engine.failures`).",
        examples=[[{"at_s": 0.01, "node": "H1.SPINE1", "recover_at_s": 0.05}]],
    )


class PlanSimulationCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Job name.", examples=["shuffle, ecmp"])
    routing: dict[str, Any] = Field(
        default_factory=lambda: {"type": "ecmp"},
        description=(
            "Engine routing section: `ecmp`, `adaptive`, `least_work`, `detour`, `vlb` or `grin` (with parameters)."
        ),
        examples=[{"type": "adaptive"}],
    )
    workload: dict[str, Any] | None = Field(
        None,
        description="Engine workload section; default: a shuffle of the plan's first two logical racks, "
        "15 MB per pair.",
        examples=[{"type": "permutation", "bytes": 100000000}],
    )
    engine: EngineSettings = Field(default_factory=EngineSettings, description="Seed, stop time, failures.")
    mode: Literal["flow", "packet"] = Field(
        "flow",
        description="`flow`: fluid max-min rates, a fast estimate; `packet`: packets, TCP and queues, exact tails, "
        "slower (see `/simulations/estimate` first). A packet run whose estimate exceeds the worker's time or memory "
        "limit is refused (422 naming `mode`).",
    )
    packet: PacketSettings | None = Field(None, description="Packet mode: transport, buffer, ECN threshold.")


class ScenarioSimulationCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Job name.")
    scenario: dict[str, Any] = Field(description="A complete engine scenario (sim-engine/schema/).")


class SimulationRead(ReadSchema):
    id: int = Field(description="Job id.")
    project_id: int = Field(description="Project id.")
    plan_id: int | None = Field(description="The wiring plan simulated, if any.")
    name: str = Field(description="Job name.")
    status: JobStatus = Field(description="queued, running, succeeded, failed or cancelled.")
    progress: float = Field(description="Fraction of the workload's flows finished (0..1).")
    error: str | None = Field(description="Why it failed.")
    error_field: str | None = Field(
        None,
        description="The scenario field the failure names, when it names one: a large scenario is validated by "
        "the worker, so its errors arrive here rather than as a 422.",
        examples=["scenario.network.links[0].b"],
    )
    attempts: int = Field(description="How many times a worker started it (a lost worker's job is retried).")
    created_at: datetime = Field(description="Submitted at.")
    started_at: datetime | None = Field(description="A worker started it at.")
    finished_at: datetime | None = Field(description="It ended at.")
    version: int = Field(description="Version.")
    sim_time_s: float | None = Field(None, description="Simulated time the engine has reached, seconds.")
    flows_done: int | None = Field(None, description="Flows finished so far (at the end: flows that finished).")
    flows_total: int | None = Field(None, description="Flows in the workload (known once the engine reports).")
    events: int | None = Field(None, description="Events the engine has processed.")
    progress_text: str | None = Field(
        None,
        description="The engine's last progress line, as text.",
        examples=["progress: sim_time_s=0.012000 flows_done=120/870 events=2410 events_per_s=1800"],
    )
    queue_position: int | None = Field(
        None,
        description="While queued: 1 + the simulations queued before it (all projects), i.e. how many must "
        "start before this one does when every worker is busy. Null once a worker has it.",
    )
    outcome: Literal["complete", "partial"] | None = Field(
        None,
        description="For a `succeeded` run: `complete` when every flow finished; `partial` when some stalled "
        "(no path) or did not finish by the stop time. A partial run is never a plain success: "
        "`stalled_flows`, `unfinished_flows` and `incomplete_reason` say how many and why. Null until it ends.",
    )
    stalled_flows: int | None = Field(None, description="Flows left without any path at the end of the run.")
    unfinished_flows: int | None = Field(None, description="Flows not finished by the stop time (started or not).")
    incomplete_reason: dict[str, Any] | None = Field(
        None,
        description="Why a partial run's flows did not finish: `summary` (one sentence), `down_nodes`, "
        "`down_links` (failed and not recovered at the end), `servers_cut_off` (no live link up), "
        "`unreachable_pairs` (the workload's server pairs with no up-down path; null when too many groups to "
        "check) and `unreachable_groups` (up to 20: `servers_a`/`servers_b` with their counts, the ToRs `via_a`/"
        "`via_b` and the highest switches each side `reaches_a`/`reaches_b`, that share none).",
    )
    flow_records: int | None = Field(
        None,
        description="Per-flow records kept for the result (`/results/flows`, `/results/flows.csv`, "
        "`/results/flows/cdf`); null when none were kept (runs of more than 1,000,000 flows, or not finished).",
    )
    model: Literal["fluid", "packet"] = Field(
        "fluid", description="`fluid`: flow mode's max-min estimates; `packet`: a packet-level run."
    )
    note: str = Field(FLUID_NOTE, description="What the result is (flow mode: what the estimate does not cover).")

    @model_validator(mode="wrap")
    @classmethod
    def _packet_mode(cls, data: Any, handler: ModelWrapValidatorHandler[SimulationRead]) -> SimulationRead:
        """A job read from its row says which mode its scenario asked for (before any result)."""
        read = handler(data)
        engine = getattr(data, "scenario", None) and data.scenario.get("engine")
        if isinstance(engine, dict) and engine.get("mode") == "packet":
            read.model, read.note = "packet", PACKET_NOTE
        return read


class SimulationDetail(SimulationRead):
    result: dict[str, Any] | None = Field(description="The engine's result (sim-engine/schema/result).")


class FlowRecordRead(Schema):
    """One flow of a result (the engine's `flow_records` format)."""

    index: int = Field(description="The flow's index in the workload's order.")
    src: str = Field(description="Sending server id.")
    dst: str = Field(description="Receiving server id.")
    bytes: int = Field(description="Flow size, bytes.")
    start_s: float = Field(description="Start time, seconds (a flow that never started: its arrival time).")
    fct_s: float | None = Field(description="Completion time, seconds; null: the flow did not finish.")
    slowdown: float | None = Field(description="Completion time over the ideal (alone on its path); null: unfinished.")
