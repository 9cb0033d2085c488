"""A decomposed run split over the workers: the engine plans it (`decompose plan`), its links are
dealt into batches, one Celery task per batch (`decompose links --batch I/N`) as a chord, and the
parts are combined (`decompose combine`) by the last batch to store its part or by the chord's
callback, whichever comes first (as sweeps close).

Each batch is claimed and beats like a job (services/job_recovery.py, liveness.py) and keeps its
job alive too, stores its part once (a conditional update on its row: a batch delivered again
after its part is stored only tries to combine), and stops when the job is no longer running
(cancelled, or failed in another batch). A batch task never raises, so the chord always
completes. A worker lost mid-batch gives the message back (late ack) and another worker runs the
batch again from its start; if the job's heart stops meanwhile, the reconciler sends the job's task
again, which sends the batches that have no part yet (`split(..., resume=True)`), unless some of
them still wait in the broker.

Alone on the broker, a worker runs the whole scenario in one engine process on every core instead
(tasks.py), which gives the same result.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from celery import Task, chord, group
from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.dialects.postgresql import insert

from loopline.db.models import JobStatus, SimulationJob, SimulationPart
from loopline.db.session import get_engine, session_scope
from loopline.domain.errors import DomainError
from loopline.queue import SIM_BATCH_TASK, SIM_COMBINE_TASK, live_workers, waiting_messages
from loopline.services import sim_preflight
from loopline.services.job_recovery import claim_or_skip
from loopline.services.sim_preflight import engine_error
from loopline.settings import get_settings
from loopline_worker.app import celery_app
from loopline_worker.engine import Cancelled, EngineFailed, EngineLimits, LinkProgress, Progress, run_engine_command
from loopline_worker.job_rows import clear_parts, fail, finish_with_result, job_status, now, stopped
from loopline_worker.liveness import claimant, heartbeat

BATCHES_PER_WORKER = 3
"""Batches per live worker: more than one each, so a worker that finishes early takes another and a
slow batch holds up less of the run; few enough that each batch's engine start-up (reading the
scenario, routing its flows) stays small against its links."""

PROGRESS_EVERY_S = 0.5
COMBINE_LOCK = 0x4C4F4F51
"""pg_try_advisory_lock(COMBINE_LOCK, job id): one combination of a run's parts at a time."""
PART_GZIP_LEVEL = 6


def batch_count(links_to_simulate: int, workers: int) -> int:
    """How many batches a run's links are dealt into: `BATCHES_PER_WORKER` per live worker, at
    least 1 and at most one per link."""
    return max(1, min(links_to_simulate, BATCHES_PER_WORKER * max(1, workers)))


def _limits() -> EngineLimits:
    settings = get_settings()
    return EngineLimits(wall_s=settings.engine_time_limit_s, memory_mb=settings.engine_memory_limit_mb)


