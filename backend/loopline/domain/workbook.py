"""Streamed ZIP containers: the XLSX wiring workbook and the NetBox import bundle. Pure: rows in,
bytes out, a piece at a time.

openpyxl's write-only mode keeps no rows in memory, but it spools each worksheet to a temporary
file and only builds the ZIP when the workbook is saved: for 200,000 cables the first byte would
leave after the whole workbook is written. Here every worksheet's XML is still written by
openpyxl's own `WorksheetWriter` (cells, frozen pane, filter, widths, print setup), but straight
into its entry of a `zipfile` that writes to a non-seekable sink (sizes go in data descriptors),
drained every few hundred rows: the download starts with the first rows. The workbook's other
parts (styles, workbook.xml with print titles, content types) come last from openpyxl's
`ExcelWriter`, which is told the sheets are already in the archive.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.writer.excel import ExcelWriter

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

FLUSH_ROWS = 500
"""Rows between two drains of the sink: ~100 kB of compressed XML."""
FIRST_FLUSH_ROWS = 50
"""The first drain comes sooner: the download starts with the first rows."""
INVALID_TITLE = str.maketrans({c: "_" for c in "[]:*?/\\"})
MAX_TITLE = 31


class ByteSink(io.RawIOBase):
    """A write-only, non-seekable file: what is written is taken out in pieces by the streamer."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer) -> int:
        chunk = bytes(data)
        self._parts.append(chunk)
        return len(chunk)

    def take(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


def zip_stream(members: Iterable[tuple[str, Iterable[bytes]]]) -> Iterator[bytes]:
    """A ZIP of `members` (name, content pieces), yielded as it is compressed."""
    sink = ByteSink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, pieces in members:
            with archive.open(name, "w", force_zip64=True) as entry:
                for piece in pieces:
                    entry.write(piece)
                    if data := sink.take():
                        yield data
            yield sink.take()
    yield sink.take()


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """How every worksheet looks: column titles and widths (characters), the numeric columns'
    format, and which text is stored as text whatever it looks like."""

    columns: Sequence[str]
    widths: Sequence[float]
    number_format: dict[int, str]


def sheet_title(name: str, taken: set[str]) -> str:
    """Excel's rules: at most 31 characters, none of []:*?/\\, not blank, unique (case-blind)."""
    base = (name.translate(INVALID_TITLE).strip("'") or "Sheet")[:MAX_TITLE]
    title, n = base, 1
    while title.lower() in taken:
        n += 1
        title = f"{base[: MAX_TITLE - len(str(n)) - 1]}~{n}"
    taken.add(title.lower())
    return title


class _StreamedSheetsWriter(ExcelWriter):  # type: ignore[misc]
    """openpyxl's workbook writer, for worksheets already written into the archive."""

    def write_worksheet(self, ws: WriteOnlyWorksheet) -> None:
        ws._drawing = None
        ws._rels = ws._writer._rels
        self.manifest.append(ws)


def _cell(ws: WriteOnlyWorksheet, value: object, fmt: str | None = None) -> object:
    """Text is stored as text: openpyxl would store a name starting with `=` as a live formula."""
    if isinstance(value, str) and value.startswith("="):
        cell = WriteOnlyCell(ws, value)
        cell.data_type = "s"
        return cell
    if fmt is not None and isinstance(value, int | float):
        cell = WriteOnlyCell(ws, value)
        cell.number_format = fmt
        return cell
    return value


def _prepare(ws: WriteOnlyWorksheet, layout: SheetLayout) -> None:
    ws.freeze_panes = "A2"
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = "9"  # A4 (ECMA-376 ST_PaperSize)
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.gridLines = True
    for i, width in enumerate(layout.widths, 1):
        ws.column_dimensions[get_column_letter(i)].width = width


def workbook_stream(sheets: Iterable[tuple[str, Iterable[Sequence[object]]]], layout: SheetLayout) -> Iterator[bytes]:
    """An XLSX with one worksheet per (name, rows), streamed: bold frozen header row, an autofilter
    over the data, column widths, landscape A4 fitted to the page width, header repeated on
    every printed page."""
    book = Workbook(write_only=True)
    sink = ByteSink()
    archive = zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED)
    header_font = Font(bold=True)
    header_fill = PatternFill("solid", fgColor="DDDDDD")
    taken: set[str] = set()
    last_col = get_column_letter(len(layout.columns))
    for name, rows in sheets:
        ws = book.create_sheet(title=sheet_title(name, taken))
        ws._id = len(book.worksheets)
        _prepare(ws, layout)
        with archive.open(ws.path[1:], "w", force_zip64=True) as entry:
            ws._writer = WorksheetWriter(ws, out=entry)
            ws._writer.write_top()
            header = []
            for title in layout.columns:
                cell = WriteOnlyCell(ws, title)
                cell.font = header_font
                cell.fill = header_fill
                cell.alignment = Alignment(vertical="center")
                header.append(cell)
            ws.append(header)
            n = 0
            for row in rows:
                ws.append([_cell(ws, v, layout.number_format.get(i)) for i, v in enumerate(row)])
                n += 1
                if (n % FLUSH_ROWS == 0 or n == FIRST_FLUSH_ROWS) and (data := sink.take()):
                    yield data
            ws.auto_filter.ref = f"A1:{last_col}{n + 1}"
            ws.close()
        yield sink.take()
    if not book.worksheets:
        ws = book.create_sheet(title="No cables")
        ws._id = 1
        with archive.open(ws.path[1:], "w") as entry:
            ws._writer = WorksheetWriter(ws, out=entry)
            ws._writer.write_top()
            ws.append(list(layout.columns))
            ws.close()
    _StreamedSheetsWriter(book, archive).write_data()
    archive.close()
    yield sink.take()
