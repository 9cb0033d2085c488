"""Exports of a stored plan: wiring sheet (CSV, XLSX with one sheet per row on request), NetBox CSV."""

from __future__ import annotations

import io
from collections.abc import Iterator

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Hall
from loopline.db.models.wiring import PlanCableRow, WiringPlanRow
from loopline.domain.exports import (
    NETBOX_COLUMNS,
    WIRING_SHEET_COLUMNS,
    SheetCable,
    SheetContext,
    netbox_rows,
    to_csv,
    wiring_sheet_rows,
)
from loopline.domain.labels import rack_name
from loopline.domain.media import Medium
from loopline.services.layout_snapshot import load_hall


def _cables(session: Session, plan: WiringPlanRow, row: str | None) -> Iterator[SheetCable]:
    stmt = select(PlanCableRow).where(PlanCableRow.plan_id == plan.id)
    if row is not None:
        stmt = stmt.where((PlanCableRow.a_row == row) | (PlanCableRow.b_row == row))
    for c in session.execute(stmt.order_by(PlanCableRow.seq)).scalars():
        yield SheetCable(
            c.cable_id, c.label, c.a_device, c.a_port, c.a_row, c.a_rack, c.b_device, c.b_port, c.b_row, c.b_rack,
            c.gbps, Medium(c.medium), c.part_number, c.transceiver, c.raw_mm, c.slack_mm, c.ordered_mm,
        )  # fmt: skip


def _context(session: Session, plan: WiringPlanRow) -> SheetContext:
    hall_row = session.get(Hall, plan.hall_id)
    assert hall_row is not None
    hall = load_hall(session, plan.hall_id)
    faces = {rack_name(hall.name, r.name, k.name): k.port_face.value for r in hall.rows for k in r.racks}
    return SheetContext(site=hall.site, hall=hall.name, via=plan.via, rack_face=faces)


def wiring_sheet_csv(session: Session, plan: WiringPlanRow, row: str | None = None) -> str:
    return to_csv(WIRING_SHEET_COLUMNS, wiring_sheet_rows(_cables(session, plan, row), _context(session, plan)))


def netbox_csv(session: Session, plan: WiringPlanRow) -> str:
    return to_csv(NETBOX_COLUMNS, netbox_rows(_cables(session, plan, None)))


def wiring_sheet_xlsx(session: Session, plan: WiringPlanRow, per_row: bool) -> bytes:
    """One sheet for the whole plan, or one per row (a cable between two rows is on both)."""
    ctx = _context(session, plan)
    book = Workbook(write_only=True)
    rows: list[str | None] = (
        list(sorted({r for c in _cables(session, plan, None) for r in (c.a_row, c.b_row)})) if per_row else [None]
    )
    for row in rows:
        sheet = book.create_sheet(title=(row or "All cables")[:31])
        sheet.append(list(WIRING_SHEET_COLUMNS))
        for values in wiring_sheet_rows(_cables(session, plan, row), ctx):
            sheet.append([_as_written(sheet, v) for v in values])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _as_written(sheet: WriteOnlyWorksheet, value: object) -> object:
    """Text is stored as text: openpyxl would store a name starting with `=` as a live formula."""
    if isinstance(value, str) and value.startswith("="):
        cell = WriteOnlyCell(sheet, value)
        cell.data_type = "s"
        return cell
    return value