def split(job_id: int, scenario: dict[str, Any], resume: bool) -> str | None:
    """Split the claimed job's run into a chord of batches (the job's task, under its heartbeat).
    None: run it in this worker's process instead (no other worker is alive, or nothing to
    simulate). `scenario` is the one every batch and the combination run (with its `flow_records`).
    `resume`: the run was split already; send its batches that have no stored part again (or
    combine, when every part is stored)."""
    flow_records = bool(scenario["engine"].get("flow_records"))
    if resume:
        with session_scope() as session:
            batches = session.execute(select(SimulationJob.batches).where(SimulationJob.id == job_id)).scalar_one()
            assert batches is not None  # resume: the job was split
            stored = set(
                session.execute(
                    select(SimulationPart.batch).where(
                        SimulationPart.job_id == job_id, SimulationPart.status == JobStatus.SUCCEEDED
                    )
                ).scalars()
            )
        missing = [b for b in range(1, batches + 1) if b not in stored]
        if not missing:
            return combine_if_complete(job_id, flow_records)
        if (SIM_BATCH_TASK, job_id) in waiting_messages(frozenset({SIM_BATCH_TASK})):
            # its batches wait for a worker (they beat for the job when they run); one taken by a worker
            # that died comes back by itself (late ack): sending them again would only queue duplicates
            return "batches waiting"
        _send_chord(job_id, missing, batches, flow_records)
        return "resumed"
    workers = live_workers()
    if workers <= 1:
        return None
    try:
        plan = sim_preflight.decompose_plan(scenario, timeout_s=_limits().wall_s)
    except DomainError as refused:
        fail(job_id, f"{refused.field}: {refused.reason}", refused.field)
        return JobStatus.FAILED.value
    links = int(plan["links_simulated"])
    if links == 0:
        return None
    batches = batch_count(links, workers)
    with session_scope() as session:
        done: CursorResult[Any] = session.execute(
            update(SimulationJob)
            .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
            .values(batches=batches, links_total=links, links_done=0, progress=0.0,
                    progress_text=f"split into {batches} batches of {links} links over {workers} workers")
        )  # fmt: skip
    if done.rowcount == 0:  # cancelled meanwhile
        stopped(job_id)
        return JobStatus.CANCELLED.value
    _send_chord(job_id, list(range(1, batches + 1)), batches, flow_records)
    return "split"


def _send_chord(job_id: int, batch_numbers: list[int], batches: int, flow_records: bool) -> None:
    header = group(celery_app.signature(SIM_BATCH_TASK, args=[job_id, b, batches, flow_records]) for b in batch_numbers)
    chord(header)(celery_app.signature(SIM_COMBINE_TASK, args=[job_id, flow_records], immutable=True))


def _claim(job_id: int, batch: int, batches: int, worker: str) -> tuple[int, dict[str, Any]] | str:
    """Claim the batch's row (made on first delivery): (its id, the job's scenario), or why not."""
    with session_scope() as session:
        status = session.execute(
            select(SimulationJob.status).where(SimulationJob.id == job_id).with_for_update(read=True)
        ).scalar()
        if status is None:
            return "missing"
        if status is not JobStatus.RUNNING:
            clear_parts(session, job_id)
            return f"job {status.value}"
        session.execute(
            insert(SimulationPart)
            .values(job_id=job_id, batch=batch, batches=batches, status=JobStatus.QUEUED)
            .on_conflict_do_nothing(index_elements=["job_id", "batch"])
        )
        part = session.execute(
            select(SimulationPart)
            .where(SimulationPart.job_id == job_id, SimulationPart.batch == batch)
            .with_for_update()
        ).scalar_one()
        if part.status is JobStatus.SUCCEEDED:
            return "stored"
        if not claim_or_skip(part, session.execute(select(func.now())).scalar_one(), claimant()):
            return "skipped"  # a live worker is on it (a duplicate delivery)
        part.status = JobStatus.RUNNING
        part.attempts += 1
        part.worker = worker
        part.started_at = now()
        part.links_done = 0
        scenario = session.execute(select(SimulationJob.scenario).where(SimulationJob.id == job_id)).scalar_one()
        return part.id, scenario


def _report(job_id: int, part_id: int, p: LinkProgress) -> None:
    """The batch's links done, as its engine counts them, and the job's."""
    with session_scope() as session:
        session.execute(
            update(SimulationPart)
            .where(SimulationPart.id == part_id, SimulationPart.status == JobStatus.RUNNING)
            .values(links_done=p.links_done, links_total=p.links_total)
        )
    _recount(job_id, p.line)


