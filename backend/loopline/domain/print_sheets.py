"""Printable PDFs for cabling teams, drawn with reportlab: the wiring sheet and the label sheet.

Pure: cables in (already in print order), PDF bytes out to a binary stream. Text is measured
with the PDF font's own metrics (`stringWidth`) and shrunk until it fits its box, so nothing runs
over a column or off a label.

Label sheet: Avery L7160 (A4, 3 x 7 labels of 63.5 x 38.1 mm; US sheets of the same label are
Avery 5160-size): big enough for a QR code a phone or a handheld scanner reads (~23 mm) and the
two ends of a label at a readable size, on sheets every office printer takes. Each cable gets two
labels side by side, end A then end B, printed with the same text (TIA-606: a cable is labelled
identically at both ends) and the end it goes on.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from math import gcd
from typing import BinaryIO

from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from loopline.domain.exports import SheetCable, SheetContext, bundle_of, netbox_length
from loopline.domain.facility.power_sheet import PowerSheetLine
from loopline.domain.labels import label_halves
from loopline.domain.pdf_stream import joined_pdf
from loopline.domain.wiring.work_order import PHASE_TITLES, WorkStep

FONT = "Helvetica"
BOLD = "Helvetica-Bold"
MIN_FONT_PT = 3.5
"""Below this nothing is legible; text that still does not fit is cut with an ellipsis (never seen
with the names the API allows in a wiring-sheet column, see the tests)."""


def fit_size(text: str, font: str, size: float, width: float, min_size: float = MIN_FONT_PT) -> float:
    """The largest size <= `size` at which `text` is at most `width` wide (at least `min_size`)."""
    w = float(stringWidth(text, font, size))
    if w <= width or not text:
        return size
    return max(min_size, size * width / w * 0.999)


def fit(text: str, font: str, size: float, width: float) -> tuple[str, float]:
    """Text and size that fit `width`: shrunk first, then cut with an ellipsis at the minimum size."""
    s = fit_size(text, font, size, width)
    if stringWidth(text, font, s) <= width:
        return text, s
    while text and stringWidth(text + "\u2026", font, s) > width:
        text = text[:-1]
    return text + "\u2026", s


# --- wiring sheet -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    width_pt: float
    right: bool = False


WIRING_COLUMNS: tuple[Column, ...] = (
    Column("Cable ID", 64),
    Column("Label", 196),
    Column("A end (row rack U face port)", 112),
    Column("B end (row rack U face port)", 112),
    Column("Medium", 34),
    Column("Part", 128),
    Column("Ordered m", 40, right=True),
    Column("Bundle", 38),
    Column("Done", 22),
)
SHEET_FONT_PT = 7.0
LINE_PT = 11.0
MARGIN = 12 * mm


def _end(c: SheetCable, ctx: SheetContext, end: str) -> str:
    device, port, row, rack = (
        (c.a_device, c.a_port, c.a_row, c.a_rack) if end == "a" else (c.b_device, c.b_port, c.b_row, c.b_rack)
    )
    u = device.rsplit(".U", 1)[-1]
    host = ctx.names.host(device)
    named = "" if host == device else f" {host}"
    return f"{row} {rack.rsplit('.', 1)[-1]} U{u}{named} {ctx.rack_face.get(rack, 'front')} {port}"


def wiring_cells(c: SheetCable, ctx: SheetContext) -> tuple[str, ...]:
    label = ctx.names.label(c.a_device, c.a_port, c.b_device, c.b_port) if ctx.names.names else c.label
    return (
        c.cable_id, label, _end(c, ctx, "a"), _end(c, ctx, "b"), c.medium.value, c.part_number,
        netbox_length(c.ordered_mm), bundle_of(c.a_rack, c.b_rack, ctx.via), "[  ]",
    )  # fmt: skip


class _WiringSheet:
    def __init__(
        self,
        out: BinaryIO,
        title: str,
        ctx: SheetContext,
        columns: tuple[Column, ...] = WIRING_COLUMNS,
        head: str | None = None,
    ) -> None:
        self.columns = columns
        self.head = head
        self.canvas = Canvas(out, pagesize=landscape(A4), pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Loopline")
        self.title = title
        self.ctx = ctx
        self.width, self.height = landscape(A4)
        self.page = 0
        self.y = 0.0
        self.lines: list[tuple[float, float, str, str, float]] = []
        self.section = ("", "")

    def start_page(self, row: str, rack: str, heading: str | None = None) -> None:
        """A new page of `rack`'s cables; a new outline entry per `row` (or per `heading`: the
        section, when there is one above the rows) and per rack."""
        self.finish_page()
        self.page += 1
        c = self.canvas
        section = heading if heading is not None else f"Row {row}"
        if section != self.section[0] or self.page == 1:
            c.bookmarkPage(f"row-{self.page}")
            c.addOutlineEntry(section, f"row-{self.page}", level=0)
        if rack and (section, rack) != self.section:
            c.bookmarkPage(f"rack-{self.page}")
            c.addOutlineEntry(f"Row {row} rack {rack}" if heading else rack, f"rack-{self.page}", level=1)
        self.section = (section, rack)
        top = self.height - MARGIN
        c.setFont(BOLD, 13)
        title = f"{heading}   Row {row}" if heading else f"Row {row}"
        title += f"   Rack {rack}" if rack else ""
        c.drawString(MARGIN, top - 12, *fit(title, BOLD, 13, 600)[:1])
        c.setFont(FONT, 8)
        head = f"{self.title}   site {self.ctx.site}   hall {self.ctx.hall}   " + (
            self.head if self.head is not None else f"cables between racks: {self.ctx.via}"
        )
        text, size = fit(head, FONT, 8, self.width - 2 * MARGIN - 80)
        c.setFont(FONT, size)
        c.drawString(MARGIN, top - 25, text)
        c.setFont(FONT, 8)
        c.drawRightString(self.width - MARGIN, top - 12, f"page {self.page}")
        y = top - 42
        x = MARGIN
        c.setFont(BOLD, SHEET_FONT_PT)
        for col in self.columns:
            text, size = fit(col.title, BOLD, SHEET_FONT_PT, col.width_pt - 4)
            c.setFont(BOLD, size)
            c.drawString(x + 2, y, text)
            x += col.width_pt
        c.setLineWidth(0.6)
        c.line(MARGIN, y - 3, x, y - 3)
        self.y = y - LINE_PT

    def add(self, cells: Sequence[str]) -> None:
        x = MARGIN
        for col, cell in zip(self.columns, cells, strict=True):
            text, size = fit(cell, FONT, SHEET_FONT_PT, col.width_pt - 4)
            if col.right:
                self.lines.append((x + col.width_pt - 2 - stringWidth(text, FONT, size), self.y, text, FONT, size))
            else:
                self.lines.append((x + 2, self.y, text, FONT, size))
            x += col.width_pt
        self.y -= LINE_PT

    @property
    def full(self) -> bool:
        return self.y < MARGIN + LINE_PT

    def finish_page(self) -> None:
        if self.page == 0:
            return
        c = self.canvas
        # One text object per page: a few hundred strings drawn as one block (much faster).
        text = c.beginText()
        current: tuple[str, float] | None = None
        for x, y, s, font, size in self.lines:
            if (font, size) != current:
                text.setFont(font, size)
                current = (font, size)
            text.setTextOrigin(x, y)
            text.textOut(s)
        c.drawText(text)
        c.setStrokeGray(0.85)
        c.setLineWidth(0.3)
        y = self.height - MARGIN - 42 - 3 - LINE_PT
        for i in range(len(self.lines) // len(self.columns)):
            c.line(MARGIN, y - i * LINE_PT - 3, self.width - MARGIN, y - i * LINE_PT - 3)
        c.setStrokeGray(0)
        c.showPage()
        self.lines = []


def wiring_sheet_pdf(out: BinaryIO, cables: Iterable[SheetCable], ctx: SheetContext, title: str) -> int:
    """The wiring sheet, cables in (A row, A rack) order: a section per row (an outline entry),
    a new page for each rack's group of cables, both ends, ordered length, label, bundle, and a
    box to tick. Returns the number of pages."""
    sheet = _WiringSheet(out, title, ctx)
    for c in cables:
        if sheet.page == 0 or (f"Row {c.a_row}", c.a_rack) != sheet.section or sheet.full:
            sheet.start_page(c.a_row, c.a_rack)
        sheet.add(wiring_cells(c, ctx))
    if sheet.page == 0:
        sheet.start_page("-", "no cables")
    sheet.finish_page()
    sheet.canvas.save()
    return sheet.page


# --- power sheet --------------------------------------------------------------------------------

POWER_PDF_COLUMNS: tuple[Column, ...] = (
    Column("Rack", 92),
    Column("Feed", 28),
    Column("V", 30, right=True),
    Column("Phases", 30, right=True),
    Column("Breaker A", 42, right=True),
    Column("PDU model", 112),
    Column("Load W", 50, right=True),
    Column("Capacity W", 52, right=True),
    Column("Limit W", 50, right=True),
    Column("% of limit", 44, right=True),
    Column("Per phase W", 84),
    Column("Typical W", 50, right=True),
    Column("Status", 36),
    Column("Done", 22),
)


def _watts(w: float) -> str:
    return f"{round(w):,}"


def power_cells(line: PowerSheetLine) -> tuple[str, ...]:
    return (
        line.rack, line.feed, f"{line.voltage_v:g}", str(line.phases), f"{line.breaker_a:g}", line.pdu_model or "-",
        _watts(line.load_w), _watts(line.capacity_w), _watts(line.limit_w), f"{line.pct_of_limit:.1f} %",
        " / ".join(_watts(w) for w in line.phase_w), _watts(line.typical_w), line.status.upper(), "[  ]",
    )  # fmt: skip


def power_sheet_pdf(out: BinaryIO, lines: Iterable[PowerSheetLine], ctx: SheetContext, title: str, head: str) -> int:
    """The power sheet to print: a section per row (an outline entry), a line per rack feed with
    what it must carry against its limit, the status in capitals and a box to tick. `head`: how
    capacity and limit are reckoned, printed under the title. Returns the number of pages."""
    sheet = _WiringSheet(out, title, ctx, POWER_PDF_COLUMNS, head=head)
    for line in lines:
        if sheet.page == 0 or f"Row {line.row}" != sheet.section[0] or sheet.full:
            sheet.start_page(line.row, "")
        sheet.add(power_cells(line))
    if sheet.page == 0:
        sheet.start_page("-", "no racks")
    sheet.finish_page()
    sheet.canvas.save()
    return sheet.page


# --- re-cabling work order -----------------------------------------------------------------------


WORK_ORDER_PDF_COLUMNS: tuple[Column, ...] = (
    Column("Step", 26, right=True),
    Column("Do", 40),
    Column("Label", 160),
    Column("Unplug from (A, B)", 190),
    Column("Plug into (A, B)", 190),
    Column("Part", 92),
    Column("m", 26, right=True),
    Column("Done", 22),
)


def work_order_pdf(out: BinaryIO, steps: Iterable[WorkStep], ctx: SheetContext, title: str) -> int:
    """The re-cabling work order to print: a section per phase (an outline entry), a new page per
    rack within it, each step's cable, old ends to unplug, new ends to plug, part, ordered length,
    servers off during it, and a box to tick. Returns the number of pages."""
    sheet = _WiringSheet(out, title, ctx, WORK_ORDER_PDF_COLUMNS)
    for s in steps:
        heading = PHASE_TITLES[s.phase]
        if sheet.page == 0 or (heading, s.rack) != sheet.section or sheet.full:
            sheet.start_page(s.row, s.rack, heading)
        ends = [" / ".join(e.text() for e in pair) if pair else "-" for pair in (s.unplug, s.plug)]
        label = s.label if s.old_label is None else f"{s.label} (was {s.old_label})"
        if s.offline:
            label += f"  OFF: {', '.join(s.offline)}"
        sheet.add(
            (str(s.step), s.action.value, label, ends[0], ends[1], s.part_number, netbox_length(s.ordered_mm), "[  ]")
        )
    if sheet.page == 0:
        sheet.start_page("-", "nothing to re-cable")
    sheet.finish_page()
    sheet.canvas.save()
    return sheet.page


# --- label sheet --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LabelSheetGrid:
    """A label sheet: page size, label size, first label's corner and pitch, in points."""

    name: str
    page: tuple[float, float]
    label_w: float
    label_h: float
    left: float
    top: float
    pitch_x: float
    pitch_y: float
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def origin(self, i: int) -> tuple[float, float]:
        """Lower-left corner of the `i`-th label of a page (row by row from the top left)."""
        r, c = divmod(i, self.columns)
        return self.left + c * self.pitch_x, self.page[1] - self.top - r * self.pitch_y - self.label_h


