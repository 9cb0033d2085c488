"""Simulations: submit a plan (or a raw scenario) to the engine through a worker; follow and cancel."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Depends, Header, Path, Query, Response, status
from sqlalchemy import select
from starlette.responses import StreamingResponse

from loopline.api.deps import (
    DbSession,
    JobId,
    Paging,
    PlanId,
    register_project_resolver,
    require_project_role,
    require_scope,
)
from loopline.api.downloads import streamed_download
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.simulations import (
    FlowRecordRead,
    PlanSimulationCreate,
    ScenarioSimulationCreate,
    SimulationDetail,
    SimulationPresets,
    SimulationRead,
)
from loopline.api.sim_estimates import engine_section
from loopline.db.models import Role, SimulationJob
from loopline.domain.sim_results import FLOW_RECORDS_MAX, FlowSort, FlowStatus
from loopline.services import sim_presets, simulations, wiring_plans
from loopline.services.access import Principal, ProjectAccess, Scope
from loopline.services.sweeps import SWEEP_PRESETS

register_project_resolver(
    "job_id", lambda s, i: s.execute(select(SimulationJob.project_id).where(SimulationJob.id == i)).scalar()
)

SimReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.SIM_READ))]
SimWriter = Annotated[ProjectAccess, Depends(require_project_role(Role.EDITOR, Scope.SIM_WRITE))]
PresetReader = Annotated[Principal, Depends(require_scope(Scope.SIM_READ))]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        description="Submitting the same request twice with the same key returns the first job instead of a "
        "second one; the key reused for a different request is refused (422).",
    ),
]

router = APIRouter(
    prefix="/api/v1", tags=["simulations"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)


@router.get(
    "/simulation-presets",
    response_model=SimulationPresets,
    summary="Workload presets of a plan simulation",
    description="The table a plan simulation's `preset` and `params` follow (and a sweep's `workload`): each "
    "preset's parameters with their kind, unit, bounds, default and help, and the rack sets it may be given by name. "
    "A default the engine applies itself is read from the engine's scenario schema (`engine_field`). The editor "
    "draws its simulation form from this table.",
)
def simulation_presets(principal: PresetReader) -> object:
    return {"presets": sim_presets.table(), "sweeps": SWEEP_PRESETS}


@router.post(
    "/wiring-plans/{plan_id}/simulations",
    response_model=SimulationRead,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Simulate a wiring plan",
    description="Builds the scenario from the plan (network) and the request (routing, workload, seed), checks it "
    "with the engine, and queues it for a worker. Flow mode gives fluid estimates; packet mode a packet-level run.",
)
def simulate_plan(
    plan_id: PlanId, data: PlanSimulationCreate, session: DbSession, access: SimWriter, key: IdempotencyKey = None
) -> object:
    engine = engine_section(data)
    plan = wiring_plans.get_plan(session, plan_id)
    return simulations.submit_for_plan(
        session, access.principal, plan, name=data.name, routing=data.routing, workload=data.workload_request(),
        engine=engine, key=key,
    )  # fmt: skip


@router.post(
    "/projects/{project_id}/simulations",
    response_model=SimulationRead,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Simulate a complete scenario",
)
def simulate_scenario(
    project_id: int, data: ScenarioSimulationCreate, session: DbSession, access: SimWriter, key: IdempotencyKey = None
) -> object:
    return simulations.submit_scenario(session, access.principal, project_id, data.name, data.scenario, key)


@router.get("/projects/{project_id}/simulations", response_model=Page[SimulationRead], summary="Simulations")
def list_simulations(project_id: int, session: DbSession, access: SimReader, paging: Paging) -> object:
    page = simulations.list_jobs(session, project_id, page=paging.page, limit=paging.limit)
    positions = simulations.queue_positions(session, list(page.items))
    items = [_read(SimulationRead, job, positions) for job in page.items]
    return {"items": items, "total": page.total, "page": page.page, "limit": page.limit}


@router.get(
    "/simulations/{job_id}",
    response_model=SimulationDetail,
    summary="A simulation, with its progress and result",
    description="Poll it for progress: `progress`, `sim_time_s`, `flows_done`/`flows_total`, `events`, "
    "`progress_text` (the engine's line), `queue_position` while queued. A `succeeded` run has an `outcome`: "
    "`partial` when flows stalled or did not finish (`stalled_flows`, `unfinished_flows`, `incomplete_reason`).",
)
def get_simulation(job_id: JobId, session: DbSession, access: SimReader) -> object:
    job = simulations.get_job(session, job_id)
    return _read(SimulationDetail, job, simulations.queue_positions(session, [job]))


def _read(schema: type[SimulationRead], job: SimulationJob, positions: dict[int, int]) -> SimulationRead:
    return schema.model_validate(job).model_copy(update={"queue_position": positions.get(job.id)})


@router.post("/simulations/{job_id}/cancel", response_model=SimulationRead, summary="Cancel a simulation")
def cancel_simulation(job_id: JobId, session: DbSession, access: SimWriter) -> object:
    return simulations.cancel(session, access.principal, simulations.get_job(session, job_id))


ResultTable = Annotated[
    Literal["servers", "links", "size-buckets"],
    Path(
        description="`servers`: throughput per server; `links`: utilisation per directed link; `size-buckets`: "
        "completion times per flow-size bucket. (Per-flow records: `/results/flows`.)"
    ),
]
_CSV: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}}, "description": "The table, header first."}}
_JSON: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {}}, "description": "The engine's result, as a file."}
}


# Per-flow records before the tables: `{table}` would also match `flows`.
_FLOWS_NOTE = (
    f"Runs of up to {FLOW_RECORDS_MAX:,} flows keep one record a flow; others (and runs from before records "
    "were kept) have none: 409, as while the simulation has no result."
)


@router.get(
    "/simulations/{job_id}/results/flows.csv",
    response_class=StreamingResponse,
    responses=_CSV,
    summary="A simulation's per-flow records as CSV",
    description="Every flow in index order (`index, src, dst, bytes, start_s, fct_s, slowdown`; an unfinished "
    "flow's `fct_s` and `slowdown` empty), streamed. " + _FLOWS_NOTE,
)
def result_flows_csv(job_id: JobId, session: DbSession, access: SimReader) -> object:
    job = simulations.get_job(session, job_id)
    body = simulations.flows_csv(session, job)
    return streamed_download(session, body, "text/csv", f"simulation-{job.id}-flows.csv")


@router.get(
    "/simulations/{job_id}/results/flows/cdf",
    response_class=Response,
    responses={
        200: {
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            "description": "The finished flows' values, ascending, as little-endian float64 (8 bytes a flow; read "
            "it as a Float64Array). Header `X-Flows-Total`: the run's flows, finished or not, so the k-th value "
            "(from 1) is at cumulative fraction k / total and the curve ends below 1 when flows did not finish.",
        }
    },
    summary="The exact flow-completion CDF of a simulation",
    description=_FLOWS_NOTE,
)
def result_flows_cdf(
    job_id: JobId,
    session: DbSession,
    access: SimReader,
    of: Annotated[
        Literal["fct_s", "slowdown"], Query(description="Completion times (seconds) or slowdowns.")
    ] = "fct_s",
) -> Response:
    job = simulations.get_job(session, job_id)
    body, total = simulations.flow_values(session, job, of)
    return Response(body, media_type="application/octet-stream", headers={"X-Flows-Total": str(total)})


@router.get(
    "/simulations/{job_id}/results/flows",
    response_model=Page[FlowRecordRead],
    summary="A simulation's per-flow records, paged",
    description="Records `{index, src, dst, bytes, start_s, fct_s, slowdown}` (`fct_s`, `slowdown` null for a flow "
    "that did not finish), sorted by index, completion time or slowdown (ties by index; an unfinished flow "
    "counts as the longest). " + _FLOWS_NOTE,
)
def result_flows(
    job_id: JobId,
    session: DbSession,
    access: SimReader,
    paging: Paging,
    sort: Annotated[FlowSort, Query(description="Sort key.")] = "index",
    order: Annotated[Literal["asc", "desc"], Query(description="Ascending or descending.")] = "asc",
    flows: Annotated[FlowStatus, Query(description="All flows, only finished ones or only unfinished ones.")] = "all",
) -> object:
    job = simulations.get_job(session, job_id)
    return simulations.flow_page(
        session, job, sort=sort, descending=order == "desc", status=flows, page=paging.page, limit=paging.limit
    )


# The CSV route first: `{table}` alone would also match `servers.csv`.
@router.get(
    "/simulations/{job_id}/results/{table}.csv",
    response_class=Response,
    responses=_CSV,
    summary="A table of a simulation's result as CSV",
    description="Columns as the paged table's fields; cells a spreadsheet would run as formulas are quoted.",
)
def result_table_csv(job_id: JobId, table: ResultTable, session: DbSession, access: SimReader) -> Response:
    job = simulations.get_job(session, job_id)
    body = simulations.result_csv(job, table).encode()
    disposition = f'attachment; filename="simulation-{job.id}-{table}.csv"'
    return Response(body, media_type="text/csv", headers={"Content-Disposition": disposition})


@router.get(
    "/simulations/{job_id}/results/{table}",
    response_model=Page[dict[str, Any]],
    summary="A table of a simulation's result, paged",
    description="Rows in the engine's order. 409 while the simulation has no result.",
)
def result_table(job_id: JobId, table: ResultTable, session: DbSession, access: SimReader, paging: Paging) -> object:
    job = simulations.get_job(session, job_id)
    return simulations.result_page(job, table, page=paging.page, limit=paging.limit)


@router.get(
    "/simulations/{job_id}/result.json",
    response_class=Response,
    responses=_JSON,
    summary="A simulation's result as a JSON file",
    description="The engine's result (sim-engine/schema/result.schema.json) with the job's outcome around it.",
)
def result_json(job_id: JobId, session: DbSession, access: SimReader) -> Response:
    job = simulations.get_job(session, job_id)
    result = simulations.result_of(job)
    body = {
        "simulation": job.id, "name": job.name, "plan_id": job.plan_id, "outcome": job.outcome,
        "stalled_flows": job.stalled_flows, "unfinished_flows": job.unfinished_flows,
        "incomplete_reason": job.incomplete_reason, "result": result,
    }  # fmt: skip
    disposition = f'attachment; filename="simulation-{job.id}.json"'
    return Response(orjson.dumps(body), media_type="application/json", headers={"Content-Disposition": disposition})
