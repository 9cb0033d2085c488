"""Wiring plans: generate for a hall, list, read, rename, delete; cables, diff, render buffers, scenario."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from sqlalchemy import select

from loopline.api.deps import (
    DbSession,
    HallId,
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
    DiffCableRead,
    PlanDiffRead,
    PlantDiffRead,
    PlanUpgradeCreate,
    RenderBuffers,
    WiringOptions,
    WiringPlanCreate,
    WiringPlanRead,
    WiringPlanUpdate,
)
from loopline.api.schemas.wiring_plant import (
    ChainStepRead,
    LinkChainRead,
    PanelMapRead,
    PanelPortRead,
    PlantCountsRead,
    PlantFindingRead,
    PlantItemRead,
    PlantPanelRead,
    PlantRead,
    StructuredSettingsRead,
)
from loopline.db.models import Role
from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.bom import bom_csv
from loopline.domain.errors import NotFound
from loopline.domain.media import Medium
from loopline.domain.wiring import DiffStatus, LinkClass
from loopline.services import (
    plan_facility,
    wiring_bom,
    wiring_cables,
    wiring_compare,
    wiring_diff_cables,
    wiring_feasibility,
    wiring_plans,
    wiring_plant,
    wiring_scenario,
)
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
    plan = wiring_plans.create_plan(session, access.principal, hall_id, data.to_options())
    response.headers["ETag"] = etag(plan.version)
    return wiring_bom.plan_view(session, plan)


@router.post(
    "/wiring-plans/{plan_id}/upgrades",
    response_model=WiringPlanRead,
    status_code=status.HTTP_201_CREATED,
    summary="Plan an upgrade of a plan",
    description="Generates a plan for the same hall from this plan's parameters with the given changes: "
    "`ports` (p -> p+1), `parallel` (a parallel set of ports at a new speed on new ToRs, Type 2), `loop` or "
    "`pattern`. It is stored with `base_plan_id` = this plan and its diff counts; "
    "`GET /wiring-plans/{new}/diff?against={this}` lists the cables and the upgrade's bill of materials.",
)
def create_upgrade(
    plan_id: PlanId, data: PlanUpgradeCreate, session: DbSession, access: WiringWriter, response: Response
) -> object:
    base = wiring_plans.get_plan(session, plan_id)
    plan = wiring_plans.create_upgrade(session, access.principal, base, data.name, data.changes())
    response.headers["ETag"] = etag(plan.version)
    return wiring_bom.plan_view(session, plan)


@router.get(
    "/wiring-plans/{plan_id}/upgrade-options",
    response_model=WiringOptions,
    summary="The upgrades of a plan the hall can build",
    description="p + 1, a parallel port, other loop lengths (Subways), other patterns: each generated (not "
    "stored) from this plan's parameters on the hall as it is now. `feasible`, or why not; an option the "
    "servers' NIC ports alone prevent says how many ports it needs and which catalog server models have them "
    "(`needs_hardware`). `preselected`: the first buildable option.",
)
def upgrade_options(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    return WiringOptions.of(wiring_feasibility.upgrade_options(session, wiring_plans.get_plan(session, plan_id)))


@router.get(
    "/halls/{hall_id}/wiring-options",
    response_model=WiringOptions,
    summary="The patterns a new plan of the hall can use",
    description="Every pattern with its default parameters (the racks' own p, GRIN degree 1), generated (not "
    "stored) on the hall as it is: `feasible`, or why not, and the NIC ports and server models an option "
    "needs when only the servers' ports prevent it.",
)
def wiring_options(hall_id: HallId, session: DbSession, access: WiringReader) -> object:
    return WiringOptions.of(wiring_feasibility.pattern_options(session, hall_id))


@router.get(
    "/projects/{project_id}/wiring-plans",
    response_model=Page[WiringPlanRead],
    summary="Wiring plans, newest first, each with its summary priced now",
)
def list_plans(
    project_id: int,
    session: DbSession,
    access: WiringReader,
    paging: Paging,
    hall_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Only the plans of this hall.")] = None,
) -> object:
    return wiring_bom.list_plan_views(session, project_id, page=paging.page, limit=paging.limit, hall_id=hall_id)


@router.get(
    "/wiring-plans/{plan_id}",
    response_model=WiringPlanRead,
    summary="A wiring plan and its summary",
    description="The summary's `cost` prices the plan's parts with the project's price book as it is now "
    "(`cost.price_book_version`); unpriced parts are listed and warned about, never counted as 0.",
)
def get_plan(plan_id: PlanId, session: DbSession, access: WiringReader, response: Response) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    response.headers["ETag"] = etag(plan.version)
    return wiring_bom.plan_view(session, plan)


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
    plan = wiring_plans.get_plan(session, plan_id)
    if data.name is not None:
        wiring_plans.rename_plan(session, access.principal, plan, data.name, if_match)
    response.headers["ETag"] = etag(plan.version)
    return wiring_bom.plan_view(session, plan)


@router.delete(
    "/wiring-plans/{plan_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a wiring plan",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_plan(plan_id: PlanId, session: DbSession, access: WiringWriter, if_match: IfMatch) -> None:
    wiring_plans.delete_plan(session, access.principal, wiring_plans.get_plan(session, plan_id), if_match)


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
    filters = wiring_cables.CableFilters(
        row=row,
        rack=rack,
        medium=medium,
        link_class=link_class,
        min_length_mm=None if min_length_m is None else round(min_length_m * 1000),
        max_length_mm=None if max_length_m is None else round(max_length_m * 1000),
    )
    plan = wiring_plans.get_plan(session, plan_id)
    return wiring_cables.list_cables(
        session, plan, filters, page=paging.page, limit=paging.limit, include_route=include_route
    )


def _against(session: DbSession, plan_id: int, against: int) -> tuple[WiringPlanRow, WiringPlanRow]:
    new = wiring_plans.get_plan(session, plan_id)
    old = session.get(WiringPlanRow, against)
    if old is None or old.project_id != new.project_id:
        raise NotFound("against", f"wiring plan {against} not found")
    return old, new


Against = Annotated[int, Query(ge=1, le=MAX_ID, description="The older plan to diff against (same hall).")]


@router.get(
    "/wiring-plans/{plan_id}/diff",
    response_model=PlanDiffRead,
    summary="Diff against another plan of the same hall, and the bill of materials of the change",
    description="Counts, every changed cable ID (kept ones are the rest of this plan's), devices added and "
    "removed, and the change's own bill of materials priced with the project's book: what to buy and what "
    "is freed. Cables with their labels, ends and lengths: `/diff/cables`.",
)
def diff_plans(plan_id: PlanId, session: DbSession, access: WiringReader, against: Against) -> object:
    old, new = _against(session, plan_id, against)
    c = wiring_compare.compare_plans(session, old, new)
    d = c.diff
    return {
        "old_plan_id": old.id,
        "new_plan_id": new.id,
        "counts": d.counts(),
        "added": d.added,
        "moved": d.moved,
        "removed": d.removed,
        "hardware_added": d.hardware_added,
        "hardware_removed": d.hardware_removed,
        "bom": {"buy": c.buy.to_json(), "freed": c.freed.to_json(), "net_total": round(c.buy.total - c.freed.total, 2)},
        "facility": plan_facility.change_json(c.facility),
        "plant": wiring_plant.plant_change(session, old, new),
    }


@router.get(
    "/wiring-plans/{plan_id}/diff/cables",
    response_model=Page[DiffCableRead],
    summary="The diff's cables with labels, both ends and lengths, paged",
    description="Filtered by `status`; without it: added, moved, removed, then kept. A moved cable comes "
    "with the old cable it replaces (`moved_from`); a removed one is the old plan's.",
)
def diff_cables(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    against: Against,
    paging: Paging,
    status: Annotated[DiffStatus | None, Query(description="Only cables of this status.")] = None,
) -> object:
    old, new = _against(session, plan_id, against)
    return wiring_diff_cables.diff_cable_page(session, old, new, status, page=paging.page, limit=paging.limit)


@router.get(
    "/wiring-plans/{plan_id}/render",
    response_model=RenderBuffers,
    summary="Every cable's route as flat arrays, for the 3D view",
)
def render(plan_id: PlanId, session: DbSession, access: WiringReader) -> Response:
    # 100,000 cables make ~10 MB of numbers: orjson encodes them in a fraction of the stdlib's time.
    body = orjson.dumps(wiring_cables.render_buffers(session, wiring_plans.get_plan(session, plan_id)))
    return Response(body, media_type="application/json")


@router.get(
    "/wiring-plans/{plan_id}/scenario",
    summary="The plan as a simulation scenario (engine schema)",
    description="Network (nodes and links) from the plan, with default routing (ecmp), workload (shuffle of "
    "the first two logical racks) and engine (flow mode, seed 1) sections.",
)
def scenario(plan_id: PlanId, session: DbSession, access: WiringReader) -> dict[str, Any]:
    return wiring_scenario.scenario(session, wiring_plans.get_plan(session, plan_id))


BomReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.BOM_READ))]


_CSV_BOM = "text/csv"


@router.get(
    "/wiring-plans/{plan_id}/bom",
    response_model=BomRead,
    summary="Bill of materials: cables per part and ordered length, transceivers, switches, NICs, priced",
    description="Priced with the project's price book (`price_book_version`; null: the default book alone); "
    "every line says where its price came from. Unpriced lines stay in the list with no price: "
    "`complete` is false and `unpriced` names them. `Accept: text/csv` answers the CSV of `/bom.csv`. "
    "The ETag changes with the plan and the prices: send it back in If-None-Match for a 304.",
    responses={
        200: {"content": {_CSV_BOM: {}}, "description": "The BOM (JSON, or CSV with `Accept: text/csv`)."},
        304: {"description": "Not modified since the ETag sent in If-None-Match."},
    },
)
def bill_of_materials(plan_id: PlanId, session: DbSession, access: BomReader, request: Request) -> Response:
    if _wants_csv(request.headers.get("accept", "")):
        return _bom_csv(session, plan_id, request)
    b = wiring_bom.bill_of_materials(session, wiring_plans.get_plan(session, plan_id))
    body = orjson.dumps(BomRead.model_validate(b.to_json()).model_dump(mode="json"))
    return _conditional(request, body, "application/json", None)


@router.get(
    "/wiring-plans/{plan_id}/bom.csv",
    response_class=Response,
    summary="Bill of materials as CSV",
    description="Columns `category,part_number,description,length_m,media_class,quantity,unit_price,total,"
    "currency,price_source`; an unpriced line has empty prices and `price_source` `unpriced`. ETag and "
    "If-None-Match as for the JSON.",
    responses={
        200: {"content": {_CSV_BOM: {}}, "description": "One line per BOM line."},
        304: {"description": "Not modified since the ETag sent in If-None-Match."},
    },
)
def bill_of_materials_csv(plan_id: PlanId, session: DbSession, access: BomReader, request: Request) -> Response:
    return _bom_csv(session, plan_id, request)


def _bom_csv(session: DbSession, plan_id: int, request: Request) -> Response:
    plan = wiring_plans.get_plan(session, plan_id)
    body = bom_csv(wiring_bom.bill_of_materials(session, plan)).encode()
    return _conditional(request, body, _CSV_BOM, f'attachment; filename="plan-{plan.id}-bom.csv"')


def _wants_csv(accept: str) -> bool:
    types = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    return _CSV_BOM in types and "application/json" not in types[: types.index(_CSV_BOM)]


def _conditional(request: Request, body: bytes, media_type: str, disposition: str | None) -> Response:
    # A strong ETag of the body itself: it changes with the plan, the price book and the format.
    tag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"ETag": tag, "Vary": "Accept"}
    if disposition:
        headers["Content-Disposition"] = disposition
    matches = [t.strip() for t in request.headers.get("if-none-match", "").split(",")]
    if tag in matches or "*" in matches:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


# ---------------------------------------------------------------- structured plant (issue 29)

_DIRECT_404 = "A direct plan (`cabling: direct`) has no plant: 404 saying so."


@router.get(
    "/wiring-plans/{plan_id}/plant",
    response_model=PlantRead,
    summary="A structured plan's passive plant: settings, counts, panels, trunks, findings",
    description="Read from the stored plant (panels and trunks in the order built). " + _DIRECT_404,
)
def plant(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    view = wiring_plant.plant_overview(session, wiring_plans.get_plan(session, plan_id))
    return PlantRead(
        settings=StructuredSettingsRead.model_validate(view.settings),
        counts=PlantCountsRead.model_validate(view.counts),
        panels=[PlantPanelRead.model_validate(p) for p in view.panels],
        trunks=[PlantItemRead.model_validate(t) for t in view.trunks],
        findings=[PlantFindingRead.model_validate(f) for f in view.findings],
        findings_total=view.findings_total,
        change=None if view.change is None else PlantDiffRead.model_validate(view.change),
    )


# Ids are derived from names (`labels.cable_id`, `<rack>.U<nn>`): no control characters, which PostgreSQL
# could not even compare (a NUL), so the pattern refuses them with a 422 before any query.
CableId = Annotated[
    str,
    Path(pattern=r"^[A-Za-z0-9_-]{1,200}$", description="A cable id of the plan.", examples=["C5491267175527a3a"]),
]
PanelId = Annotated[
    str,
    Path(
        pattern=r"^[^\x00-\x1f\x7f-\x9f]{1,140}$",
        description="A panel id (`<rack>.U<nn>`).",
        examples=["H1.R01.R01-12.U42"],
    ),
]


@router.get(
    "/wiring-plans/{plan_id}/cables/{cable_id}/chain",
    response_model=LinkChainRead,
    summary="A logical link's chain of segments, ToR first",
    description="Each step with its item (kind, label, part, ends, lengths) and what of it the link uses. "
    "A link the plant does not carry (a server link) is a 404 naming the cable. " + _DIRECT_404,
)
def link_chain(plan_id: PlanId, cable_id: CableId, session: DbSession, access: WiringReader) -> object:
    view = wiring_plant.link_chain(session, wiring_plans.get_plan(session, plan_id), cable_id)
    return LinkChainRead(
        cable_id=view.cable_id,
        optic_a=view.optic_a,
        optic_b=view.optic_b,
        steps=[
            ChainStepRead(position=s.position, detail=s.detail, item=PlantItemRead.model_validate(s.item))
            for s in view.steps
        ],
    )


@router.get(
    "/wiring-plans/{plan_id}/plant/panels/{panel_id}",
    response_model=PanelMapRead,
    summary="A panel's port map: per front port its rear port, the cord plugged and the links through it",
    description="Every front port in order. " + _DIRECT_404,
)
def panel_map(plan_id: PlanId, panel_id: PanelId, session: DbSession, access: WiringReader) -> object:
    view = wiring_plant.panel_map(session, wiring_plans.get_plan(session, plan_id), panel_id)
    return PanelMapRead(
        panel=PlantPanelRead.model_validate(view.panel),
        ports=[
            PanelPortRead(
                front_port=p.front_port,
                rear_port=p.rear_port,
                port_item_id=None if p.port_item is None else p.port_item.item_id,
                cord_label=None if p.cord is None else p.cord.label,
                cord_part=None if p.cord is None else p.cord.part,
                far_end=p.cord_far_end,
                cable_ids=p.cable_ids,
            )
            for p in view.ports
        ],
    )
