"""`/api/v1/projects/{project_id}/price-book`: the project's prices, versioned, audited, as JSON or CSV.

Reading needs the viewer role (tokens: `bom:read`, like the BOMs the book prices); writing the
editor role (tokens: `price:write`) and `If-Match` with the version read (`"0"` for a project
that never edited its prices). A stale version is 409 (the project's rule for every versioned
resource), a missing `If-Match` 428.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response

from loopline.api.deps import DbSession, IfMatch, Paging, ProjectId, etag, require_project_role
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID, Page
from loopline.api.schemas.pricing import (
    PriceBookCsvIn,
    PriceBookPatch,
    PriceBookPut,
    PriceBookRead,
    PriceBookVersionRead,
    PricedPartRead,
    PricedPartsRead,
    PriceEntryRead,
)
from loopline.db.models import Role
from loopline.services import pricing
from loopline.services.access import ProjectAccess, Scope

PriceReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.BOM_READ))]
PriceWriter = Annotated[ProjectAccess, Depends(require_project_role(Role.EDITOR, Scope.PRICE_WRITE))]
Version = Annotated[int, Path(ge=1, le=MAX_ID, description="Price book version.", examples=[1])]

router = APIRouter(
    prefix="/api/v1/projects/{project_id}/price-book",
    tags=["pricing"],
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)},
)
_WRITE: dict[int | str, dict[str, Any]] = {428: ERROR_RESPONSES[428]}
_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {}}, "description": "One line per entry; the currency on every line."},
    304: {"description": "Not modified: the version sent in If-None-Match is the current one."},
}


def _read(book: pricing.BookState, response: Response) -> PriceBookRead:
    response.headers["ETag"] = etag(book.version)
    return PriceBookRead(
        project_id=book.project_id,
        currency=book.currency,
        version=book.version,
        entries=[PriceEntryRead.model_validate(e.to_json()) for e in book.entries],
        updated_at=book.updated_at,
        updated_by=book.updated_by,
    )


@router.get(
    "",
    response_model=PriceBookRead,
    summary="The project's price book",
    description="The project's own prices (they replace the default book's, part by part, in the book's "
    "currency). Version 0: never edited. The ETag is the version, for If-Match.",
)
def get_book(project_id: ProjectId, session: DbSession, access: PriceReader, response: Response) -> PriceBookRead:
    return _read(pricing.get_book(session, project_id), response)


@router.put(
    "",
    response_model=PriceBookRead,
    summary="Replace the price book",
    description="Every entry and the currency at once; a new version, audited.",
    responses=_WRITE,
)
def put_book(
    project_id: ProjectId,
    data: PriceBookPut,
    session: DbSession,
    access: PriceWriter,
    if_match: IfMatch,
    response: Response,
) -> PriceBookRead:
    entries = [e.to_domain() for e in data.entries]
    book = pricing.replace_book(session, access.principal, project_id, if_match, data.currency, entries)
    return _read(book, response)


@router.patch(
    "",
    response_model=PriceBookRead,
    summary="Edit some prices",
    description="Set (add or replace) some entries, remove others, change the currency; a new version, audited.",
    responses=_WRITE,
)
def patch_book(
    project_id: ProjectId,
    data: PriceBookPatch,
    session: DbSession,
    access: PriceWriter,
    if_match: IfMatch,
    response: Response,
) -> PriceBookRead:
    book = pricing.edit_book(
        session, access.principal, project_id, if_match,
        currency=data.currency, upsert=[e.to_domain() for e in data.upsert], remove=data.remove,
    )  # fmt: skip
    return _read(book, response)


@router.get(
    "/parts",
    response_model=PricedPartsRead,
    summary="Every part and its price here: the table to edit",
    description="The default book's parts, the project's own entries and the parts its plans use (switch "
    "models, NICs), each with the price a BOM uses, its source (`project`, `default`, or null: unpriced) "
    "and the default price.",
)
def parts(project_id: ProjectId, session: DbSession, access: PriceReader, response: Response) -> PricedPartsRead:
    book = pricing.get_book(session, project_id)
    response.headers["ETag"] = etag(book.version)
    items = [PricedPartRead.model_validate(p) for p in pricing.priced_parts(session, project_id)]
    return PricedPartsRead(currency=book.currency, version=book.version, items=items)


@router.get(
    "/versions",
    response_model=Page[PriceBookVersionRead],
    summary="Versions of the price book, newest first",
)
def versions(project_id: ProjectId, session: DbSession, access: PriceReader, paging: Paging) -> object:
    found = pricing.list_versions(session, project_id, page=paging.page, limit=paging.limit)
    items = [
        PriceBookVersionRead(
            version=v.version, currency=v.currency, entries=len(v.entries), created_at=v.created_at,
            created_by=v.created_by_label,
        )
        for v in found.items
    ]  # fmt: skip
    return Page[PriceBookVersionRead](items=items, total=found.total, page=found.page, limit=found.limit)


@router.get(
    "/versions/{version}",
    response_model=PriceBookRead,
    summary="One past version of the price book",
)
def version(
    project_id: ProjectId, version: Version, session: DbSession, access: PriceReader, response: Response
) -> PriceBookRead:
    return _read(pricing.get_version(session, project_id, version), response)


@router.get(
    ".csv",
    response_class=Response,
    responses=_CSV,
    summary="The price book as CSV",
    description="Columns `part_number,category,description,base_price,per_metre,currency`; imports back "
    "unchanged. ETag: the version.",
)
def export_csv(project_id: ProjectId, session: DbSession, access: PriceReader, request: Request) -> Response:
    book = pricing.get_book(session, project_id)
    tag = etag(book.version)
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag})
    disposition = f'attachment; filename="project-{project_id}-prices-v{book.version}.csv"'
    return Response(
        pricing.export_csv(book).encode(),
        media_type="text/csv",
        headers={"ETag": tag, "Content-Disposition": disposition},
    )


@router.post(
    "/import",
    response_model=PriceBookRead,
    summary="Import a CSV price book",
    description="Replaces every entry (and the currency) with the file's; a new version, audited. A bad line "
    "is refused naming the line and column (`csv.line 3.base_price`); nothing is changed then.",
    responses=_WRITE,
)
def import_csv(
    project_id: ProjectId,
    data: PriceBookCsvIn,
    session: DbSession,
    access: PriceWriter,
    if_match: IfMatch,
    response: Response,
) -> PriceBookRead:
    return _read(pricing.import_csv(session, access.principal, project_id, if_match, data.csv), response)
