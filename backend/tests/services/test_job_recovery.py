"""Which unfinished jobs the reconciler sends again, and when a delivered task runs its job.

Times are set relative to the database's clock (the transaction's `now()`); the limits are the
defaults: a queued job is lost after 60 s without a waiting message, a running one after 60 s
without a heartbeat."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, ImportJob, JobStatus, Project, SimulationJob, Sweep, SweepPoint, User
from loopline.queue import IMPORT_PROJECT_TASK, SIMULATE_TASK, SWEEP_POINT_TASK
from loopline.services.job_recovery import Claimant, Lost, claim_or_skip, lost_jobs


def _now(session: Session) -> datetime:
    return session.execute(select(func.now())).scalar_one()


def test_lost_jobs_are_the_unfinished_ones_nobody_is_working_on(db_session: Session) -> None:
    s = db_session
    now = _now(s)
    ago = lambda seconds: now - timedelta(seconds=seconds)  # noqa: E731
    user = User(email="recovery@example.com", password_hash="x")
    project = Project(name="Recovery")
    s.add_all([user, project])
    s.flush()
    hall = Hall(project_id=project.id, name="H1", width_mm=10_000, depth_mm=10_000)
    s.add(hall)
    s.flush()

    def job(status: JobStatus, created: float, heartbeat: float | None = None) -> int:
        row = SimulationJob(
            project_id=project.id, name="j", status=status, scenario={}, created_by=user.id, created_at=ago(created),
            started_at=ago(created) if status is not JobStatus.QUEUED else None,
            heartbeat_at=ago(heartbeat) if heartbeat is not None else None,
        )  # fmt: skip
        s.add(row)
        s.flush()
        return row.id

    lost_message = job(JobStatus.QUEUED, created=600)
    message_waiting = job(JobStatus.QUEUED, created=600)
    just_queued = job(JobStatus.QUEUED, created=5)
    silent_worker = job(JobStatus.RUNNING, created=600, heartbeat=120)
    never_beat = job(JobStatus.RUNNING, created=600)  # claimed by a build without heartbeats, long ago
    live_worker = job(JobStatus.RUNNING, created=600, heartbeat=5)
    job(JobStatus.SUCCEEDED, created=600)
    job(JobStatus.FAILED, created=600, heartbeat=600)

    open_sweep = Sweep(project_id=project.id, hall_id=hall.id, name="s", status=JobStatus.RUNNING, base={}, grid={},
                       created_by=user.id, created_at=ago(600))  # fmt: skip
    cancelled_sweep = Sweep(project_id=project.id, hall_id=hall.id, name="c", status=JobStatus.CANCELLED, base={},
                            grid={}, created_by=user.id, created_at=ago(600))  # fmt: skip
    s.add_all([open_sweep, cancelled_sweep])
    s.flush()
    lost_point = SweepPoint(sweep_id=open_sweep.id, index=0, params={}, status=JobStatus.QUEUED)
    cancelled_point = SweepPoint(sweep_id=cancelled_sweep.id, index=0, params={}, status=JobStatus.QUEUED)
    imported = ImportJob(created_by=user.id, status=JobStatus.RUNNING, project_name="p", halls_total=1,
                         racks_total=1, document_sha256="0" * 64, created_at=ago(900), started_at=ago(900),
                         heartbeat_at=ago(61))  # fmt: skip
    s.add_all([lost_point, cancelled_point, imported])
    s.flush()

    lost = lost_jobs(s, waiting={(SIMULATE_TASK, message_waiting), (SWEEP_POINT_TASK, 999_999)})

    assert lost == [
        Lost(SIMULATE_TASK, lost_message, "queued"),
        Lost(SIMULATE_TASK, silent_worker, "running"),
        Lost(SIMULATE_TASK, never_beat, "running"),
        Lost(SWEEP_POINT_TASK, lost_point.id, "queued"),
        Lost(IMPORT_PROJECT_TASK, imported.id, "running"),
    ]
    assert just_queued not in {x.job_id for x in lost} and live_worker not in {x.job_id for x in lost}


def test_a_delivery_runs_its_job_unless_it_ended_or_a_live_worker_has_it() -> None:
    now = datetime(2026, 11, 26, 3, 0, 0)
    ended = {"vm:41"}  # a pool process of this host that was killed mid-job
    me = Claimant("vm:42", gone=lambda name: name in ended)

    def job(status: JobStatus, beat_s_ago: float | None, by: str | None = "vm:40") -> SimulationJob:
        beat = now - timedelta(seconds=beat_s_ago) if beat_s_ago is not None else None
        return SimulationJob(status=status, heartbeat_at=beat, started_at=beat, claimed_by=by)

    queued = job(JobStatus.QUEUED, None, by=None)
    assert claim_or_skip(queued, now, me) and (queued.heartbeat_at, queued.claimed_by) == (now, "vm:42")
    assert claim_or_skip(job(JobStatus.RUNNING, 60.5), now, me)  # its worker went silent: take it over
    assert not claim_or_skip(job(JobStatus.RUNNING, 59.5), now, me)  # a duplicate of a live run
    assert claim_or_skip(job(JobStatus.RUNNING, 1, by="vm:41"), now, me)  # its process ended: at once
    assert not claim_or_skip(job(JobStatus.SUCCEEDED, None), now, me)
    assert not claim_or_skip(job(JobStatus.CANCELLED, 600), now, me)
