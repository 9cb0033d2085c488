"""Racks and their contents: `/api/v1/rows/{row_id}/racks` and `/api/v1/racks/{rack_id}`.

Logical racks and fabric switches are part of their rack: they are written with the rack
(`logical_racks` / `fabric_switches` replace the lists) under the rack's version.
"""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from loopline.api.deps import DbSession, IfMatch, LayoutReader, LayoutWriter, Paging, RackId, RowId, etag
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.layout import RackCreate, RackRead, RackUpdate
from loopline.services import racks

router = APIRouter(
    prefix="/api/v1", tags=["racks"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)


@router.get("/rows/{row_id}/racks", response_model=Page[RackRead], summary="Racks of a row, along the row")
def list_racks(row_id: RowId, session: DbSession, access: LayoutReader, paging: Paging) -> object:
    return Page.of(racks.list_racks(session, row_id, page=paging.page, limit=paging.limit), RackRead)


@router.post(
    "/rows/{row_id}/racks", response_model=RackRead, status_code=status.HTTP_201_CREATED, summary="Add a rack to a row"
)
def create_rack(
    row_id: RowId, data: RackCreate, session: DbSession, access: LayoutWriter, response: Response
) -> object:
    out = racks.create_rack(session, access, row_id, data.to_domain())
    response.headers["ETag"] = etag(out.version)
    return RackRead.model_validate(out)


@router.get("/racks/{rack_id}", response_model=RackRead, summary="Get a rack with its contents")
def get_rack(rack_id: RackId, session: DbSession, access: LayoutReader, response: Response) -> object:
    out = racks.rack_detail(session, rack_id)
    response.headers["ETag"] = etag(out.version)
    return RackRead.model_validate(out)


@router.patch(
    "/racks/{rack_id}",
    response_model=RackRead,
    summary="Change a rack or its contents",
    responses={428: ERROR_RESPONSES[428]},
)
def update_rack(
    rack_id: RackId, data: RackUpdate, session: DbSession, access: LayoutWriter, if_match: IfMatch, response: Response
) -> object:
    out = racks.update_rack(session, access, rack_id, data.changes(), if_match)
    response.headers["ETag"] = etag(out.version)
    return RackRead.model_validate(out)


@router.delete(
    "/racks/{rack_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a rack",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_rack(rack_id: RackId, session: DbSession, access: LayoutWriter, if_match: IfMatch) -> None:
    racks.delete_rack(session, access, rack_id, if_match)
