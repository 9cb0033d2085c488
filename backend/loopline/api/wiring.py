"""Wiring plans: generate for a hall, list, read, rename, delete; cables, diff, render buffers, scenario."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Response, status
from sqlalchemy import select

from loopline.api.deps import (
    DbSession,
    IfMatch,
    Paging,
    PlanId,
    etag,
    register_project_resolver,
    require_project_role,
)
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID, Page
from loopline.api.schemas.wiring import (
    BomRead,
    CableRead,
    PlanDiffRead,
    RenderBuffers,
    WiringPlanCreate,
    WiringPlanRead,
    WiringPlanUpdate,
)
from loopline.db.models import Role
from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.errors import NotFound
from loopline.domain.media import Medium
from loopline.domain.wiring import LinkClass
from loopline.services import wiring
from loopline.services.access import ProjectAccess, Scope

register_project_resolver(
    "plan_id", lambda s, i: s.execute(select(WiringPlanRow.project_id).where(WiringPlanRow.id == i)).scalar()
)

WiringReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.WIRING_READ))]
WiringWriter = Annotated[ProjectAccess, Depends(require_project_role(Role.EDITOR, Scope.WIRING_WRITE))]

MAX_LENGTH_M = 100_000.0
"""No cable is 100 km long: a length filter past it is a mistake (and would overflow in mm)."""

router = APIRouter(
    prefix="/api/v1", tags=["wiring"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)


@router.post(
    "/halls/{hall_id}/wiring-plans",
    response_model=WiringPlanRead,
    status_code=status.HTTP_201_CREATED,
    summary="Generate and store a wiring plan for a hall",
    description="Generates every cable (ports, routed length, medium, label) for the hall's current layout. "
    "With `upgrade_from_plan_id` the diff against that plan is stored too (a Subways upgrade moves no cable).",
)
def create_plan(
    hall_id: int, data: WiringPlanCreate, session: DbSession, access: WiringWriter, response: Response
) -> object:
    plan = wiring.create_plan(session, access.principal, hall_id, data.to_options())
    response.headers["ETag"] = etag(plan.version)
    return plan


@router.get("/projects/{project_id}/wiring-plans", response_model=Page[WiringPlanRead], summary="Wiring plans")
def list_plans(project_id: int, session: DbSession, access: WiringReader, paging: Paging) -> object:
    return wiring.list_plans(session, project_id, page=paging.page, limit=paging.limit)


@router.get("/wiring-plans/{plan_id}", response_model=WiringPlanRead, summary="A wiring plan and its summary")
def get_plan(plan_id: PlanId, session: DbSession, access: WiringReader, response: Response) -> object:
    plan = wiring.get_plan(session, plan_id)
    response.headers["ETag"] = etag(plan.version)
    return plan


@router.patch(
    "/wiring-plans/{plan_id}",
    response_model=WiringPlanRead,
    summary="Rename a wiring plan",
    responses={428: ERROR_RESPONSES[428]},
)
def update_plan(
    plan_id: PlanId,
    data: WiringPlanUpdate,
    session: DbSession,
    access: WiringWriter,
    if_match: IfMatch,
    response: Response,
) -> object:
    plan = wiring.get_plan(session, plan_id)
    if data.name is not None:
        wiring.rename_plan(session, access.principal, plan, data.name, if_match)
    response.headers["ETag"] = etag(plan.version)
    return plan


@router.delete(
    "/wiring-plans/{plan_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a wiring plan",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_plan(plan_id: PlanId, session: DbSession, access: WiringWriter, if_match: IfMatch) -> None:
    wiring.delete_plan(session, access.principal, wiring.get_plan(session, plan_id), if_match)


@router.get(
    "/wiring-plans/{plan_id}/cables",
    response_model=Page[CableRead],
    summary="Cables of a plan, filtered and paged",
)
def list_cables(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    paging: Paging,
    row: Annotated[str | None, Query(description="Row name: cables with an end in this row.")] = None,
    rack: Annotated[
        str | None, Query(description="Rack: full name (`H1.R01.K03`) or rack name (`K03`); either end.")
    ] = None,
    medium: Annotated[Medium | None, Query(description="Only this medium.")] = None,
    link_class: Annotated[LinkClass | None, Query(description="Only this link class.")] = None,
    min_length_m: Annotated[
        float | None, Query(ge=0, le=MAX_LENGTH_M, allow_inf_nan=False, description="Raw routed length at least (m).")
    ] = None,
    max_length_m: Annotated[
        float | None, Query(ge=0, le=MAX_LENGTH_M, allow_inf_nan=False, description="Raw routed length at most (m).")
    ] = None,
    include_route: Annotated[bool, Query(description="Include each cable's route polyline.")] = False,
) -> object:
    filters = wiring.CableFilters(
        row=row,
        rack=rack,
        medium=medium,
        link_class=link_class,
        min_length_mm=None if min_length_m is None else round(min_length_m * 1000),
        max_length_mm=None if max_length_m is None else round(max_length_m * 1000),
    )
    plan = wiring.get_plan(session, plan_id)
    return wiring.list_cables(session, plan, filters, page=paging.page, limit=paging.limit, include_route=include_route)


@router.get(
    "/wiring-plans/{plan_id}/diff",
    response_model=PlanDiffRead,
    summary="Diff against another plan of the same hall",
)
def diff_plans(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    against: Annotated[int, Query(ge=1, le=MAX_ID, description="The older plan to diff against.")],
) -> object:
    new = wiring.get_plan(session, plan_id)
    old = session.get(WiringPlanRow, against)
    if old is None or old.project_id != new.project_id:
        raise NotFound("against", f"wiring plan {against} not found")
    return wiring.plan_diff(session, old, new)


@router.get(
    "/wiring-plans/{plan_id}/render",
    response_model=RenderBuffers,
    summary="Every cable's route as flat arrays, for the 3D view",
)
def render(plan_id: PlanId, session: DbSession, access: WiringReader) -> Response:
    # 100,000 cables make ~10 MB of numbers: orjson encodes them in a fraction of the stdlib's time.
    body = orjson.dumps(wiring.render_buffers(session, wiring.get_plan(session, plan_id)))
    return Response(body, media_type="application/json")


@router.get(
    "/wiring-plans/{plan_id}/scenario",
    summary="The plan as a simulation scenario (engine schema)",
    description="Network (nodes and links) from the plan, with default routing (ecmp), workload (shuffle of "
    "the first two logical racks) and engine (flow mode, seed 1) sections.",
)
def scenario(plan_id: PlanId, session: DbSession, access: WiringReader) -> dict[str, Any]:
    return wiring.scenario(session, wiring.get_plan(session, plan_id))


BomReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.BOM_READ))]


@router.get(
    "/wiring-plans/{plan_id}/bom",
    response_model=BomRead,
    summary="Bill of materials: cables per part and ordered length, transceivers, switches, priced",
    description="Prices come from the default price book; every priced line says its source.",
)
def bill_of_materials(plan_id: PlanId, session: DbSession, access: BomReader) -> object:
    return wiring.bill_of_materials(session, wiring.get_plan(session, plan_id))
