"""Project import jobs: a large project document stored as sent, imported by a worker in one transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, deferred, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column, enum_column, version_column
from loopline.db.models.simulation import JobStatus


class ImportJob(Base):
    """Belongs to the user who sent it (there is no project until it succeeds)."""

    __tablename__ = "import_jobs"
    __table_args__ = (UniqueConstraint("created_by", "idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    status: Mapped[JobStatus] = enum_column(JobStatus, "job_status")
    project_name: Mapped[str] = mapped_column(String(200))
    halls_total: Mapped[int]
    racks_total: Mapped[int]
    halls_done: Mapped[int] = mapped_column(default=0)
    project_id: Mapped[int | None] = mapped_column(ForeignKey("projects.id", ondelete="SET NULL"))
    """The created project, once the import succeeded."""
    errors: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONB)
    """Why it failed: `[{"field", "msg"}]`, fields as paths in the document."""
    document: Mapped[bytes | None] = deferred(mapped_column(LargeBinary))
    """The document's JSON as sent; dropped once the job has ended."""
    document_sha256: Mapped[str] = mapped_column(String(64))
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = created_at_column()
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When its worker last said it is still running it (every few seconds while running)."""
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    """The worker process running it (`host:pid`), set when claimed."""
    version: Mapped[int] = version_column()

    @property
    def progress(self) -> float:
        """Halls imported so far, as a fraction of the document's halls (1.0 once it succeeded)."""
        if self.status is JobStatus.SUCCEEDED:
            return 1.0
        return round(self.halls_done / self.halls_total, 4) if self.halls_total else 0.0
