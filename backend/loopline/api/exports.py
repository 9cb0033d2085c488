"""Exports of a wiring plan for cabling teams: wiring sheets, NetBox import."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Response

from loopline.api.deps import DbSession, PlanId, require_project_role
from loopline.api.schemas.common import ERROR_RESPONSES
from loopline.db.models import Role
from loopline.services import exports, wiring
from loopline.services.access import ProjectAccess, Scope

WiringReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.WIRING_READ))]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

router = APIRouter(
    prefix="/api/v1", tags=["wiring"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)

_CSV: dict[str, dict[str, object]] = {"text/csv": {}}


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-sheet.csv",
    response_class=Response,
    responses={200: {"content": _CSV, "description": "One line per cable: both ends by name, part, lengths."}},
    summary="Wiring sheet (CSV)",
)
def wiring_sheet_csv(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    row: Annotated[str | None, Query(description="Only cables with an end in this row.")] = None,
) -> Response:
    plan = wiring.get_plan(session, plan_id)
    body = exports.wiring_sheet_csv(session, plan, row)
    return _download(body.encode(), "text/csv", f"plan-{plan.id}-wiring{'-' + row if row else ''}.csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-sheet.xlsx",
    response_class=Response,
    responses={200: {"content": {XLSX: {}}, "description": "The wiring sheet as a workbook."}},
    summary="Wiring sheet (XLSX), optionally one sheet per row",
)
def wiring_sheet_xlsx(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    per_row: Annotated[bool, Query(description="One worksheet per row.")] = False,
) -> Response:
    plan = wiring.get_plan(session, plan_id)
    return _download(exports.wiring_sheet_xlsx(session, plan, per_row), XLSX, f"plan-{plan.id}-wiring.xlsx")


@router.get(
    "/wiring-plans/{plan_id}/exports/netbox-cables.csv",
    response_class=Response,
    responses={200: {"content": _CSV, "description": "NetBox cable bulk-import CSV."}},
    summary="NetBox cable import (CSV)",
)
def netbox_csv(plan_id: PlanId, session: DbSession, access: WiringReader) -> Response:
    plan = wiring.get_plan(session, plan_id)
    return _download(exports.netbox_csv(session, plan).encode(), "text/csv", f"plan-{plan.id}-netbox-cables.csv")


def _download(body: bytes, media_type: str, filename: str) -> Response:
    # Row names are any text: an ASCII fallback, and the exact name in RFC 6266's UTF-8 form.
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename)
    disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
    return Response(body, media_type=media_type, headers={"Content-Disposition": disposition})
