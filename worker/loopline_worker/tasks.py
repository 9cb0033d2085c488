"""The simulation task: job row -> engine subprocess (with limits) -> result row.

Takes an id, opens its own short transactions. Idempotent: a job that already ended is left
alone, and a rerun after a lost worker (late ack) runs the same stored scenario, whose seed
makes the engine give the same result. A decomposed scenario is split over the workers when
more than one is alive (decomposed.py); alone, the worker runs it in one engine process on every
core.
"""

from __future__ import annotations

import os
import time

from sqlalchemy import func, select, update

from loopline.db.models import JobStatus, SimulationJob
from loopline.db.session import session_scope
from loopline.domain.errors import DomainError
from loopline.domain.sim_results import FLOW_RECORDS_MAX
from loopline.queue import SIMULATE_TASK
from loopline.services import sim_preflight
from loopline.services.job_recovery import claim_or_skip
from loopline.services.sim_estimates import is_decomposed
from loopline.services.sim_preflight import engine_error
from loopline.settings import get_settings
from loopline_worker import decomposed
from loopline_worker.app import celery_app
from loopline_worker.engine import (
    Cancelled,
    EngineFailed,
    EngineLimits,
    LinkProgress,
    Progress,
    run_command,
    run_engine_command,
)
from loopline_worker.job_rows import fail, finish_with_result, job_status, now
from loopline_worker.liveness import claimant, heartbeat

PROGRESS_EVERY_S = 0.5


@celery_app.task(name=SIMULATE_TASK)
def simulate(job_id: int) -> str:
    with session_scope() as session:
        job = session.get(SimulationJob, job_id, with_for_update=True)
        if job is None:
            return "missing"
        if not claim_or_skip(job, session.execute(select(func.now())).scalar_one(), claimant()):
            return job.status.value  # ended, or a live worker is on it (a duplicate delivery)
        # a decomposed run already split over the workers is picked up where it is (its batches'
        # parts are kept), not started again
        resume = job.status is JobStatus.RUNNING and job.batches is not None
        job.status = JobStatus.RUNNING
        job.attempts += 1
        if not resume:
            job.started_at = now()
            job.progress = 0.0
            job.sim_time_s = job.flows_done = job.events = None
            job.links_done = job.links_total = None
            job.progress_text = None
        scenario = job.scenario

    last = [0.0]

    def on_progress(p: Progress | LinkProgress) -> None:
        if time.monotonic() - last[0] < PROGRESS_EVERY_S:
            return
        last[0] = time.monotonic()
        if isinstance(p, LinkProgress):
            values: dict[str, object] = {"links_done": p.links_done, "links_total": p.links_total}
        else:
            values = {"sim_time_s": p.sim_time_s, "flows_done": p.flows_done, "flows_total": p.flows_total}
        with session_scope() as s:
            s.execute(
                update(SimulationJob)
                .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
                .values(progress=round(p.fraction, 4), events=p.events, progress_text=p.line[:500], **values)
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
                fail(job_id, f"{refused.field}: {refused.reason}", refused.field)
                return JobStatus.FAILED.value
            engine = {**(scenario.get("engine") or {}), "flow_records": flows <= FLOW_RECORDS_MAX}
            run_scenario = {**scenario, "engine": engine}
            jobs = None
            if is_decomposed(scenario):
                split = decomposed.split(job_id, run_scenario, resume)
                if split is not None:
                    return split  # the batches run as a chord; their last (or its callback) ends the job
                jobs = len(os.sched_getaffinity(0))  # the only worker: one process on every core
            raw = run_engine_command(
                settings.engine_binary,
                lambda _, scenario_path, result_path: run_command(scenario_path, result_path, jobs),
                run_scenario,
                limits,
                on_progress=on_progress,
                should_cancel=lambda: job_status(job_id) is JobStatus.CANCELLED,
            )
    except Cancelled:
        with session_scope() as session:
            session.execute(update(SimulationJob).where(SimulationJob.id == job_id).values(finished_at=now()))
        return JobStatus.CANCELLED.value
    except EngineFailed as failure:
        # (the validation above names a refused field; a run's own refusal is named the same way)
        named = engine_error(str(failure))
        if named is not None:
            fail(job_id, f"{named[0]}: {named[1]}", named[0])
        else:
            fail(job_id, str(failure))
        return JobStatus.FAILED.value
    finish_with_result(job_id, raw)
    return JobStatus.SUCCEEDED.value
