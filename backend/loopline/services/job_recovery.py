"""The job table is the truth; a Celery message is only a wake-up call.

A message can be lost (a broker restarted, a send that failed after its commit) and a worker can
die mid-job; either way the row still says queued or running. `lost_jobs` names the unfinished
jobs nobody is working on, for the reconciler to send again; `claim_or_skip` is the tasks' side:
a delivery of a job whose worker is alive (a duplicate, or a message the broker handed out again
after its visibility timeout) does nothing, so every job runs to its end exactly once in effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from loopline.db.models import ImportJob, JobStatus, SimulationJob, SimulationPart, Sweep, SweepPoint
from loopline.queue import IMPORT_PROJECT_TASK, SIMULATE_TASK, SWEEP_POINT_TASK
from loopline.settings import get_settings

Job = SimulationJob | SweepPoint | ImportJob | SimulationPart
"""What a task claims and beats for. A decomposed run's batch (`SimulationPart`) is claimed like a job
but not reconciled itself: its job is (the job's task sends the batches that have no part again)."""
TASK_OF: dict[type[Job], str] = {
    SimulationJob: SIMULATE_TASK,
    SweepPoint: SWEEP_POINT_TASK,
    ImportJob: IMPORT_PROJECT_TASK,
}
RECOVERED_TASKS = frozenset(TASK_OF.values())


@dataclass(frozen=True)
class Lost:
    task: str
    job_id: int
    why: str
    """`queued` (its message is not in the broker) or `running` (its worker went silent)."""


def worker_alive(job: Job, now: datetime) -> bool:
    """A running job's worker beat within the stale limit (a job claimed this instant counts)."""
    last = job.heartbeat_at or job.started_at
    return last is not None and now - last < timedelta(seconds=get_settings().job_stale_after_s)


@dataclass(frozen=True)
class Claimant:
    """The worker process claiming a job: `name` (`host:pid`) is stored on the row; `gone` says
    whether a stored claimant's process has ended, which only its own host can tell (a pool
    process killed mid-job, whose task Celery hands straight back to the same worker)."""

    name: str
    gone: Callable[[str], bool]


def claim_or_skip(job: Job, now: datetime, claimant: Claimant) -> bool:
    """Whether a delivered task should run its job (locked by the caller): not when it ended, nor
    when another worker process is running it and alive. Claiming beats the heart at once."""
    if job.status.finished:
        return False
    taken_over = job.claimed_by is not None and claimant.gone(job.claimed_by)
    if job.status is JobStatus.RUNNING and worker_alive(job, now) and not taken_over:
        return False
    job.heartbeat_at = now
    job.claimed_by = claimant.name
    return True


def _created_at(model: type[Job]) -> InstrumentedAttribute[datetime]:
    """When the job was queued (a sweep point: with its sweep)."""
    return Sweep.created_at if model is SweepPoint else model.created_at  # type: ignore[union-attr]


def lost_jobs(session: Session, waiting: set[tuple[str, int]]) -> list[Lost]:
    """Unfinished jobs to send again: queued for longer than the grace time with no message of
    theirs waiting in the broker (`waiting`: (task, job id)), or running with a silent worker.
    Points of a cancelled sweep are not sent (their task cancels them when it runs, and the
    sweep's cancel already did)."""
    settings = get_settings()
    grace = func.now() - timedelta(seconds=settings.job_queued_grace_s)
    stale = func.now() - timedelta(seconds=settings.job_stale_after_s)
    lost: list[Lost] = []
    for model, task in TASK_OF.items():
        created = _created_at(model)
        query = select(model.id, model.status).where(
            or_(
                (model.status == JobStatus.QUEUED) & (created < grace),
                (model.status == JobStatus.RUNNING)
                & (func.coalesce(model.heartbeat_at, model.started_at, created) < stale),
            )
        )
        if model is SweepPoint:
            query = query.join(Sweep, Sweep.id == SweepPoint.sweep_id).where(Sweep.status != JobStatus.CANCELLED)
        for job_id, status in session.execute(query.order_by(model.id)):
            if status is JobStatus.QUEUED and (task, job_id) in waiting:
                continue
            lost.append(Lost(task, job_id, status.value))
    return lost
