"""The simulation task: job row -> engine subprocess (with limits) -> result row.

Takes an id, opens its own short transactions. Idempotent: a job that already ended is left
alone, and a rerun after a lost worker (late ack) runs the same stored scenario, whose seed
makes the engine give the same result.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import OperationalError

from loopline.db.models import JobStatus, SimulationJob
from loopline.db.session import session_scope
from loopline.domain.errors import DomainError
from loopline.domain.sim_outcome import classify
from loopline.domain.sim_results import FLOW_RECORDS_MAX
from loopline.queue import SIMULATE_TASK
from loopline.services import sim_preflight
from loopline.services.job_recovery import claim_or_skip
from loopline.services.sim_preflight import engine_error
from loopline.services.simulations import keep_flow_records
from loopline.settings import get_settings
from loopline_worker.app import celery_app
from loopline_worker.engine import Cancelled, EngineFailed, EngineLimits, Progress, run_engine_raw
from loopline_worker.flow_records import Records, split_result
from loopline_worker.liveness import claimant, heartbeat

PROGRESS_EVERY_S = 0.5


def _now() -> datetime:
    return datetime.now(UTC)


def _status(job_id: int) -> JobStatus | None:
    """The job's status; None while the database is unreachable (the run goes on: a database
    restart must not end it)."""
    try:
        with session_scope() as session:
            return session.execute(select(SimulationJob.status).where(SimulationJob.id == job_id)).scalar()
    except OperationalError:
        return None


def _finish(job_id: int, records: Records | None = None, **values: object) -> None:
    """Write the outcome (and the per-flow records, in the same transaction) unless the job was
    cancelled meanwhile."""
    with session_scope() as session:
        if records is not None:
            values["flow_records"] = keep_flow_records(session, job_id, records)
        done: CursorResult[Any] = session.execute(
            update(SimulationJob)
            .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
            .values(finished_at=_now(), version=SimulationJob.version + 1, **values)
        )
        if done.rowcount == 0:
            session.rollback()


@celery_app.task(name=SIMULATE_TASK)
def simulate(job_id: int) -> str:
    with session_scope() as session:
        job = session.get(SimulationJob, job_id, with_for_update=True)
        if job is None:
            return "missing"
        if not claim_or_skip(job, session.execute(select(func.now())).scalar_one(), claimant()):
            return job.status.value  # ended, or a live worker is on it (a duplicate delivery)
        job.status = JobStatus.RUNNING
        job.started_at = _now()
        job.attempts += 1
        job.progress = 0.0
        job.sim_time_s = job.flows_done = job.events = None
        job.progress_text = None
        scenario = job.scenario

    last = [0.0]

    def on_progress(p: Progress) -> None:
        if time.monotonic() - last[0] < PROGRESS_EVERY_S:
            return
        last[0] = time.monotonic()
        with session_scope() as s:
            s.execute(
                update(SimulationJob)
                .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
                .values(
                    progress=round(p.fraction, 4),
                    sim_time_s=p.sim_time_s,
                    flows_done=p.flows_done,
                    flows_total=p.flows_total,
                    events=p.events,
                    progress_text=p.line[:500],
                )  # fmt: skip
            )

    settings = get_settings()
    limits = EngineLimits(wall_s=settings.engine_time_limit_s, memory_mb=settings.engine_memory_limit_mb)
    try:
        # (the heart beats from here: the engine's count below can take seconds on a big scenario,
        # and a silent claim would look lost to the reconciler, which would send the job again)
        with heartbeat(SimulationJob, job_id):
            # The engine counts the flows (and validates a scenario too large to validate in the
            # request: a refusal names the field). Per-flow records for runs of up to
            # FLOW_RECORDS_MAX flows (the stored scenario stays as sent).
            try:
                flows = int(sim_preflight.validate(scenario)["workload"]["flows"])
            except DomainError as refused:
                error = f"{refused.field}: {refused.reason}"
                _finish(job_id, status=JobStatus.FAILED, error=error, error_field=refused.field)
                return JobStatus.FAILED.value
            engine = {**(scenario.get("engine") or {}), "flow_records": flows <= FLOW_RECORDS_MAX}
            raw = run_engine_raw(
                settings.engine_binary,
                {**scenario, "engine": engine},
                limits,
                on_progress=on_progress,
                should_cancel=lambda: _status(job_id) is JobStatus.CANCELLED,
            )
    except Cancelled:
        with session_scope() as session:
            session.execute(update(SimulationJob).where(SimulationJob.id == job_id).values(finished_at=_now()))
        return JobStatus.CANCELLED.value
    except EngineFailed as failure:
        # (the validation above names a refused field; a run's own refusal is named the same way)
        named = engine_error(str(failure))
        if named is not None:
            _finish(job_id, status=JobStatus.FAILED, error=f"{named[0]}: {named[1]}", error_field=named[0])
        else:
            _finish(job_id, status=JobStatus.FAILED, error=str(failure))
        return JobStatus.FAILED.value
    result, records = split_result(raw)
    del raw
    _finish(
        job_id, records, status=JobStatus.SUCCEEDED, result=result, error=None, flow_records=None,
        **finished_values(result),
    )  # fmt: skip
    return JobStatus.SUCCEEDED.value


def finished_values(result: dict[str, Any]) -> dict[str, Any]:
    """The job's closing progress and outcome: a run whose flows did not all finish is `partial`,
    with how many stalled and why (never a plain success)."""
    flows = result.get("flows") or {}
    total, done = int(flows.get("total", 0)), int(flows.get("finished", 0))
    outcome = classify(result)
    return {
        "progress": round(done / total, 4) if total else 1.0,
        "sim_time_s": result.get("simulated_time_s"),
        "flows_done": done,
        "flows_total": total,
        "events": result.get("events_processed"),
        "progress_text": f"done: sim_time_s={result.get('simulated_time_s')} flows_done={done}/{total} "
        f"events={result.get('events_processed')}",
        "outcome": outcome.outcome,
        "stalled_flows": outcome.stalled,
        "unfinished_flows": outcome.unfinished,
        "incomplete_reason": outcome.reason,
    }
