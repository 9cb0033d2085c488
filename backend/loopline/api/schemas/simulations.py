"""Simulation jobs: what to simulate, and the job with its progress and result."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, ModelWrapValidatorHandler, model_validator
from pydantic.config import JsonDict

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.api.schemas.sim_estimates import DECOMPOSED_NOTE, PACKET_NOTE, DecomposedSettings, PacketSettings
from loopline.db.models import JobStatus
from loopline.domain.errors import DomainError
from loopline.domain.scenario import WORKLOADS, PresetChoice

FLUID_NOTE = "fluid estimate: tails, incast and latency bounds need packet mode"


class EngineSettings(Schema):
    seed: int = Field(1, ge=0, description="Random seed: the same scenario and seed give the same result.")
    stop_time_s: float | None = Field(None, gt=0, description="Stop the simulation at this simulated time.")
    failures: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Links or switches down at given times (engine schema `engine.failures`).",
        examples=[[{"at_s": 0.01, "node": "H1.SPINE1", "recover_at_s": 0.05}]],
    )


def _preset_names(schema: JsonDict) -> None:
    """The document lists the preset names on the string branch of `preset` (the domain owns them)."""
    branches = schema.get("anyOf")
    if isinstance(branches, list) and branches and isinstance(branches[0], dict):
        branches[0]["enum"] = list(WORKLOADS)


RackNames = list[Annotated[str, Field(min_length=1, max_length=200)]]


class RackChoice(Schema):
    """Logical racks chosen by name (the scenario's `logical_rack`), per set; an empty or missing set
    falls back to the preset's counts. Which sets a preset takes: `GET /simulation-presets`."""

    job: RackNames | None = Field(None, max_length=10_000, description="The job's racks.")
    senders: RackNames | None = Field(None, max_length=10_000, description="Sender racks (`many-to-many`).")
    receivers: RackNames | None = Field(None, max_length=10_000, description="Receiver racks (`many-to-many`).")
    cache: RackNames | None = Field(None, max_length=10_000, description="Cache racks (`memcache`).")


class PlanSimulationCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Job name.", examples=["shuffle, ecmp"])
    routing: dict[str, Any] = Field(
        default_factory=lambda: {"type": "ecmp"},
        description=(
            "Engine routing section: `ecmp`, `adaptive`, `least_work`, `detour`, `vlb` or `grin` (with parameters)."
        ),
        examples=[{"type": "adaptive"}],
    )
    preset: str | None = Field(
        None,
        description="The workload by preset (`GET /simulation-presets`: names, parameters, bounds, defaults); the "
        "server builds it over the plan's logical racks. Default (neither `preset` nor `workload`): `shuffle` with "
        "its defaults, the first two logical racks, 15 MB per pair.",
        examples=["shuffle"],
        json_schema_extra=_preset_names,
    )
    params: dict[str, bool | int | float | str | None] = Field(
        default_factory=dict,
        description="The preset's parameters, in its units (bytes, logical racks, ...); one left out takes the "
        "preset's default, or the engine's where the engine owns it. A name the preset does not take is refused "
        "(422 naming `params.<name>`).",
        examples=[{"job_racks": 4, "bytes": 4000000}],
    )
    racks: RackChoice | None = Field(None, description="Racks chosen by name, per set the preset takes.")
    workload: dict[str, Any] | None = Field(
        None,
        description="A raw engine workload section instead of a preset (sim-engine/schema), for programs that build "
        "their own; not with `preset`.",
        examples=[{"type": "permutation", "bytes": 100000000}],
    )
    engine: EngineSettings = Field(default_factory=EngineSettings, description="Seed, stop time, failures.")
    mode: Literal["flow", "packet", "decomposed"] = Field(
        "flow",
        description="`flow`: fluid max-min rates, a fast estimate; `packet`: packets, TCP and queues, exact tails, "
        "slower (see `/simulations/estimate` first); `decomposed`: each busy link simulated at packet level with "
        "the flows that cross it, spread over the workers, per-hop delays summed along each flow's path (tails at "
        "scale; no failures, detours, memcache, MPTCP, spraying or shared buffers). A packet run whose estimate "
        "exceeds the worker's time or memory limit, or a decomposed run whose time per worker exceeds its time "
        "limit, is refused (422 naming `mode`).",
    )
    packet: PacketSettings | None = Field(
        None, description="Packet and decomposed mode: transport, buffer, ECN threshold (of every link simulation)."
    )
    decomposed: DecomposedSettings | None = Field(None, description="Decomposed mode: the clustering threshold.")

    def workload_request(self) -> PresetChoice | dict[str, Any]:
        """What to build the workload from: the preset (default `shuffle`) or the raw section."""
        if self.workload is not None:
            if self.preset is not None or self.params or self.racks is not None:
                raise DomainError("workload", "give a preset (with params, racks) or a raw workload, not both")
            return self.workload
        racks = self.racks.model_dump(exclude_none=True) if self.racks is not None else {}
        return PresetChoice(self.preset or "shuffle", self.params, racks)


class ScenarioSimulationCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Job name.")
    scenario: dict[str, Any] = Field(description="A complete engine scenario (sim-engine/schema/).")


class SimulationRead(ReadSchema):
    id: int = Field(description="Job id.")
    project_id: int = Field(description="Project id.")
    plan_id: int | None = Field(description="The wiring plan simulated, if any.")
    name: str = Field(description="Job name.")
    status: JobStatus = Field(description="queued, running, succeeded, failed or cancelled.")
    progress: float = Field(
        description="Fraction done (0..1): of the workload's flows, or, for a decomposed run while it runs, of "
        "its links simulated (`links_done` / `links_total`)."
    )
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
    links_done: int | None = Field(
        None, description="Decomposed mode: links simulated so far, over every worker (null in the other modes)."
    )
    links_total: int | None = Field(
        None,
        description="Decomposed mode: links to simulate (one per cluster of similar links; idle links cost nothing).",
    )
    batches: int | None = Field(
        None,
        description="Decomposed mode: the batches of links the run was split into over the workers (null: run in "
        "one worker's process, as when it is the only worker).",
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
    model: Literal["fluid", "packet", "decomposed"] = Field(
        "fluid",
        description="`fluid`: flow mode's max-min estimates; `packet`: a packet-level run; `decomposed`: link-level "
        "decomposition (each busy link at packet level; the result's `decomposition` states its measured error).",
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
        elif isinstance(engine, dict) and engine.get("mode") == "decomposed":
            read.model, read.note = "decomposed", DECOMPOSED_NOTE
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


# --- the preset table ------------------------------------------------------------------------------


class PresetChoiceRead(ReadSchema):
    value: str = Field(description="The value sent.")
    label: str = Field(description="What the planner reads.")


class PresetParamRead(ReadSchema):
    name: str = Field(description="The name in `params`.", examples=["job_racks"])
    label: str = Field(description="The form's label.", examples=["Logical racks in the job"])
    kind: Literal["integer", "number", "boolean", "choice", "node"] = Field(
        description="What the value is; `node`: a node id of the plan's network (its scenario's "
        "`network.nodes[].id`), e.g. a rail leaf or spine to fail."
    )
    help: str = Field(description="One line on what it does.")
    default: bool | int | float | str | None = Field(
        description="Used when the parameter is left out. Null: none known here (an engine-owned default the "
        "engine's schema states only in words); the engine applies its own."
    )
    engine_field: str | None = Field(
        description="Where an engine-owned default comes from (the engine's scenario schema, "
        "`workload.<type>.<field>`); null: the preset's own default.",
        examples=["workload.query.fan_in"],
    )
    unit: str | None = Field(description="The value's unit in `params`.", examples=["bytes"])
    minimum: float | None = Field(description="Lowest value (see `exclusive_minimum`).")
    exclusive_minimum: bool = Field(description="The value must be more than `minimum`, not equal to it.")
    maximum: float | None = Field(description="Highest value, included.")
    choices: list[PresetChoiceRead] = Field(description="The values a `choice` takes.")
    display_unit: str | None = Field(description="The unit the form shows (`MB` for bytes, say).")
    display_scale: float = Field(description="The form shows value / display_scale, in display_unit.")
    step: float = Field(description="The form's step, in display units.")


class RackSetRead(ReadSchema):
    name: Literal["job", "senders", "receivers", "cache"] = Field(description="The key in `racks`.")
    label: str = Field(description="What the planner reads.")
    replaces: list[str] = Field(description="The parameters a chosen set replaces.")
    otherwise: str = Field(description="What is used while none is chosen.")


class SimulationPresetRead(ReadSchema):
    name: str = Field(
        description="The value of `preset` (and of a sweep's `workload`).",
        examples=["shuffle"],
        json_schema_extra={"enum": list(WORKLOADS)},
    )
    label: str = Field(description="What the planner reads.", examples=["MapReduce shuffle"])
    explain: str = Field(description="One line: what it sends where.")
    params: list[PresetParamRead] = Field(description="Its parameters, in the form's order.")
    rack_sets: list[RackSetRead] = Field(description="Racks it may be given by name (`racks`).")


class SweepPresetRead(ReadSchema):
    name: str = Field(description="The sweep preset's name.", examples=["collective-sweep"])
    label: str = Field(description="What the planner reads.", examples=["Collective sweep (1 MB to 4 GB)"])
    explain: str = Field(description="One line: what it varies and what each point reports.")
    base: dict[str, Any] = Field(
        description="Sweep parameters it sets (`POST /halls/{id}/sweeps` `base`); the planner adds the design's "
        "(pattern, rail options) and the job's."
    )
    grid: dict[str, list[Any]] = Field(description="The axis it varies (`grid`).")


class SimulationPresets(ReadSchema):
    presets: list[SimulationPresetRead] = Field(description="Every preset, in the form's order.")
    sweeps: list[SweepPresetRead] = Field(description="Sweeps picked by name (issue 31: the collective sweep).")
