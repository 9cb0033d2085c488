"""Halls: `/api/v1/projects/{project_id}/halls` and `/api/v1/halls/{hall_id}` (with layout and validation)."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from loopline.api.deps import DbSession, HallId, IfMatch, LayoutReader, LayoutWriter, Paging, ProjectId, etag
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.layout import HallCreate, HallLayout, HallRead, HallUpdate
from loopline.api.schemas.validation import HallValidationRead
from loopline.services import halls, layout_validation, layout_view
from loopline.services.layout_snapshot import get_hall_or_404

router = APIRouter(
    prefix="/api/v1", tags=["halls"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)


@router.get("/projects/{project_id}/halls", response_model=Page[HallRead], summary="Halls of a project")
def list_halls(project_id: ProjectId, session: DbSession, access: LayoutReader, paging: Paging) -> object:
    return halls.list_halls(session, project_id, page=paging.page, limit=paging.limit)


@router.post(
    "/projects/{project_id}/halls",
    response_model=HallRead,
    status_code=status.HTTP_201_CREATED,
    summary="Create a hall",
)
def create_hall(
    project_id: ProjectId, data: HallCreate, session: DbSession, access: LayoutWriter, response: Response
) -> object:
    cluster = data.gpu_cluster.to_domain() if data.gpu_cluster is not None else None
    hall = halls.create_hall(session, access, data.columns(), cluster)
    response.headers["ETag"] = etag(hall.version)
    return hall


@router.get("/halls/{hall_id}", response_model=HallRead, summary="Get a hall")
def get_hall(hall_id: HallId, session: DbSession, access: LayoutReader, response: Response) -> object:
    hall = get_hall_or_404(session, hall_id)
    response.headers["ETag"] = etag(hall.version)
    return hall


@router.patch(
    "/halls/{hall_id}", response_model=HallRead, summary="Change a hall", responses={428: ERROR_RESPONSES[428]}
)
def update_hall(
    hall_id: HallId, data: HallUpdate, session: DbSession, access: LayoutWriter, if_match: IfMatch, response: Response
) -> object:
    hall = halls.update_hall(session, access, hall_id, data.changes(), if_match)
    response.headers["ETag"] = etag(hall.version)
    return hall


@router.delete(
    "/halls/{hall_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a hall and its rows",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_hall(hall_id: HallId, session: DbSession, access: LayoutWriter, if_match: IfMatch) -> None:
    halls.delete_hall(session, access, hall_id, if_match)


@router.get(
    "/halls/{hall_id}/layout",
    response_model=HallLayout,
    summary="The whole hall: rows, racks, contents, aisles, warnings, oversubscription, catalog used",
)
def get_layout(hall_id: HallId, session: DbSession, access: LayoutReader) -> Response:
    # Built from raw rows (services/layout_view.py) and encoded once: the document is large.
    doc = HallLayout.model_validate(layout_view.hall_layout(session, hall_id))
    return Response(content=doc.model_dump_json(), media_type="application/json")


@router.get(
    "/halls/{hall_id}/validation",
    response_model=HallValidationRead,
    summary="Validation errors, warnings, aisles, oversubscription and fabric ports per layer",
)
def get_validation(hall_id: HallId, session: DbSession, access: LayoutReader) -> object:
    return HallValidationRead.model_validate(layout_validation.hall_report(session, hall_id))