def _recount(job_id: int, line: str | None = None) -> None:
    """The job's links done: the sum over its batches (the job's row is locked first, so two
    batches counting at once each see the other's last figure), and its progress."""
    with session_scope() as session:
        total = session.execute(
            select(SimulationJob.links_total).where(SimulationJob.id == job_id).with_for_update()
        ).scalar()
        done = session.execute(
            select(func.coalesce(func.sum(SimulationPart.links_done), 0)).where(SimulationPart.job_id == job_id)
        ).scalar_one()
        values: dict[str, Any] = {"links_done": done, "progress": round(done / total, 4) if total else 0.0}
        if line is not None:
            values["progress_text"] = line[:500]
        session.execute(
            update(SimulationJob)
            .where(SimulationJob.id == job_id, SimulationJob.status == JobStatus.RUNNING)
            .values(**values)
        )


@celery_app.task(name=SIM_BATCH_TASK, bind=True)
def simulate_batch(self: Task, job_id: int, batch: int, batches: int, flow_records: bool) -> str:
    worker = str(self.request.hostname or "worker")
    claimed = _claim(job_id, batch, batches, worker)
    if claimed == "stored":
        return combine_if_complete(job_id, flow_records)  # its combination may have been lost with a worker
    if isinstance(claimed, str):
        return claimed
    part_id, scenario = claimed
    scenario = {**scenario, "engine": {**(scenario.get("engine") or {}), "flow_records": flow_records}}
    last = [0.0]
    latest: list[LinkProgress] = []

    def on_progress(p: Progress | LinkProgress) -> None:
        if not isinstance(p, LinkProgress):
            return
        latest[:] = [p]
        if time.monotonic() - last[0] >= PROGRESS_EVERY_S:
            last[0] = time.monotonic()
            _report(job_id, part_id, p)

    settings = get_settings()
    try:
        with heartbeat(SimulationJob, job_id), heartbeat(SimulationPart, part_id):
            data = run_engine_command(
                settings.engine_binary,
                lambda _, scenario_path, part_path: [
                    "decompose",
                    "links",
                    str(scenario_path),
                    "--batch",
                    f"{batch}/{batches}",
                    "-o",
                    str(part_path),
                    "--progress",
                ],  # fmt: skip
                scenario,
                _limits(),
                on_progress=on_progress,
                # (None: the database is away for a moment; the batch goes on)
                should_cancel=lambda: job_status(job_id) not in (JobStatus.RUNNING, None),
            )
    except Cancelled:
        _end_part(part_id, JobStatus.CANCELLED)
        stopped(job_id)
        return JobStatus.CANCELLED.value
    except EngineFailed as failure:
        _end_part(part_id, JobStatus.FAILED)
        named = engine_error(str(failure))
        message = f"{named[0]}: {named[1]}" if named else f"batch {batch}/{batches}: {failure}"
        fail(job_id, message, named[0] if named else None)
        return JobStatus.FAILED.value
    # (the batch's links as its engine last counted them: a batch done within a second prints no line)
    links = latest[0].links_total if latest else None
    if not _store(job_id, part_id, worker, gzip.compress(data, PART_GZIP_LEVEL), links):
        return "not stored"
    return combine_if_complete(job_id, flow_records)


def _end_part(part_id: int, status: JobStatus) -> None:
    """The batch stopped without a part: cancelled (its job ended elsewhere) or failed."""
    with session_scope() as session:
        session.execute(
            update(SimulationPart)
            .where(SimulationPart.id == part_id, SimulationPart.status == JobStatus.RUNNING)
            .values(status=status, finished_at=now())
        )


def _store(job_id: int, part_id: int, worker: str, data: bytes, links: int | None) -> bool:
    """Store the batch's part once: only while the job runs and the batch is still this run's
    (a conditional update, so a batch run twice is stored once), with all its `links` done, and
    add them to the job's count."""
    with session_scope() as session:
        status = session.execute(
            select(SimulationJob.status).where(SimulationJob.id == job_id).with_for_update(read=True)
        ).scalar()
        if status is not JobStatus.RUNNING:
            clear_parts(session, job_id)
            return False
        stored = session.execute(
            update(SimulationPart)
            .where(SimulationPart.id == part_id, SimulationPart.status == JobStatus.RUNNING)
            .values(data=data, status=JobStatus.SUCCEEDED, stores=SimulationPart.stores + 1, worker=worker,
                    links_done=func.coalesce(links, SimulationPart.links_total, SimulationPart.links_done),
                    links_total=func.coalesce(links, SimulationPart.links_total), finished_at=now())
        )  # fmt: skip
        if not stored.rowcount:
            return False
    _recount(job_id)
    return True


