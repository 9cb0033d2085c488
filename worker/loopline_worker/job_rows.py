"""A simulation job's row as the worker's tasks write it: its status, and the end of a run (the
result, the per-flow records, the outcome), written once. Shared by the single-process run
(tasks.py) and the decomposed run split over the workers (decomposed.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, SimulationJob, SimulationPart
from loopline.db.session import session_scope
from loopline.domain.sim_outcome import classify
from loopline.services.simulations import keep_flow_records
from loopline_worker.flow_records import Records, split_result


def now() -> datetime:
    return datetime.now(UTC)


def job_status(job_id: int) -> JobStatus | None:
    """The job's status; None while the database is unreachable (the run goes on: a database
    restart must not end it)."""
    try:
        with session_scope() as session:
            return session.execute(select(SimulationJob.status).where(SimulationJob.id == job_id)).scalar()
    except OperationalError:
        return None


def clear_parts(session: Session, job_id: int) -> None:
    """Drop a decomposed run's stored parts (the bytes; each batch's row stays as its record)."""
    session.execute(update(SimulationPart).where(SimulationPart.job_id == job_id).values(data=None))


def finish(job_id: int, records: Records | None = None, **values: object) -> bool:
    """Write the outcome (and the per-flow records, in the same transaction) unless the job was
    cancelled or finished meanwhile; a decomposed run's parts are dropped with it. Whether it wrote."""
    with session_scope() as session:
        if records is not None:
            values["flow_records"] = keep_flow_records(session, job_id, records)
        done: CursorResult[Any] = session.execute(
            update(SimulationJob)
            .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
            .values(finished_at=now(), version=SimulationJob.version + 1, **values)
        )
        if done.rowcount == 0:
            session.rollback()
            return False
        clear_parts(session, job_id)
        return True


def fail(job_id: int, message: str, field: str | None = None) -> bool:
    return finish(job_id, status=JobStatus.FAILED, error=message, error_field=field)


def finish_with_result(job_id: int, raw: bytes) -> bool:
    """Store the engine's result (its per-flow records in their table) and close the job."""
    result, records = split_result(raw)
    del raw
    return finish(
        job_id, records, status=JobStatus.SUCCEEDED, result=result, error=None, flow_records=None,
        **finished_values(result),
    )  # fmt: skip


def stopped(job_id: int) -> None:
    """The engine was killed because the job ended elsewhere (cancelled, or failed in another
    batch): a cancelled job gets its end time, and the parts are dropped."""
    with session_scope() as session:
        session.execute(
            update(SimulationJob)
            .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.CANCELLED,
                   SimulationJob.finished_at.is_(None))
            .values(finished_at=now())
        )  # fmt: skip
        clear_parts(session, job_id)


def finished_values(result: dict[str, Any]) -> dict[str, Any]:
    """The job's closing progress and outcome: a run whose flows did not all finish is `partial`,
    with how many stalled and why (never a plain success). A decomposed run: all its links done."""
    flows = result.get("flows") or {}
    total, done = int(flows.get("total", 0)), int(flows.get("finished", 0))
    outcome = classify(result)
    values: dict[str, Any] = {
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
    decomposition = result.get("decomposition")
    if isinstance(decomposition, dict) and "links_simulated" in decomposition:
        values["links_done"] = values["links_total"] = int(decomposition["links_simulated"])
    return values
