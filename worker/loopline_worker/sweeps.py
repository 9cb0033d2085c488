"""Sweep points: each a plan generated from the hall and simulated by the engine, finished exactly
once. The points of a sweep are one Celery chord: every worker takes points until none is left,
and the chord's callback closes the sweep.

A point's task never raises (a failure is the point's state), so the chord always completes; a
worker lost mid-point gives the message back (late ack) and another worker runs the point again
from the start (its scenario and seed give the same figures).
"""

from __future__ import annotations

from typing import Any

from celery import Task
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from loopline.db.models import JobStatus, Sweep, SweepPoint
from loopline.db.session import session_scope
from loopline.domain.errors import DomainError
from loopline.domain.sim_outcome import classify
from loopline.queue import SWEEP_DONE_TASK, SWEEP_POINT_TASK
from loopline.services import sweeps
from loopline.services.sim_preflight import engine_error
from loopline.settings import get_settings
from loopline_worker.app import celery_app
from loopline_worker.engine import Cancelled, EngineFailed, EngineLimits, run_engine
from loopline_worker.liveness import claimant, heartbeat


def _cancelled(sweep_id: int) -> bool:
    """Whether the sweep was cancelled; no while the database is unreachable (the point goes on)."""
    try:
        with session_scope() as session:
            return session.execute(select(Sweep.status).where(Sweep.id == sweep_id)).scalar() is JobStatus.CANCELLED
    except OperationalError:
        return False


@celery_app.task(name=SWEEP_POINT_TASK, bind=True)
def sweep_point(self: Task, point_id: int) -> str:
    worker = str(self.request.hostname or "worker")
    with session_scope() as session:
        started = sweeps.start_point(session, point_id, worker, claimant())
        if started is None:
            return "skipped"
        point, sweep = started
        sweep_id, params = sweep.id, dict(point.params)
        try:
            scenario, design = sweeps.point_scenario(session, sweep, params)
        except DomainError as e:
            failure: tuple[str, str] | None = (e.field, e.reason)
        else:
            failure = None
    if failure is not None:
        return _finish(point_id, JobStatus.FAILED, worker, error=f"{failure[0]}: {failure[1]}", error_field=failure[0])
    settings = get_settings()
    limits = EngineLimits(wall_s=settings.engine_time_limit_s, memory_mb=settings.engine_memory_limit_mb)
    try:
        with heartbeat(SweepPoint, point_id):
            result = run_engine(settings.engine_binary, scenario, limits, should_cancel=lambda: _cancelled(sweep_id))
    except Cancelled:
        return _finish(point_id, JobStatus.CANCELLED, worker)
    except EngineFailed as e:
        named = engine_error(str(e))
        return _finish(point_id, JobStatus.FAILED, worker, error=str(e), error_field=named[0] if named else None)
    figures: dict[str, Any] = {**design, **sweeps.performance(result, classify(result))}
    return _finish(point_id, JobStatus.SUCCEEDED, worker, figures=figures)


def _finish(point_id: int, status: JobStatus, worker: str, **values: Any) -> str:
    with session_scope() as session:
        finished = sweeps.finish_point(session, point_id, status, worker=worker, **values)
        sweep_id = session.execute(select(SweepPoint.sweep_id).where(SweepPoint.id == point_id)).scalar_one()
    with session_scope() as session:
        sweeps.close_if_done(session, sweep_id)  # the chord's callback does too; whichever comes first
    return status.value if finished else "already finished"


@celery_app.task(name=SWEEP_DONE_TASK)
def sweep_done(sweep_id: int) -> str:
    with session_scope() as session:
        status = sweeps.close_if_done(session, sweep_id)
    return status.value if status else "open"