AVERY_L7160 = LabelSheetGrid(
    name="Avery L7160 (A4, 21 labels 63.5 x 38.1 mm)",
    page=A4,
    label_w=63.5 * mm,
    label_h=38.1 * mm,
    left=7.2 * mm,
    top=15.1 * mm,
    pitch_x=66.0 * mm,
    pitch_y=38.1 * mm,
    columns=3,
    rows=7,
)
LABEL_PAD = 2 * mm
QR_SIZE = 23 * mm
QR_QUIET_MODULES = 2
"""A two-module quiet zone inside the label's own white margin (2 mm): together wider than the
four modules the QR specification asks for."""


@dataclass(frozen=True, slots=True)
class LabelText:
    text: str
    font: str
    size: float
    x: float
    y: float


def qr_modules(payload: str) -> list[list[bool]]:
    """QR code (error correction M) of `payload`, as rows of dark/light modules.

    reportlab's encoder picks the "best" of eight masks by scoring each (8x the work); every mask
    is valid and decoders read it from the symbol, so the first is used: 400,000 labels' codes
    take minutes instead of quarter-hours."""
    version = 1
    while True:
        try:
            code = QRCode(version, QRErrorCorrectLevel.M)
            code.addData(payload)
            code.makeImpl(False, 0)
            break
        except Exception:  # reportlab raises a bare Exception when the data overflows a version
            version += 1
            if version > 10:
                raise
    n: int = code.getModuleCount()  # type: ignore[no-untyped-call]
    return [[code.isDark(r, c) is True for c in range(n)] for r in range(n)]  # type: ignore[no-untyped-call]


