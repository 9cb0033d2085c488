"""A project import that runs as a job: its state, progress and outcome."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from loopline.api.schemas.common import ReadSchema
from loopline.db.models import JobStatus


class ImportErrorItem(BaseModel):
    field: str = Field(
        description="Path of the offending field in the document.", examples=["halls[3].rows[0].racks[2].rack_type"]
    )
    msg: str = Field(description="Why it was refused.", examples=["'48U 600x1200' is not in the document's catalog"])


class ImportJobRead(ReadSchema):
    id: int = Field(description="Import job id (poll `GET /api/v1/projects/imports/{id}`).", examples=[7])
    status: JobStatus = Field(
        description="`queued` (waiting for a worker), `running`, `succeeded` (see `project_id`) or `failed` (see "
        "`errors`; nothing of the project was written). An import is never `cancelled`.",
        examples=["running"],
    )
    project_name: str = Field(description="The document's project name.", examples=["Hall 7 migration"])
    halls_total: int = Field(description="Halls in the document.", examples=[1000])
    racks_total: int = Field(description="Racks in the document.", examples=[20000])
    halls_done: int = Field(description="Halls imported so far.", examples=[412])
    progress: float = Field(description="`halls_done / halls_total`, 0..1 (1 once it succeeded).", examples=[0.412])
    project_id: int | None = Field(description="The new project's id, once it succeeded.", examples=[None])
    errors: list[ImportErrorItem] | None = Field(
        description="Why it failed: each entry names the field of the document and the reason."
    )
    attempts: int = Field(description="How many times a worker started it (a lost worker's job is retried).")
    created_at: datetime = Field(description="Submitted at.")
    started_at: datetime | None = Field(description="A worker started it at.")
    finished_at: datetime | None = Field(description="It ended at.")
    version: int = Field(description="Version (bumped when it ends).")


def dotted(loc: Sequence[str | int]) -> str:
    """A pydantic location as a field path: `("halls", 3, "rows", 0, "x_m")` -> `halls[3].rows[0].x_m`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "body"


def validation_errors(err: ValidationError, prefix: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """A document's validation errors in the error body's shape (the offending input is not echoed:
    it may be most of a large document)."""
    return [
        {"type": e["type"], "loc": [*prefix, *e["loc"]], "field": dotted(e["loc"]), "msg": e["msg"]}
        for e in err.errors(include_url=False, include_input=False, include_context=False)
    ]
