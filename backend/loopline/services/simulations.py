"""Simulation jobs: check the scenario, store the job, hand it to a worker.

A scenario of up to `VALIDATE_INLINE_BYTES` of JSON is validated by the engine inside the request
(a bad one is a 422 naming the field, and no job). A larger one gets only an outline check there
(`check_outline`: the sections the engine needs, of the right kinds) and is refused only by the
engine in the worker, before it runs: a bad one makes the job `failed`, with `error_field` naming
the field. The engine's validation (`sim_preflight`: about 0.2 s for 5 MB) also gives the run-time
estimate, so a large scenario is still estimated when it is valid.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, SimulationJob
from loopline.db.models.wiring import WiringPlanRow
from loopline.db.repositories import Page, paginate, sim_flows
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.exports import csv_chunks, to_csv
from loopline.domain.scenario import PresetChoice, requested_scenario
from loopline.domain.sim_results import FLOW_COLUMNS, FLOW_RECORDS_MAX, TABLES, as_cells, flow_cells, table_rows
from loopline.queue import SIMULATE_TASK, enqueue_after_commit
from loopline.services import audit, idempotency, sim_estimates, sim_preflight, work_quota
from loopline.services.access import Principal
from loopline.services.mutations import Target, audited_update
from loopline.services.sim_preflight import encode
from loopline.services.wiring_storage import load_plan

VALIDATE_INLINE_BYTES = 2 * 1024 * 1024
"""Scenarios up to this size (as JSON) are validated by the engine in the request (well under a second)."""


_OUTLINE: tuple[tuple[str, type, bool], ...] = (
    ("schema_version", int, True),
    ("network", dict, True),
    ("workload", dict, True),
    ("routing", dict, False),
    ("engine", dict, False),
)
_KINDS = {int: "an integer", dict: "an object", list: "a list"}


def check_outline(scenario: dict[str, Any]) -> None:
    """What can be checked without reading the whole scenario: its sections exist and have the right
    kinds (the engine checks everything else, in the worker)."""
    for key, kind, required in _OUTLINE:
        if key not in scenario:
            if required:
                raise DomainError(f"scenario.{key}", "is required")
            continue
        if not isinstance(scenario[key], kind) or isinstance(scenario[key], bool):
            raise DomainError(f"scenario.{key}", f"must be {_KINDS[kind]}")
    for key in ("nodes", "links"):
        if not isinstance(scenario["network"].get(key), list):
            raise DomainError(f"scenario.network.{key}", "must be a list")


def _existing(
    session: Session, project_id: int, key: str | None, plan_id: int | None, name: str, scenario: dict[str, Any]
) -> SimulationJob | None:
    """The job an `Idempotency-Key` already created for this same request; a key reused for a
    different request is refused (returning the first job would silently drop the second)."""
    if key is None:
        return None
    idempotency.hold(session, f"simulation:project:{project_id}", key)
    job = session.execute(
        select(SimulationJob).where(SimulationJob.project_id == project_id, SimulationJob.idempotency_key == key)
    ).scalar_one_or_none()
    if job is not None and (job.plan_id, job.name, job.scenario) != (plan_id, name, scenario):
        raise DomainError(
            "Idempotency-Key",
            f"this key was used for a different request (simulation {job.id}): resend that request unchanged, "
            "or use a new key",
        )
    return job


def _submit(
    session: Session, principal: Principal, project_id: int, plan_id: int | None, name: str,
    scenario: dict[str, Any], key: str | None,
) -> SimulationJob:  # fmt: skip
    # one engine call validates the scenario and gives the estimate's inputs
    encoded = encode(scenario)
    validation: dict[str, Any] | None = None
    if len(encoded) <= VALIDATE_INLINE_BYTES:
        validation = sim_preflight.validate(scenario, encoded)
    else:
        check_outline(scenario)
        with contextlib.suppress(DomainError):  # refused: the worker's engine run names the field
            validation = sim_preflight.validate(scenario, encoded)
    planned = sim_estimates.decomposed_of(scenario, validation, encoded)
    field = "mode" if plan_id is not None else "scenario.engine.mode"
    sim_estimates.check_limits(scenario, validation, field, planned)
    work_s = sim_estimates.engine_seconds(scenario, validation, planned)
    work_quota.check(session, principal.user.id, project_id, work_s)
    job = SimulationJob(
        project_id=project_id, plan_id=plan_id, name=name, status=JobStatus.QUEUED, scenario=scenario,
        idempotency_key=key, created_by=principal.user.id, estimated_s=work_s,
    )  # fmt: skip
    session.add(job)
    session.flush()
    audit.record(
        session, principal, project_id=project_id, action="create", resource_type="simulation",
        resource_id=job.id, after={"name": name, "plan_id": plan_id},
    )  # fmt: skip
    enqueue_after_commit(session, SIMULATE_TASK, job.id)
    return job


def submit_for_plan(
    session: Session,
    principal: Principal,
    plan: WiringPlanRow,
    *,
    name: str,
    routing: dict[str, Any],
    workload: PresetChoice | dict[str, Any],
    engine: dict[str, Any],
    key: str | None,
) -> SimulationJob:
    """Idempotent: the same `Idempotency-Key` in a project returns the job it created first.

    `routing` and `engine` are the scenario's sections (engine: mode, seed, failures, stop_time_s
    when set); the workload is built from its preset over the plan, or given raw."""
    scenario = plan_scenario(session, plan, name=name, routing=routing, workload=workload, engine=engine)
    if (job := _existing(session, plan.project_id, key, plan.id, name, scenario)) is not None:
        return job
    return _submit(session, principal, plan.project_id, plan.id, name, scenario, key)


def plan_scenario(
    session: Session, plan: WiringPlanRow, *, name: str | None, routing: dict[str, Any],
    workload: PresetChoice | dict[str, Any], engine: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The scenario of a plan request: the plan's network, the workload built from its preset (or
    the raw section), routing and engine as given. Submitting and estimating build it alike."""
    return requested_scenario(load_plan(session, plan), workload, name=name, routing=routing, engine=engine)