@dataclass(frozen=True, slots=True)
class PrintedLabel:
    """One label of a sheet: a QR code of `payload` and up to five text lines (text, font, size)."""

    payload: str
    lines: tuple[tuple[str, str, float], ...]


def cable_label_lines(c: SheetCable, end: str) -> tuple[tuple[str, str, float], ...]:
    """A cable's label for end `end`: its ID, both ends of its label, the end, length, medium, part."""
    a, b = label_halves(c.label)
    return (
        (c.cable_id, BOLD, 10.0),
        (a, FONT, 8.5),
        (b, FONT, 8.5),
        (f"END {end}   {netbox_length(c.ordered_mm)} m   {c.medium.value}", BOLD, 7.0),
        (c.part_number, FONT, 6.0),
    )


def laid_out(lines: Sequence[tuple[str, str, float]], x: float, y: float, grid: LabelSheetGrid) -> list[LabelText]:
    """`lines` laid out in the label at (x, y), each shrunk to the text box right of the QR code."""
    left = x + LABEL_PAD + QR_SIZE + 1.5 * mm
    width = x + grid.label_w - LABEL_PAD - left
    out: list[LabelText] = []
    top = y + grid.label_h - LABEL_PAD - 8
    step = (grid.label_h - 2 * LABEL_PAD - 6) / len(lines)
    for i, (text, font, size) in enumerate(lines):
        text, s = fit(text, font, size, width)
        out.append(LabelText(text, font, s, left, top - i * step))
    return out


