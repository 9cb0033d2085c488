"""Sweeps: submit a grid over a hall; follow its points as they arrive; cancel; download."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Path, Response, status
from sqlalchemy import select

from loopline.api.deps import DbSession, HallId, Paging, register_project_resolver, require_project_role
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID, Page
from loopline.api.schemas.sweeps import PortSpeedOptions, SweepCreate, SweepDetail, SweepPointRead, SweepRead
from loopline.db.models import Role, Sweep
from loopline.services import sweeps
from loopline.services.access import ProjectAccess, Scope

register_project_resolver("sweep_id", lambda s, i: s.execute(select(Sweep.project_id).where(Sweep.id == i)).scalar())

SweepId = Annotated[int, Path(ge=1, le=MAX_ID, description="Sweep id.", examples=[1])]
SimReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.SIM_READ))]
SimWriter = Annotated[ProjectAccess, Depends(require_project_role(Role.EDITOR, Scope.SIM_WRITE))]

router = APIRouter(
    prefix="/api/v1", tags=["sweeps"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)
_CSV: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}}, "description": "One line per point."}}
_JSON: dict[int | str, dict[str, Any]] = {200: {"content": {"application/json": {}}, "description": "The sweep."}}


def _read(session: DbSession, sweep: Sweep, detail: bool) -> dict[str, Any]:
    by_status = sweeps.counts(session, [sweep.id])[sweep.id]
    out = SweepRead.model_validate(
        {
            **{k: getattr(sweep, k) for k in SweepRead.model_fields if hasattr(sweep, k)},
            "points_total": sum(by_status.values()),
            "points_by_status": by_status,
        }  # fmt: skip
    ).model_dump()
    if detail:
        out["points"] = [SweepPointRead.model_validate(p).model_dump() for p in sweeps.point_views(session, sweep)]
    return out


@router.post(
    "/halls/{hall_id}/sweeps",
    response_model=SweepDetail,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Sweep design and workload parameters over a hall",
    description="Every point of the grid generates its plan from the hall (wiring, lengths, priced bill of "
    "materials) and simulates it. The points are one Celery chord: they fan out over every worker, and arrive "
    "one by one (GET the sweep). A worker lost mid-point loses no point: another runs it, and it is finished "
    "exactly once.",
)
def create_sweep(hall_id: HallId, data: SweepCreate, session: DbSession, access: SimWriter) -> object:
    sweep = sweeps.create(session, access.principal, hall_id, data.name, data.base, data.grid)
    return _read(session, sweep, detail=True)


@router.get(
    "/halls/{hall_id}/sweeps/port-speeds",
    response_model=PortSpeedOptions,
    summary="Port speeds a sweep over this hall may take",
    description="The media catalog's speeds every server port (NIC and ToR downlink) and every fabric port "
    "(ToR uplink, spine/aggregation/core) of the hall can run: the values of `server_gbps` and `fabric_gbps`.",
)
def port_speeds(hall_id: HallId, session: DbSession, access: SimReader) -> object:
    return sweeps.port_speed_options(session, hall_id)


@router.get("/projects/{project_id}/sweeps", response_model=Page[SweepRead], summary="Sweeps")
def list_sweeps(project_id: int, session: DbSession, access: SimReader, paging: Paging) -> object:
    page = sweeps.list_sweeps(session, project_id, page=paging.page, limit=paging.limit)
    items = [_read(session, s, detail=False) for s in page.items]
    return {"items": items, "total": page.total, "page": page.page, "limit": page.limit}


# Before GET /sweeps/{sweep_id}, which would take `5.json` for an id.
@router.get(
    "/sweeps/{sweep_id}.json",
    response_class=Response,
    responses=_JSON,
    summary="A sweep with its points as a JSON file",
)
def sweep_json(sweep_id: SweepId, session: DbSession, access: SimReader) -> Response:
    body = SweepDetail.model_validate(_read(session, sweeps.get(session, sweep_id), detail=True)).model_dump(
        mode="json"
    )
    disposition = f'attachment; filename="sweep-{sweep_id}.json"'
    return Response(orjson.dumps(body), media_type="application/json", headers={"Content-Disposition": disposition})


@router.get("/sweeps/{sweep_id}", response_model=SweepDetail, summary="A sweep, with its points so far")
def get_sweep(sweep_id: SweepId, session: DbSession, access: SimReader) -> object:
    return _read(session, sweeps.get(session, sweep_id), detail=True)


@router.post("/sweeps/{sweep_id}/cancel", response_model=SweepRead, summary="Cancel a sweep")
def cancel_sweep(sweep_id: SweepId, session: DbSession, access: SimWriter) -> object:
    sweep = sweeps.cancel(session, access.principal, sweeps.get(session, sweep_id))
    return _read(session, sweep, detail=False)


@router.get(
    "/sweeps/{sweep_id}/points.csv",
    response_class=Response,
    responses=_CSV,
    summary="A sweep's points as CSV",
    description="One line per point: its parameters, state and figures (cost, completion times, outcome).",
)
def points_csv(sweep_id: SweepId, session: DbSession, access: SimReader) -> Response:
    sweep = sweeps.get(session, sweep_id)
    disposition = f'attachment; filename="sweep-{sweep.id}-points.csv"'
    body = sweeps.points_csv(session, sweep).encode()
    return Response(body, media_type="text/csv", headers={"Content-Disposition": disposition})
