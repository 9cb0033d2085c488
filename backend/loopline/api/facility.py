"""The facility report and tray runs of a hall (issue 28): `/api/v1/halls/{hall_id}/facility` and
`/api/v1/halls/{hall_id}/tray-runs`. Tray runs are written under the hall's version (If-Match:
the hall's ETag; the answer carries its new one)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from loopline.api.deps import DbSession, HallId, IfMatch, LayoutReader, LayoutWriter, Paging, etag
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID, Page
from loopline.api.schemas.facility import TRAY_RUN_NAME, TrayRunPut, TrayRunRead
from loopline.api.schemas.facility_report import FacilityReportRead
from loopline.services import facility, facility_plant
from loopline.services.layout_snapshot import get_hall_or_404

router = APIRouter(
    prefix="/api/v1", tags=["facility"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)

RunName = Annotated[str, Path(pattern=TRAY_RUN_NAME, description="Tray run name.", examples=["T3"])]


@router.get(
    "/halls/{hall_id}/facility",
    response_model=FacilityReportRead,
    summary="Power, heat, weight and tray findings of a hall, with a plan's cables",
)
def get_facility(
    hall_id: HallId,
    session: DbSession,
    access: LayoutReader,
    plan_id: Annotated[
        int | None,
        Query(ge=1, le=MAX_ID, description="A wiring plan of this hall: its optics, cables and trays are checked too."),
    ] = None,
) -> Response:
    # Read once and encoded once (as the layout document): 2,000 racks and their tray segments.
    doc = FacilityReportRead.model_validate(facility_plant.facility_report(session, hall_id, plan_id))
    return Response(content=doc.model_dump_json(), media_type="application/json")


@router.get("/halls/{hall_id}/tray-runs", response_model=Page[TrayRunRead], summary="Tray runs with their own tray")
def list_tray_runs(hall_id: HallId, session: DbSession, access: LayoutReader, paging: Paging) -> object:
    get_hall_or_404(session, hall_id)
    runs = facility.list_tray_runs(session, hall_id)
    start = (paging.page - 1) * paging.limit
    items = [TrayRunRead.model_validate(r) for r in runs[start : start + paging.limit]]
    return Page[TrayRunRead](items=items, total=len(runs), page=paging.page, limit=paging.limit)


@router.put(
    "/halls/{hall_id}/tray-runs/{name}",
    response_model=TrayRunRead,
    summary="Give a tray run its own tray (under the hall's version)",
    responses={428: ERROR_RESPONSES[428]},
)
def put_tray_run(
    hall_id: HallId,
    name: RunName,
    data: TrayRunPut,
    session: DbSession,
    access: LayoutWriter,
    if_match: IfMatch,
    response: Response,
) -> object:
    run, hall = facility.put_tray_run(session, access, hall_id, name, data.to_domain(), if_match)
    response.headers["ETag"] = etag(hall.version)
    return TrayRunRead.model_validate(run)


@router.delete(
    "/halls/{hall_id}/tray-runs/{name}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="A tray run takes its level's tray again (under the hall's version)",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_tray_run(
    hall_id: HallId, name: RunName, session: DbSession, access: LayoutWriter, if_match: IfMatch, response: Response
) -> None:
    hall = facility.delete_tray_run(session, access, hall_id, name, if_match)
    response.headers["ETag"] = etag(hall.version)