def label_texts(c: SheetCable, end: str, x: float, y: float, grid: LabelSheetGrid) -> list[LabelText]:
    """The text lines of the label for end `end` ("A"/"B") of `c`, laid out in the label at (x, y),
    each shrunk to the text box right of the QR code."""
    return laid_out(cable_label_lines(c, end), x, y, grid)


def _draw_qr(canvas: Canvas, payload: str, x: float, y: float) -> None:
    modules = qr_modules(payload)
    n = len(modules) + 2 * QR_QUIET_MODULES
    m = QR_SIZE / n
    path = canvas.beginPath()
    for r, row in enumerate(modules):
        top = y + QR_SIZE - (r + QR_QUIET_MODULES + 1) * m
        c = 0
        while c < len(row):  # one rectangle per run of dark modules: a quarter of the drawing ops
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                path.rect(x + (start + QR_QUIET_MODULES) * m, top, (c - start) * m, m)
            else:
                c += 1
    canvas.drawPath(path, stroke=0, fill=1)


def label_sheet_pdf(out: BinaryIO, cables: Iterable[SheetCable], title: str, grid: LabelSheetGrid = AVERY_L7160) -> int:
    """Two labels per cable (end A, end B) filling the sheet's grid row by row; each with the
    cable ID as a QR code and in text, both ends of the label, the end it belongs on, ordered
    length, medium and part. Returns the number of labels."""
    labels = (PrintedLabel(c.cable_id, cable_label_lines(c, end)) for c in cables for end in ("A", "B"))
    return labels_pdf(out, labels, title, grid, empty="no cables")