@celery_app.task(name=SIM_COMBINE_TASK)
def simulate_combine(job_id: int, flow_records: bool) -> str:
    """The chord's callback: combine the parts unless the last batch did already."""
    return combine_if_complete(job_id, flow_records)


@contextmanager
def _combining(job_id: int) -> Iterator[bool]:
    """Whether this process holds the run's combine lock (held on a connection of its own for the
    block; a worker that dies drops it with its connection)."""
    with get_engine().connect() as connection:
        held = bool(connection.execute(select(func.pg_try_advisory_lock(COMBINE_LOCK, job_id))).scalar())
        connection.commit()
        try:
            yield held
        finally:
            if held:
                connection.execute(select(func.pg_advisory_unlock(COMBINE_LOCK, job_id)))
                connection.commit()


def combine_if_complete(job_id: int, flow_records: bool) -> str:
    """Once every batch's part is stored: combine them into the result and end the job exactly as
    a single-process run ends (per-flow records, outcome), dropping the parts."""
    with _combining(job_id) as held:
        if not held:
            return "combining elsewhere"
        with session_scope() as session:
            job = session.execute(
                select(SimulationJob.status, SimulationJob.batches, SimulationJob.scenario).where(
                    SimulationJob.id == job_id
                )
            ).one_or_none()
            if job is None:
                return "missing"
            if job.status is not JobStatus.RUNNING:
                clear_parts(session, job_id)
                return f"job {job.status.value}"
            stored = session.execute(
                select(SimulationPart.batch)
                .where(SimulationPart.job_id == job_id, SimulationPart.status == JobStatus.SUCCEEDED,
                       SimulationPart.data.is_not(None))
                .order_by(SimulationPart.batch)
            ).scalars().all()  # fmt: skip
            if job.batches is None or list(stored) != list(range(1, job.batches + 1)):
                return "waiting for parts"
            scenario = job.scenario
            batches = job.batches
        scenario = {**scenario, "engine": {**(scenario.get("engine") or {}), "flow_records": flow_records}}

        def command(folder: Path, scenario_path: Path, result_path: Path) -> list[str]:
            parts = []
            for batch in range(1, batches + 1):  # one part in memory at a time
                with session_scope() as session:
                    data = session.execute(
                        select(SimulationPart.data).where(
                            SimulationPart.job_id == job_id, SimulationPart.batch == batch
                        )
                    ).scalar_one()
                if data is None:  # dropped since: the job ended (cancelled) while this began
                    raise Cancelled("the run's parts were dropped")
                path = folder / f"part-{batch}.json"
                path.write_bytes(gzip.decompress(data))
                parts.append(str(path))
            return ["decompose", "combine", str(scenario_path), *parts, "-o", str(result_path)]

        try:
            with heartbeat(SimulationJob, job_id):
                raw = run_engine_command(
                    get_settings().engine_binary, command, scenario, _limits(),
                    should_cancel=lambda: job_status(job_id) not in (JobStatus.RUNNING, None),
                )  # fmt: skip
        except Cancelled:
            stopped(job_id)
            return JobStatus.CANCELLED.value
        except EngineFailed as failure:
            named = engine_error(str(failure))
            fail(
                job_id,
                f"{named[0]}: {named[1]}" if named else f"combining the parts: {failure}",
                named[0] if named else None,
            )
            return JobStatus.FAILED.value
        return JobStatus.SUCCEEDED.value if finish_with_result(job_id, raw) else "already finished"