def submit_scenario(
    session: Session, principal: Principal, project_id: int, name: str, scenario: dict[str, Any], key: str | None
) -> SimulationJob:
    if (job := _existing(session, project_id, key, None, name, scenario)) is not None:
        return job
    return _submit(session, principal, project_id, None, name, scenario, key)


def get_job(session: Session, job_id: int) -> SimulationJob:
    job = session.get(SimulationJob, job_id)
    if job is None:
        raise NotFound("job_id", f"simulation {job_id} not found")
    return job


def queue_positions(session: Session, jobs: list[SimulationJob]) -> dict[int, int]:
    """Each queued job's place in the queue: 1 + the jobs (of any project) queued before it."""
    queued = [j.id for j in jobs if j.status is JobStatus.QUEUED]
    if not queued:
        return {}
    ahead = (
        select(SimulationJob.id, func.row_number().over(order_by=SimulationJob.id).label("position"))
        .where(SimulationJob.status == JobStatus.QUEUED)
        .subquery()
    )
    rows = session.execute(select(ahead.c.id, ahead.c.position).where(ahead.c.id.in_(queued))).all()
    return {int(i): int(p) for i, p in rows}


def list_jobs(session: Session, project_id: int, *, page: int, limit: int) -> Page[SimulationJob]:
    stmt = select(SimulationJob).where(SimulationJob.project_id == project_id).order_by(SimulationJob.id.desc())
    return paginate(session, stmt, page=page, limit=limit)


def cancel(session: Session, principal: Principal, job: SimulationJob) -> SimulationJob:
    """A queued job never starts; a running one has its engine killed by the worker's watchdog."""
    if job.status.finished:
        raise Conflict("status", f"simulation {job.id} already {job.status.value}")

    def change(job: SimulationJob) -> None:
        job.status = JobStatus.CANCELLED

    audited_update(
        session, job, None, Target(principal, job.project_id, "simulation", job.id, f"simulation {job.id}"),
        snapshot=lambda job: {"status": job.status.value}, change=change, action="cancel",
    )  # fmt: skip
    return job


def result_of(job: SimulationJob) -> dict[str, Any]:
    """The engine's result; a job without one (not finished, failed, cancelled) is a conflict."""
    if job.result is None:
        raise Conflict("status", f"simulation {job.id} has no result ({job.status.value})")
    return job.result


def result_page(job: SimulationJob, table: str, *, page: int, limit: int) -> Page[dict[str, Any]]:
    rows = table_rows(result_of(job), table)
    return Page(items=rows[(page - 1) * limit : page * limit], total=len(rows), page=page, limit=limit)


def result_csv(job: SimulationJob, table: str) -> str:
    rows = table_rows(result_of(job), table)
    return to_csv(TABLES[table], as_cells(rows, table))


# --- per-flow records -----------------------------------------------------------------------------


def keep_flow_records(session: Session, job_id: int, chunks: Iterable[Sequence[dict[str, Any]]]) -> int:
    """Store a run's per-flow records (the worker, in the transaction that finishes the job)."""
    return sim_flows.replace_flows(session, job_id, chunks)


def _with_flows(job: SimulationJob) -> SimulationJob:
    result_of(job)
    if job.flow_records is None:
        raise Conflict(
            "flow_records",
            f"simulation {job.id} kept no per-flow records (runs of more than {FLOW_RECORDS_MAX:,} flows, "
            "and runs from before records were kept, have only the summary)",
        )
    return job


def flow_page(
    session: Session, job: SimulationJob, *, sort: str, descending: bool, status: str, page: int, limit: int
) -> Page[dict[str, Any]]:
    _with_flows(job)
    rows = sim_flows.flow_rows(
        session, job.id, sort=sort, descending=descending, status=status, offset=(page - 1) * limit, limit=limit
    )
    items = [dict(zip(FLOW_COLUMNS, row, strict=True)) for row in rows]
    total = job.flow_records if status == "all" else sim_flows.count_flows(session, job.id, status)
    return Page(items=items, total=int(total or 0), page=page, limit=limit)


def flows_csv(session: Session, job: SimulationJob) -> Iterator[bytes]:
    """Every record in index order as CSV, streamed."""
    _with_flows(job)
    rows = sim_flows.iter_flow_rows(session, job.id)
    return (chunk.encode() for chunk in csv_chunks(FLOW_COLUMNS, (flow_cells(r) for r in rows)))


def flow_values(session: Session, job: SimulationJob, column: str) -> tuple[bytes, int]:
    """The finished flows' completion times (or slowdowns), ascending, as little-endian float64, and
    the number of flows in the run (finished or not)."""
    _with_flows(job)
    values = sim_flows.sorted_values(session, job.id, column)
    if values is None:
        raise Conflict("flow_records", f"simulation {job.id} has no sorted flow values (stored before they were kept)")
    return values, int(job.flow_records or 0)