def labels_pdf(
    out: BinaryIO,
    labels: Iterable[PrintedLabel],
    title: str,
    grid: LabelSheetGrid = AVERY_L7160,
    empty: str = "no labels",
) -> int:
    """`labels` filling the sheet's grid row by row, each with its QR code left of its text lines.
    Returns the number of labels; none: one page saying `empty`."""
    canvas = Canvas(out, pagesize=grid.page, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Loopline")
    i = 0
    for label in labels:
        slot = i % grid.per_page
        if slot == 0 and i:
            canvas.showPage()
        x, y = grid.origin(slot)
        _draw_qr(canvas, label.payload, x + LABEL_PAD, y + (grid.label_h - QR_SIZE) / 2)
        text = canvas.beginText()
        for t in laid_out(label.lines, x, y, grid):
            text.setFont(t.font, t.size)
            text.setTextOrigin(t.x, t.y)
            text.textOut(t.text)
        canvas.drawText(text)
        i += 1
    if i == 0:
        canvas.setFont(FONT, 10)
        canvas.drawString(20 * mm, grid.page[1] - 20 * mm, f"{title}: {empty}")
    canvas.save()
    return i


LABEL_PIECE_CABLES = 42
"""Cables drawn at a time for a streamed label sheet: 84 labels, 4 whole sheets of 21, ~0.15 s on
one core, so the first sheets leave at once and a piece's fixed cost (a reportlab document) stays
small beside its drawing."""


def label_piece_cables(grid: LabelSheetGrid, about: int = LABEL_PIECE_CABLES) -> int:
    """Cables per piece near `about` whose two labels each fill whole sheets (a multiple of 21 on a
    21-label grid): a piece never ends mid-sheet, so the pieces' pages are the group's pages."""
    unit = grid.per_page // gcd(grid.per_page, 2)
    return max(1, round(about / unit)) * unit


def label_sheet_stream(
    groups: Iterable[Iterable[SheetCable]],
    title: str,
    grid: LabelSheetGrid = AVERY_L7160,
    more: Iterable[PrintedLabel] = (),
) -> Iterator[bytes]:
    """One PDF of the labels of every group, each group starting on a new sheet (its pages are
    exactly those `label_sheet_pdf` draws for it alone), then the labels `more` (a structured plan's
    cords, trunk ends and panel ports) from a new sheet, sent a few sheets at a time as they are
    drawn (`pdf_stream`). No label at all: the one page saying so."""
    per_piece = label_piece_cables(grid)
    per_more = 2 * per_piece

    def drawn(cables: Sequence[SheetCable]) -> bytes:
        out = io.BytesIO()
        label_sheet_pdf(out, cables, title, grid)
        return out.getvalue()

    def drawn_more(labels: Sequence[PrintedLabel]) -> bytes:
        out = io.BytesIO()
        labels_pdf(out, labels, title, grid)
        return out.getvalue()

    def pieces() -> Iterator[bytes]:
        empty = True
        for group in groups:
            cables = iter(group)
            while piece := list(islice(cables, per_piece)):
                empty = False
                yield drawn(piece)
        rest = iter(more)
        while labels := list(islice(rest, per_more)):
            empty = False
            yield drawn_more(labels)
        if empty:
            yield drawn([])

    return joined_pdf(pieces(), title)


def labels_stream(labels: Iterable[PrintedLabel], title: str, grid: LabelSheetGrid = AVERY_L7160) -> Iterator[bytes]:
    """One PDF of `labels`, sent a few whole sheets at a time as they are drawn (`pdf_stream`)."""
    per_piece = max(1, round(2 * LABEL_PIECE_CABLES / grid.per_page)) * grid.per_page

    def drawn(piece: Sequence[PrintedLabel]) -> bytes:
        out = io.BytesIO()
        labels_pdf(out, piece, title, grid)
        return out.getvalue()

    def pieces() -> Iterator[bytes]:
        it = iter(labels)
        first = True
        while (piece := list(islice(it, per_piece))) or first:
            first = False
            yield drawn(piece)

    return joined_pdf(pieces(), title)
