"""Rows: `/api/v1/halls/{hall_id}/rows` (single, bulk, facing pairs) and `/api/v1/rows/{row_id}`."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from loopline.api.deps import DbSession, HallId, IfMatch, LayoutReader, LayoutWriter, Paging, RowId, etag
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.layout import (
    BulkResult,
    RowCreate,
    RowDetail,
    RowDuplicate,
    RowPairCreate,
    RowRead,
    RowsBulkCreate,
    RowUpdate,
)
from loopline.services import rows

router = APIRouter(
    prefix="/api/v1", tags=["rows"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)


def _bulk(created: rows.CreatedRows) -> BulkResult:
    return BulkResult(
        rows=[RowRead.model_validate(r) for r in created.rows],
        racks_created=len(created.rack_ids),
        logical_racks_created=created.logical_racks,
    )


@router.get("/halls/{hall_id}/rows", response_model=Page[RowRead], summary="Rows of a hall (without racks)")
def list_rows(hall_id: HallId, session: DbSession, access: LayoutReader, paging: Paging) -> object:
    return Page.of(rows.list_rows(session, hall_id, page=paging.page, limit=paging.limit), RowRead)


@router.post(
    "/halls/{hall_id}/rows",
    response_model=RowDetail,
    status_code=status.HTTP_201_CREATED,
    summary="Create a row, optionally with N identical racks",
)
def create_row(
    hall_id: HallId, data: RowCreate, session: DbSession, access: LayoutWriter, response: Response
) -> object:
    created = rows.create_rows(session, access, hall_id, [data.to_domain()])
    response.headers["ETag"] = etag(1)
    return RowDetail.model_validate(rows.row_detail(session, created.rows[0].id))


@router.post(
    "/halls/{hall_id}/rows/bulk",
    response_model=BulkResult,
    status_code=status.HTTP_201_CREATED,
    summary="Create many rows with their racks in one transaction",
)
def create_rows_bulk(hall_id: HallId, data: RowsBulkCreate, session: DbSession, access: LayoutWriter) -> BulkResult:
    return _bulk(rows.create_rows(session, access, hall_id, [r.to_domain() for r in data.rows], action="bulk_create"))


@router.post(
    "/halls/{hall_id}/row-pairs",
    response_model=BulkResult,
    status_code=status.HTTP_201_CREATED,
    summary="Create two rows facing each other across a cold aisle",
)
def create_row_pair(hall_id: HallId, data: RowPairCreate, session: DbSession, access: LayoutWriter) -> BulkResult:
    return _bulk(rows.create_row_pair(session, access, hall_id, data.to_domain()))


@router.get("/rows/{row_id}", response_model=RowDetail, summary="Get a row with its racks")
def get_row(row_id: RowId, session: DbSession, access: LayoutReader, response: Response) -> object:
    out = rows.row_detail(session, row_id)
    response.headers["ETag"] = etag(out.version)
    return RowDetail.model_validate(out)


@router.patch(
    "/rows/{row_id}",
    response_model=RowRead,
    summary="Move, turn or rename a row",
    responses={428: ERROR_RESPONSES[428]},
)
def update_row(
    row_id: RowId, data: RowUpdate, session: DbSession, access: LayoutWriter, if_match: IfMatch, response: Response
) -> object:
    out = rows.update_row(session, access, row_id, data.changes(), if_match)
    response.headers["ETag"] = etag(out.version)
    return RowRead.model_validate(out)


@router.delete(
    "/rows/{row_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a row and its racks",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_row(row_id: RowId, session: DbSession, access: LayoutWriter, if_match: IfMatch) -> None:
    rows.delete_row(session, access, row_id, if_match)


@router.post(
    "/rows/{row_id}/duplicate",
    response_model=RowDetail,
    status_code=status.HTTP_201_CREATED,
    summary="Copy a row (racks and logical racks) to a new origin",
)
def duplicate_row(row_id: RowId, data: RowDuplicate, session: DbSession, access: LayoutWriter) -> object:
    created = rows.duplicate_row(
        session,
        access,
        row_id,
        name=data.name,
        origin=data.origin(),
        direction=data.direction,
        front=data.front,
        rack_name_pattern=data.rack_name_pattern,
    )
    return RowDetail.model_validate(rows.row_detail(session, created.rows[0].id))
