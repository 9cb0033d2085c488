"""Project imports as jobs: the request checks the document's envelope and stores it as sent; a
worker (`loopline_worker.imports`) validates it and runs `exchange.import_project` in one
transaction, reporting the halls done as it goes.

Small documents (at most `INLINE_MAX_HALLS` halls and `INLINE_MAX_RACKS` racks: about a second of
work) are imported inside their request, unless the caller asks for a job. Larger ones, up to
`MAX_HALLS` / `MAX_RACKS` (beyond: 413), become a job, so no request outlives its client and a
client that gives up does not leave a half-known outcome behind.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import ImportJob, JobStatus
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import DomainError, NotFound
from loopline.queue import IMPORT_PROJECT_TASK, enqueue_after_commit
from loopline.services import audit, idempotency
from loopline.services.access import Principal

MAX_HALLS = 1_000
MAX_RACKS = 100_000
INLINE_MAX_HALLS = 20
INLINE_MAX_RACKS = 2_000


class TooLarge(DomainError):
    """A document beyond the import limits: 413."""

    status = 413


class DocumentInvalid(Exception):
    """The document does not match its schema; `errors` are `{"field", "msg"}` entries."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['field']}: {e['msg']}" for e in errors))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class Envelope:
    """What a cheap walk of the document tells: its project name and its size."""

    project_name: str
    halls: int
    racks: int

    @property
    def inline(self) -> bool:
        """Small enough to import inside the request."""
        return self.halls <= INLINE_MAX_HALLS and self.racks <= INLINE_MAX_RACKS


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise DomainError(field, "must be a list")
    return value


def _object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DomainError(field, "must be an object")
    return value


def envelope(document: object) -> Envelope:
    """Check the document's outline (format, version, project name, halls > rows > racks lists) and
    count halls and racks, without validating the contents; `TooLarge` beyond the limits."""
    doc = _object(document, "body")
    if doc.get("format", "loopline.project") != "loopline.project":
        raise DomainError("format", "must be 'loopline.project'")
    if doc.get("schema_version", 1) != 1:
        raise DomainError("schema_version", "this server reads schema version 1")
    name = _object(doc.get("project"), "project").get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 200:
        raise DomainError("project.name", "must be a text of 1 to 200 characters")
    halls = _list(doc.get("halls", []), "halls")
    if len(halls) > MAX_HALLS:
        raise TooLarge("halls", f"{len(halls):,} halls: an import holds at most {MAX_HALLS:,}")
    racks = 0
    for i, hall in enumerate(halls):
        for j, row in enumerate(_list(_object(hall, f"halls[{i}]").get("rows", []), f"halls[{i}].rows")):
            racks += len(_list(_object(row, f"halls[{i}].rows[{j}]").get("racks", []), f"halls[{i}].rows[{j}].racks"))
    if racks > MAX_RACKS:
        raise TooLarge("halls", f"{racks:,} racks: an import holds at most {MAX_RACKS:,}")
    return Envelope(name, len(halls), racks)


def submit(session: Session, principal: Principal, raw: bytes, env: Envelope, key: str | None) -> ImportJob:
    """Store the document as sent and queue it. Idempotent: the same `Idempotency-Key` with the same
    document returns the job it created first; with another document it is refused (422)."""
    digest = hashlib.sha256(raw).hexdigest()
    if key is not None:
        idempotency.hold(session, f"import:user:{principal.user.id}", key)
        job = session.execute(
            select(ImportJob).where(ImportJob.created_by == principal.user.id, ImportJob.idempotency_key == key)
        ).scalar_one_or_none()
        if job is not None:
            if job.document_sha256 != digest:
                raise DomainError(
                    "Idempotency-Key",
                    f"this key was used for a different document (import {job.id}): resend that document "
                    "unchanged, or use a new key",
                )
            return job
    job = ImportJob(
        created_by=principal.user.id, status=JobStatus.QUEUED, project_name=env.project_name,
        halls_total=env.halls, racks_total=env.racks, halls_done=0, document=raw, document_sha256=digest,
        idempotency_key=key, attempts=0,
    )  # fmt: skip
    session.add(job)
    session.flush()
    audit.record(
        session, principal, project_id=None, action="create", resource_type="import_job", resource_id=job.id,
        after={"project": env.project_name, "halls": env.halls, "racks": env.racks},
    )  # fmt: skip
    enqueue_after_commit(session, IMPORT_PROJECT_TASK, job.id)
    return job


def get_job(session: Session, principal: Principal, job_id: int) -> ImportJob:
    """Only its sender sees a job: anyone else's is 404."""
    job = session.get(ImportJob, job_id)
    if job is None or job.created_by != principal.user.id:
        raise NotFound("import_id", f"import {job_id} not found")
    return job


def list_jobs(session: Session, principal: Principal, *, page: int, limit: int) -> Page[ImportJob]:
    stmt = select(ImportJob).where(ImportJob.created_by == principal.user.id).order_by(ImportJob.id.desc())
    return paginate(session, stmt, page=page, limit=limit)


def errors_of(error: DomainError) -> list[dict[str, str]]:
    """A domain failure as the job's `errors` entries (a layout check may name several fields)."""
    issues = getattr(error, "issues", None)
    if issues:
        return [{"field": i.field, "msg": i.message} for i in issues]
    return [{"field": error.field, "msg": error.reason}]
