"""A running job's heartbeat, and the reconciler that sends lost jobs again.

Each worker runs the reconciler once when it is ready and then every `reconcile_every_s`, in a
thread of its main process; a PostgreSQL advisory lock lets one worker at a time do it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery.signals import worker_process_init, worker_ready, worker_shutdown
from kombu.exceptions import KombuError
from redis import RedisError
from sqlalchemy import func, select, update
from sqlalchemy.exc import SQLAlchemyError

from loopline.db.session import get_engine, session_scope
from loopline.queue import waiting_messages
from loopline.services.job_recovery import RECOVERED_TASKS, Claimant, Job, Lost, lost_jobs
from loopline.settings import get_settings
from loopline_worker.app import celery_app

log = logging.getLogger(__name__)

RECONCILER_LOCK = 0x4C4F4F50  # "LOOP": pg_try_advisory_xact_lock key, one reconciler at a time


def _gone(name: str) -> bool:
    """Whether the process `host:pid` has ended; False for another host's (its heartbeat tells)."""
    host, _, pid = name.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def claimant() -> Claimant:
    """This process, as the claimant of the job it is about to run."""
    return Claimant(f"{socket.gethostname()}:{os.getpid()}", _gone)


@contextmanager
def heartbeat(model: type[Job], job_id: int) -> Iterator[None]:
    """Beat for the job every `job_heartbeat_s` while the block runs. A beat that cannot reach the
    database is skipped (the next one tries again): a database restart must not end the job."""
    stop = threading.Event()
    every = get_settings().job_heartbeat_s

    def beat() -> None:
        while not stop.wait(every):
            try:
                with session_scope() as session:
                    session.execute(update(model).where(model.id == job_id).values(heartbeat_at=func.now()))
            except SQLAlchemyError as error:
                log.warning("heartbeat of %s %d skipped: %s", model.__tablename__, job_id, error)

    thread = threading.Thread(target=beat, name=f"heartbeat-{job_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def reconcile() -> list[Lost]:
    """Send every lost job's task again; [] when another worker is reconciling right now."""
    with session_scope() as session:
        if not session.execute(select(func.pg_try_advisory_xact_lock(RECONCILER_LOCK))).scalar():
            return []
        lost = lost_jobs(session, waiting_messages(RECOVERED_TASKS))
        for job in lost:
            celery_app.send_task(job.task, args=[job.job_id])
            log.warning("reconciler: sent %s(%d) again (%s with nobody on it)", job.task, job.job_id, job.why)
    return lost


_stop = threading.Event()


def _reconcile_forever() -> None:
    every = get_settings().reconcile_every_s
    while True:
        try:
            reconcile()
        except (SQLAlchemyError, RedisError, KombuError) as error:  # the broker or the database is away
            log.warning("reconciler: skipped this round: %s", error)
        if _stop.wait(every):
            return


@worker_ready.connect
def _start_reconciler(**_: object) -> None:
    _stop.clear()
    threading.Thread(target=_reconcile_forever, name="reconciler", daemon=True).start()


@worker_shutdown.connect
def _stop_reconciler(**_: object) -> None:
    _stop.set()


@worker_process_init.connect
def _own_connections(**_: object) -> None:
    """A pool process is forked from the main process, whose reconciler has database connections
    open: the child must not use them (two processes on one socket garble both: a job's COPY failed
    with "no error details available" as the reconciler's round failed, and the job ran a third
    time). It drops them without closing (they stay the parent's) and opens its own."""
    get_engine().dispose(close=False)
