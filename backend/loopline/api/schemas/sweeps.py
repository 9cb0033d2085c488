"""Sweeps: a grid of design and workload parameters over a hall, and its points as they finish."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field
from pydantic.config import JsonDict

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.db.models import JobStatus
from loopline.domain.scenario import WORKLOADS
from loopline.services.sweeps import PARAMETERS

# The document names the parameters a sweep knows, so a key outside them is schema-invalid too.
_KNOWN_KEYS: JsonDict = {"propertyNames": {"enum": list(PARAMETERS)}}

PARAMETERS_DOC = (
    "`pattern` (wiring pattern), `ports` (p), `loop` (l), `clusters` (c), `uplinks_per_tor` (ToR uplinks: "
    "oversubscription; null = the hall's), `server_gbps` and `fabric_gbps` (the speed of the server links, NIC "
    "to ToR, and of the fabric links, ToR uplinks to spine/aggregation/core, in Gb/s: a speed of the media "
    "catalog that every such device port of the hall runs (a port runs its own speed or slower); the cables, "
    "their media, the BOM and the simulated link rates follow; null = the hall's), "
    f"`workload` ({', '.join(WORKLOADS)}: the presets of `GET /simulation-presets`, with their own defaults for "
    "what a sweep does not set), `job_racks` (job size in logical racks), `bytes` (per pair or flow), `load` and "
    "`flows` (poisson), `seed`, `routing` (ecmp, adaptive, least_work, detour, vlb, grin); GPU clusters: "
    "`su_size`, `rail_leaf_model_id` and `oversubscription` (the rail patterns' options), `op`, `algorithm`, "
    "`gpus` and `placement` (the collective and training-step presets' parameters); a point's figures carry the "
    "engine's `collective` (algbw_gbps, busbw_gbps) and `training` objects"
)


class SweepCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Sweep name.", examples=["p and uplinks"])
    base: dict[str, Any] = Field(
        default_factory=dict,
        description=f"Parameters every point shares (defaults: single-homed, shuffle of 2 racks, 15 MB, ecmp, "
        f"seed 1). Parameters: {PARAMETERS_DOC}.",
        examples=[{"workload": "shuffle", "job_racks": 4}],
        json_schema_extra=_KNOWN_KEYS,
    )
    grid: dict[str, list[Any]] = Field(
        description="Parameter -> the values it takes; the points are every combination (the last parameter "
        "varies fastest), at most 200.",
        examples=[{"pattern": ["single-homed", "side-to-side"], "seed": [1, 2, 3]}],
        json_schema_extra=_KNOWN_KEYS,
    )


class PortSpeedOptions(ReadSchema):
    server_gbps: list[float] = Field(
        description="Server link speeds (Gb/s) this hall's servers and ToRs can run, ascending.", examples=[[10, 25]]
    )
    fabric_gbps: list[float] = Field(
        description="Fabric link speeds (Gb/s) this hall's ToR uplinks and fabric switches can run, ascending.",
        examples=[[10, 25, 40, 50, 100]],
    )


class SweepPointRead(ReadSchema):
    index: int = Field(description="Position in the grid, from 0.")
    params: dict[str, Any] = Field(description="The point's full parameters.")
    status: JobStatus = Field(description="queued, running, succeeded, failed or cancelled.")
    figures: dict[str, Any] | None = Field(
        description="When succeeded: design (`cost_total`, `currency`, `cost_complete`, `cost_unpriced` (parts "
        "without a price), `price_book_version`: the point's parts priced with the project's book as it is now; "
        "`cables`, "
        "`total_ordered_length_m`, `servers`, `tors`) and performance (`job_completion_s`, `fct_mean_s`, "
        "`fct_p99_s`, `slowdown_mean`, `slowdown_p99`, `flows_total`, `outcome` complete/partial, "
        "`stalled_flows`, `unfinished_flows`, `incomplete_summary`). Fluid estimates."
    )
    error: str | None = Field(description="Why the point failed (its plan could not be generated, or the engine).")
    error_field: str | None = Field(description="The parameter or scenario field the failure names.")
    attempts: int = Field(description="Times a worker started it (a lost worker's point runs again).")
    finishes: int = Field(description="Times it was finished: 1 once done, whatever the attempts.")
    worker: str | None = Field(description="The worker that finished it.")
    started_at: datetime | None = Field(description="Last started at.")
    finished_at: datetime | None = Field(description="Finished at.")


class SweepRead(ReadSchema):
    id: int = Field(description="Sweep id.")
    project_id: int = Field(description="Project id.")
    hall_id: int = Field(description="The hall whose plans the points generate.")
    name: str = Field(description="Sweep name.")
    status: JobStatus = Field(
        description="queued, running, succeeded (every point ended; some may have failed, each saying why) "
        "or cancelled."
    )
    base: dict[str, Any] = Field(description="Shared parameters, as submitted.")
    grid: dict[str, list[Any]] = Field(description="The grid, as submitted.")
    points_total: int = Field(description="Points in the grid.")
    points_by_status: dict[str, int] = Field(description="Points per status.")
    created_at: datetime = Field(description="Submitted at.")
    finished_at: datetime | None = Field(description="Ended at.")
    version: int = Field(description="Version.")


class SweepDetail(SweepRead):
    points: list[SweepPointRead] = Field(description="Every point, in grid order, with its state and figures.")
