"""Exports of a wiring plan for cabling teams: wiring sheets (CSV, XLSX, PDF), label sheets (PDF),
pull list (CSV), NetBox import (cables CSV, or every object as a ZIP), and an upgrade's re-cabling
work order (CSV, XLSX, PDF); a hall's power sheet for electricians (CSV, XLSX, PDF). All streamed.

FastAPI (0.115) ends a yield-dependency, here the request's transaction, before a streamed body is
sent. The route reads and checks everything it may refuse inside that transaction (so a refusal
is an ordinary 4xx); the body then reads the cables in a second, read-only transaction of the same
session, which is closed when the body ends or the client goes away.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from starlette.responses import StreamingResponse

from loopline.api.deps import DbSession, HallId, LayoutReader, PlanId, require_project_role
from loopline.api.downloads import streamed_download
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID
from loopline.db.models import Role
from loopline.db.models.wiring import WiringPlanRow
from loopline.domain import netbox
from loopline.domain.errors import NotFound
from loopline.services import export_cache, exports, structured_exports, wiring_plans
from loopline.services.access import ProjectAccess, Scope
from loopline.services.device_naming import names_for_export

WiringReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.WIRING_READ))]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv"
PDF = "application/pdf"
ZIP = "application/zip"

router = APIRouter(
    prefix="/api/v1", tags=["wiring"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)}
)

_CSV: dict[str, dict[str, object]] = {CSV: {}}
RowFilter = Annotated[str | None, Query(description="Only cables with an end in this row.")]
RackFilter = Annotated[
    str | None,
    Query(description="Only cables with an end in this rack, named as in the sheet (`<hall>.<row>.<rack>`)."),
]


CableColours = Annotated[
    str | None,
    Query(
        max_length=400,
        description="Cable colours by NetBox cable type, over the defaults ("
        + ", ".join(f"{k}:{v}" for k, v in netbox.CABLE_COLOURS.items())
        + "): `type:rrggbb` pairs separated by commas.",
    ),
]


def _scoped(stem: str, row: str | None, rack: str | None) -> str:
    return stem + "".join(f"-{part}" for part in (row, rack) if part)


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-sheet.csv",
    response_class=StreamingResponse,
    responses={200: {"content": _CSV, "description": "One line per cable: both ends by name, part, lengths."}},
    summary="Wiring sheet (CSV)",
)
def wiring_sheet_csv(
    plan_id: PlanId, session: DbSession, access: WiringReader, row: RowFilter = None, rack: RackFilter = None
) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    # Any text may be asked for as a row or rack: a sheet of no cable (its header alone) is not kept,
    # so only the plan's own rows and racks are stored.
    body = export_cache.cached(
        session, plan, "wiring-sheet.csv", {"row": row, "rack": rack},
        lambda: exports.wiring_sheet_csv(session, plan, row, rack), keep=lambda sheet: sheet.count(b"\n") > 1,
    )  # fmt: skip
    return streamed_download(session, body, CSV, _scoped(f"plan-{plan.id}-wiring", row, rack) + ".csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-sheet.xlsx",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {XLSX: {}},
            "description": "The wiring sheet as a workbook to print: bold frozen header, filters, column widths, "
            "landscape pages with the header repeated.",
        }
    },
    summary="Wiring sheet (XLSX), one sheet per row",
)
def wiring_sheet_xlsx(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    per_row: Annotated[
        bool, Query(description="One worksheet per row (a cable between two rows is on both); false: one sheet.")
    ] = True,
    rack: Annotated[
        str | None,
        Query(description="One worksheet of the cables with an end in this rack (`<hall>.<row>.<rack>`)."),
    ] = None,
) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    body = exports.wiring_sheet_xlsx(session, plan, per_row, rack)
    return streamed_download(session, body, XLSX, _scoped(f"plan-{plan.id}-wiring", None, rack) + ".xlsx")


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-sheet.pdf",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {PDF: {}, ZIP: {}},
            "description": "Printable wiring sheet (A4 landscape): a section per row, a page per rack's cables "
            "(by A end), both ends, label, medium, part, ordered length, bundle, a box to tick. With `row`: one "
            "PDF of the cables with an end in that row (at most 100,000, else 422). Without: a ZIP "
            "(`plan-<id>-wiring-sheets.zip`) of one such PDF per row (`wiring-row-<row>.pdf`), each rendered "
            "and sent before the next is started, so the download starts with the first row.",
        }
    },
    summary="Wiring sheet (PDF; the whole plan: a ZIP of a PDF per row)",
)
def wiring_sheet_pdf(plan_id: PlanId, session: DbSession, access: WiringReader, row: RowFilter = None) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    got = exports.wiring_sheet_pdf(session, plan, row)
    if got.zipped:
        return streamed_download(session, got.body, ZIP, f"plan-{plan.id}-wiring-sheets.zip")
    return streamed_download(session, got.body, PDF, f"plan-{plan.id}-wiring-{row}.pdf")


@router.get(
    "/wiring-plans/{plan_id}/exports/labels.pdf",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {PDF: {}, ZIP: {}},
            "description": "TIA-606 cable labels on Avery L7160 sheets (A4, 3 x 7 labels of 63.5 x 38.1 mm): two "
            "per cable, end A then end B, each with the cable ID as a QR code and in text, the label's two ends, "
            f"ordered length, medium and part. A row of at most {exports.LABEL_PDF_CABLES:,} cables: one PDF. "
            "The whole plan, or a larger row: a ZIP (`plan-<id>-labels[-<row>].zip`) of PDFs of at most "
            f"{exports.LABEL_FILE_CABLES} cables each, by A-end rack (`labels-<rack>.pdf`, "
            "`labels-<first rack>--<last rack>.pdf` for neighbouring racks of one row, `labels-<rack>-part-<n>.pdf` "
            "for a rack of more), every cable once, each PDF rendered and sent before the next is started. "
            "With `one_pdf=true`: the same sheets (those of the row's PDF, or of the ZIP's PDFs together, each "
            "file's first label on a new sheet) as one PDF (`plan-<id>-labels[-<row>].pdf`), sent a few sheets at "
            "a time as they are drawn. A structured plan: its ToR uplinks are labelled as the cords and trunks "
            "they run through, not as cables: the whole plan's labels end with the plant's (two per cord, two per "
            f"trunk, its two ends, and one per panel port used, `<panel>:<port>`), as `{exports.PLANT_LABELS_FILE}` "
            "in the ZIP or the last sheets of the one PDF.",
        }
    },
    summary="Cable label sheet (PDF; the whole plan or a large row: a ZIP of a PDF per rack, or one PDF)",
)
def label_sheet_pdf(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    row: RowFilter = None,
    one_pdf: Annotated[
        bool, Query(description="One PDF of every label, streamed as it is drawn, instead of a ZIP.")
    ] = False,
) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    got = exports.label_sheet_pdf(session, plan, row, one_pdf)
    name = f"plan-{plan.id}-labels{'-' + row if row else ''}"
    return streamed_download(session, got.body, ZIP if got.zipped else PDF, f"{name}.{'zip' if got.zipped else 'pdf'}")


@router.get(
    "/wiring-plans/{plan_id}/exports/pull-list.csv",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": _CSV,
            "description": "Cables grouped by bundle (the two racks a cable runs between) and part, with the "
            "ordered length, quantity and cable IDs of each group.",
        }
    },
    summary="Pull list (CSV)",
)
def pull_list_csv(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    return streamed_download(session, exports.pull_list_csv(session, plan), CSV, f"plan-{plan.id}-pull-list.csv")


_DIRECT = " A direct plan (no panels) is a 404 that says so."


@router.get(
    "/wiring-plans/{plan_id}/exports/wiring-segments.csv",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": _CSV,
            "description": "A structured plan's wiring sheet a line per segment: for each ToR uplink (in plan "
            "order), each step of its chain from the ToR (position 0) to the fabric switch: the link's ID and "
            "label, the step's position and kind (cord, panel port, trunk, breakout), the item's ID, label and "
            "part, its routed and ordered length in metres (blank for a panel port), the end and port it runs from "
            "and to (a device by host name, a panel by its `<rack>.U<nn>` id: front port `F<nn>`, rear `R<nn>`) "
            "and what of the item the link uses (fibres, leg)." + _DIRECT,
        }
    },
    summary="Wiring sheet per segment of a structured plan (CSV)",
)
def wiring_segments_csv(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    names = names_for_export(session, plan.hall_id)
    body = structured_exports.segments_csv(session, plan, names)
    return streamed_download(session, body, CSV, f"plan-{plan.id}-wiring-segments.csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/trunk-pull-list.csv",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": _CSV,
            "description": "A structured plan's trunks, one line each: label, part, fibres, routed and ordered "
            "(sold) length in metres, whether it is made to order, the panel and rear port at each end, the "
            "logical links it carries, the racks and trays it runs along, its item ID." + _DIRECT,
        }
    },
    summary="Trunk pull list of a structured plan (CSV)",
)
def trunk_pull_list_csv(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    body = structured_exports.trunk_pull_list_csv(session, plan)
    return streamed_download(session, body, CSV, f"plan-{plan.id}-trunk-pull-list.csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/panel-map.pdf",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {PDF: {}},
            "description": "A structured plan's patch panels, one printable page each (A4 landscape): the panel, "
            "its rack, U, model and cassettes, every front port with the rear port and position it maps to, the "
            "cord plugged and that cord's far end, and every rear port with its trunk and the far panel's port. "
            "Sent a few panels at a time as they are drawn." + _DIRECT,
        }
    },
    summary="Panel port map of a structured plan (PDF)",
)
def panel_map_pdf(plan_id: PlanId, session: DbSession, access: WiringReader) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    names = names_for_export(session, plan.hall_id)
    body = structured_exports.panel_map_pdf(session, plan, names)
    return streamed_download(session, body, PDF, f"plan-{plan.id}-panel-map.pdf")


@router.get(
    "/wiring-plans/{plan_id}/exports/netbox-cables.csv",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": _CSV,
            "description": "NetBox cable bulk-import CSV (the devices and interfaces must exist: see netbox.zip).",
        }
    },
    summary="NetBox cable import (CSV)",
)
def netbox_csv(plan_id: PlanId, session: DbSession, access: WiringReader, cable_colours: CableColours = None) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    body = exports.netbox_csv(session, plan, netbox.cable_colours(cable_colours))
    return streamed_download(session, body, CSV, f"plan-{plan.id}-netbox-cables.csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/netbox.zip",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {ZIP: {}},
            "description": "Everything an empty NetBox 4.x needs to import the plan, one bulk-import file per "
            "object type in import order (01-sites, 02-locations (a location per row), 03-racks (each in its "
            "row's location), 04-manufacturers, 05-device-types.yaml (with an interface template per port, so "
            "devices come with their interfaces; servers and switches with two power supplies drawing the catalog's "
            "watts, PDUs with an input and their outlets), 06-device-roles, 07-devices (PDUs too, zero-U in their "
            "racks), 08-cables (coloured by type), 09-power-panels (one per row), 10-power-feeds (one per rack feed), "
            "11-power-cables (feed to PDU, PDU outlets to supplies)) and a README.txt. Importing the files again "
            "adds nothing: NetBox refuses each file at its first "
            "object that already exists. A structured plan: its patch panels are devices too (a device type per "
            "panel as fitted, with rear ports and front ports mapped to rear-port positions), and 08-cables holds "
            "its cords and trunk legs between interfaces, front and rear ports instead of its ToR uplinks, so "
            "NetBox's cable trace runs from a ToR port through both panels to the switch.",
        }
    },
    summary="NetBox import, every object (ZIP of CSVs and a YAML)",
)
def netbox_zip(plan_id: PlanId, session: DbSession, access: WiringReader, cable_colours: CableColours = None) -> object:
    plan = wiring_plans.get_plan(session, plan_id)
    body = exports.netbox_zip(session, plan, netbox.cable_colours(cable_colours))
    return streamed_download(session, body, ZIP, f"plan-{plan.id}-netbox.zip")


@router.get(
    "/wiring-plans/{plan_id}/exports/netbox-upgrade.zip",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {ZIP: {}},
            "description": "What changes in a NetBox that holds `against` (imported from its netbox.zip) to "
            "make it hold this plan, from the plans' diff: 1-delete-cables.csv (removed cables, a moved "
            "cable's old run, a changed cable's old part: label and both ends, as NetBox's cable list filters "
            "and its bulk delete find them), 2-delete-interfaces.csv, 3-delete-devices.csv, "
            "4-device-types.yaml, 5-device-roles.csv, 6-devices.csv, 7-interfaces.csv (ports of kept devices "
            "whose model gained them), 8-cables.csv (added, moved and changed cables, NetBox's cable import), "
            "9-power-cables.csv (new devices' supplies into the next free PDU outlets; removed devices' plugs "
            "are deleted by label in 1-delete-cables.csv) and a README.txt with the order and counts. A file with "
            "nothing to do is left out.",
        }
    },
    summary="NetBox changes of an upgrade (ZIP)",
)
def netbox_upgrade_zip(
    plan_id: PlanId,
    session: DbSession,
    access: WiringReader,
    against: Annotated[int, Query(ge=1, le=MAX_ID, description="The plan NetBox holds (same hall).")],
    cable_colours: CableColours = None,
) -> object:
    old, new = _pair(session, plan_id, against)
    body = exports.netbox_upgrade_zip(session, old, new, netbox.cable_colours(cable_colours))
    return streamed_download(session, body, ZIP, f"plan-{new.id}-from-{old.id}-netbox-upgrade.zip")


_WORK_ORDER = (
    "The re-cabling work order of this plan as an upgrade of `against` (same hall): one step per cable, in "
    "the order to do them: 1. plug every added cable, 2. re-cable every moved one (unplug it from its old "
    "ends, plug it into its new ones) and replace every kept cable whose part or length changed, 3. unplug "
    "every removed one. Within a phase the steps are grouped by rack (the cable's server end, else its A "
    "end). Adding first and removing last means no server with a second link loses its last one; a step "
    "that must take a server off (its only cable moves) names it (`servers_offline`)."
)
AgainstPlan = Annotated[int, Query(ge=1, le=MAX_ID, description="The plan this one upgrades (same hall).")]


def _pair(session: DbSession, plan_id: int, against: int) -> tuple[WiringPlanRow, WiringPlanRow]:
    new = wiring_plans.get_plan(session, plan_id)
    old = session.get(WiringPlanRow, against)
    if old is None or old.project_id != new.project_id:
        raise NotFound("against", f"wiring plan {against} not found")
    return old, new


@router.get(
    "/wiring-plans/{plan_id}/exports/work-order.csv",
    response_class=StreamingResponse,
    responses={200: {"content": _CSV, "description": "One line per step, in order."}},
    summary="Re-cabling work order of an upgrade (CSV)",
    description=_WORK_ORDER,
)
def work_order_csv(plan_id: PlanId, session: DbSession, access: WiringReader, against: AgainstPlan) -> object:
    old, new = _pair(session, plan_id, against)
    body = exports.work_order_csv(session, old, new)
    return streamed_download(session, body, CSV, f"plan-{new.id}-from-{old.id}-work-order.csv")


@router.get(
    "/wiring-plans/{plan_id}/exports/work-order.xlsx",
    response_class=StreamingResponse,
    responses={200: {"content": {XLSX: {}}, "description": "A worksheet per phase, the steps in order."}},
    summary="Re-cabling work order of an upgrade (XLSX)",
    description=_WORK_ORDER,
)
def work_order_xlsx(plan_id: PlanId, session: DbSession, access: WiringReader, against: AgainstPlan) -> object:
    old, new = _pair(session, plan_id, against)
    body = exports.work_order_xlsx(session, old, new)
    return streamed_download(session, body, XLSX, f"plan-{new.id}-from-{old.id}-work-order.xlsx")


@router.get(
    "/wiring-plans/{plan_id}/exports/work-order.pdf",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {PDF: {}},
            "description": "To print: a section per phase, a page per rack, each step's label, old ends, new "
            "ends, part, ordered length and a box to tick.",
        }
    },
    summary="Re-cabling work order of an upgrade (PDF)",
    description=_WORK_ORDER,
)
def work_order_pdf(plan_id: PlanId, session: DbSession, access: WiringReader, against: AgainstPlan) -> object:
    old, new = _pair(session, plan_id, against)
    body = exports.work_order_pdf(session, old, new)
    return streamed_download(session, body, PDF, f"plan-{new.id}-from-{old.id}-work-order.pdf")


# --- power sheet of a hall -----------------------------------------------------------------------

_POWER_SHEET = (
    "The hall's power sheet for electricians: a line per rack and feed (A/B) with its rack, row, voltage "
    "(line-to-neutral), phases, breaker amps and PDU model, the load the feed must carry alone (the whole "
    "rack's maximum draw: with A and B feeds each carries the rack by itself, N+N), its capacity (V x A x "
    "phases x power factor), its continuous limit (80 % of capacity, the hall's setting), the load as % of "
    "the limit, the load per phase, the rack's typical draw and a status (`ok`, or `over` the limit). The "
    "figures are the facility checks' own (`GET /halls/{hall_id}/facility`). With `plan_id`, the plan's "
    "optics draw in their racks too."
)
PowerPlan = Annotated[
    int | None,
    Query(ge=1, le=MAX_ID, description="A wiring plan of this hall: its optics' watts count in their racks."),
]


@router.get(
    "/halls/{hall_id}/exports/power-sheet.csv",
    response_class=StreamingResponse,
    responses={200: {"content": _CSV, "description": "One line per rack feed."}},
    summary="Power sheet (CSV)",
    description=_POWER_SHEET,
    tags=["facility"],
)
def power_sheet_csv(hall_id: HallId, session: DbSession, access: LayoutReader, plan_id: PowerPlan = None) -> object:
    sheet = exports.power_sheet(session, hall_id, plan_id)
    return streamed_download(session, exports.power_sheet_csv(sheet), CSV, f"{sheet.stem}.csv")


@router.get(
    "/halls/{hall_id}/exports/power-sheet.xlsx",
    response_class=StreamingResponse,
    responses={200: {"content": {XLSX: {}}, "description": "A worksheet per row, the feeds in rack order."}},
    summary="Power sheet (XLSX)",
    description=_POWER_SHEET,
    tags=["facility"],
)
def power_sheet_xlsx(hall_id: HallId, session: DbSession, access: LayoutReader, plan_id: PowerPlan = None) -> object:
    sheet = exports.power_sheet(session, hall_id, plan_id)
    return streamed_download(session, exports.power_sheet_xlsx(sheet), XLSX, f"{sheet.stem}.xlsx")


@router.get(
    "/halls/{hall_id}/exports/power-sheet.pdf",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {PDF: {}},
            "description": "To print (A4 landscape): a section per row, a line per rack feed, the status in "
            "capitals and a box to tick.",
        }
    },
    summary="Power sheet (PDF)",
    description=_POWER_SHEET,
    tags=["facility"],
)
def power_sheet_pdf(hall_id: HallId, session: DbSession, access: LayoutReader, plan_id: PowerPlan = None) -> object:
    sheet = exports.power_sheet(session, hall_id, plan_id)
    return streamed_download(session, exports.power_sheet_pdf(sheet), PDF, f"{sheet.stem}.pdf")
