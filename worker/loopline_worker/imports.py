"""The project import task: a stored document -> validated -> imported in one transaction.

Takes an id. The job is claimed (running) in a short transaction of its own, so the progress
writes never wait on the import; the import and the job's success are committed together, so a
worker that dies mid-import leaves nothing behind and the redelivered message (late ack) starts
over. A job that ended is left alone.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import orjson
from pydantic import ValidationError
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import undefer

from loopline.api.schemas.exchange import ProjectDocument
from loopline.api.schemas.project_imports import validation_errors
from loopline.db.models import ImportJob, JobStatus, User
from loopline.db.session import session_scope
from loopline.domain.errors import DomainError
from loopline.queue import IMPORT_PROJECT_TASK
from loopline.services import exchange
from loopline.services.access import Principal
from loopline.services.job_recovery import claim_or_skip
from loopline.services.project_imports import errors_of
from loopline_worker.app import celery_app
from loopline_worker.liveness import claimant, heartbeat

PROGRESS_EVERY_S = 0.25
"""`halls_done` is written at most this often (and with the outcome)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _claim(job_id: int) -> tuple[bytes, int] | None:
    with session_scope() as session:
        job = session.get(ImportJob, job_id, with_for_update=True, options=[undefer(ImportJob.document)])
        if job is None or job.document is None:
            return None
        if not claim_or_skip(job, session.execute(select(func.now())).scalar_one(), claimant()):
            return None  # ended, or a live worker is on it (a duplicate delivery)
        job.status = JobStatus.RUNNING
        job.started_at = _now()
        job.attempts += 1
        job.halls_done = 0
        return job.document, job.created_by


def _fail(job_id: int, errors: list[dict[str, str]]) -> str:
    with session_scope() as session:
        session.execute(
            update(ImportJob)
            .where(ImportJob.id == job_id)
            .values(
                status=JobStatus.FAILED, errors=errors, document=None, finished_at=_now(),
                version=ImportJob.version + 1,
            )
        )  # fmt: skip
    return JobStatus.FAILED.value


def parse(raw: bytes) -> exchange.Document:
    """The stored document, validated as the synchronous import validates it."""
    return ProjectDocument.model_validate(orjson.loads(raw)).to_import()


@celery_app.task(name=IMPORT_PROJECT_TASK)
def import_project(job_id: int) -> str:
    claimed = _claim(job_id)
    if claimed is None:
        return "nothing to do"
    raw, user_id = claimed
    last = [time.monotonic()]

    def hall_done(done: int) -> None:
        if time.monotonic() - last[0] < PROGRESS_EVERY_S:
            return
        last[0] = time.monotonic()
        with session_scope() as progress:
            progress.execute(
                update(ImportJob)
                .where(ImportJob.id == job_id, ImportJob.status == JobStatus.RUNNING)
                .values(halls_done=done)
            )

    try:
        doc = parse(raw)
    except (ValidationError, orjson.JSONDecodeError) as invalid:
        if isinstance(invalid, ValidationError):
            return _fail(job_id, [{"field": e["field"], "msg": e["msg"]} for e in validation_errors(invalid)])
        return _fail(job_id, [{"field": "body", "msg": f"JSON decode error: {invalid}"}])
    del raw
    try:
        with heartbeat(ImportJob, job_id), session_scope() as session:
            user = session.get(User, user_id)
            if user is None:
                return "nothing to do"  # the account is gone, and its job with it
            project, halls, _ = exchange.import_project(session, Principal(user), doc, on_hall_done=hall_done)
            session.execute(
                update(ImportJob)
                .where(ImportJob.id == job_id)
                .values(
                    status=JobStatus.SUCCEEDED, project_id=project.id, halls_done=halls, errors=None, document=None,
                    finished_at=_now(), version=ImportJob.version + 1,
                )
            )  # fmt: skip
    except DomainError as error:
        return _fail(job_id, errors_of(error))
    except IntegrityError as error:
        constraint = getattr(getattr(error.orig, "diag", None), "constraint_name", None) or "constraint"
        return _fail(job_id, [{"field": "document", "msg": f"conflicts with existing data ({constraint})"}])
    except (OperationalError, InterfaceError):
        # The database went away mid-import: nothing was committed, and the job stays running for
        # the reconciler to send again once its heartbeat is stale (never marked failed for it).
        raise
    except Exception as error:
        _fail(job_id, [{"field": "document", "msg": f"the import failed unexpectedly ({type(error).__name__})"}])
        raise
    return JobStatus.SUCCEEDED.value
