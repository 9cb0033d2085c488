"""One label PDF written as its sheets are drawn (`domain/pdf_stream.py`): a valid PDF whose pages
are, content stream for content stream, the pages reportlab draws for each group alone, and
whose first bytes leave before the second piece is drawn."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PageObject, PdfReader

from loopline.domain import pdf_stream, print_sheets
from loopline.domain.exports import SheetCable
from loopline.domain.media import Medium
from loopline.domain.pdf_stream import PieceError, joined_pdf
from loopline.domain.print_sheets import AVERY_L7160, label_piece_cables, label_sheet_pdf, label_sheet_stream

CABLE_ID = re.compile(r"C[0-9a-f]{16}")


def cable(i: int, extra: str = "") -> SheetCable:
    a, b = f"H1.R01.R01-{i // 10:02d}.U{i % 40 + 1:02d}", "H1.R01.R01-00.U42"
    return SheetCable(
        f"C{i:016x}", f"{a}:p1 / {b}:e{i}{extra}", a, "p1", "R01", f"R01-{i // 10:02d}", b, f"e{i}", "R01",
        "R01-00", 25.0, Medium.DAC, f"DAC-25G-{i % 3}M", None, 1000 + i, 1100 + i, 1500 + 500 * (i % 3),
    )  # fmt: skip


def content(page: PageObject) -> bytes:
    stream = page.get_contents()
    assert stream is not None
    return stream.get_data()


def alone(cables: list[SheetCable]) -> bytes:
    out = io.BytesIO()
    label_sheet_pdf(out, cables, "alone")
    return out.getvalue()


def xref_points_at_every_object(pdf: bytes) -> int:
    """A structural check independent of pypdf: every in-use entry of the cross-reference table
    is the byte offset of `N 0 obj` for its own N; the trailer's startxref is the table's offset."""
    start = int(pdf[pdf.rindex(b"startxref") :].split()[1])
    assert pdf[start : start + 5] == b"xref\n"
    lines = pdf[start:].split(b"\n")
    first, count = (int(x) for x in lines[1].split())
    assert first == 0 and lines[2].endswith(b" f ")
    for n, entry in enumerate(lines[3 : 2 + count], start=1):
        at, _gen, kind = entry.split()
        assert kind == b"n" and pdf[int(at) :].startswith(b"%d 0 obj\n" % n), n
    assert re.search(rb"/Size %d\b" % count, pdf[start:])
    return count


def test_one_pdf_holds_each_groups_own_pages_in_order() -> None:
    groups = [[cable(i) for i in range(50)], [cable(100 + i, " Ω漢") for i in range(30)], [cable(200)]]
    pdf = b"".join(label_sheet_stream(groups, "Cable labels: plan é"))
    assert pdf.startswith(b"%PDF-1.4\n") and pdf.endswith(b"%%EOF\n")
    xref_points_at_every_object(pdf)
    reader = PdfReader(io.BytesIO(pdf), strict=True)
    # 50 cables = 100 labels = 5 sheets of 21; 30 = 60 labels = 3; 1 = 2 labels = 1: each group on new sheets.
    assert len(reader.pages) == 5 + 3 + 1
    assert reader.metadata is not None and reader.metadata.title == "Cable labels: plan é"
    alone_pages = [p for g in groups for p in PdfReader(io.BytesIO(alone(g))).pages]
    assert len(alone_pages) == len(reader.pages)
    for i, (got, drawn) in enumerate(zip(reader.pages, alone_pages, strict=True)):
        assert content(got) == content(drawn), f"page {i + 1} is drawn as alone"
        assert got.mediabox == drawn.mediabox
        fonts = {str(f["/BaseFont"]) for f in got["/Resources"]["/Font"].get_object().values()}  # type: ignore[index]
        assert {"/Helvetica", "/Helvetica-Bold"} <= fonts
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert CABLE_ID.findall(text) == [c.cable_id for g in groups for c in g for _ in "AB"]
    # Fonts are written once, however many pieces use them.
    assert pdf.count(b"/BaseFont /Helvetica-Bold") == 1


def test_no_cable_is_the_page_saying_so() -> None:
    reader = PdfReader(io.BytesIO(b"".join(label_sheet_stream([[], []], "Cable labels: plan x"))), strict=True)
    assert len(reader.pages) == 1 and "Cable labels: plan x: no cables" in reader.pages[0].extract_text()


def test_pieces_end_on_whole_sheets() -> None:
    n = label_piece_cables(AVERY_L7160)
    assert n == 42 and 2 * n % AVERY_L7160.per_page == 0
    nine = print_sheets.LabelSheetGrid("3x3", AVERY_L7160.page, 1, 1, 0, 0, 1, 1, 3, 3)
    assert label_piece_cables(nine) == 45  # 9 labels a sheet: 9 cables fill 2 sheets; 45 the nearest to 42
    ten = print_sheets.LabelSheetGrid("2x5", AVERY_L7160.page, 1, 1, 0, 0, 1, 1, 2, 5)
    assert label_piece_cables(ten) == 40  # 10 labels a sheet: 5 cables fill one


def test_the_header_and_each_piece_leave_before_the_next_piece_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    real = print_sheets.label_sheet_pdf

    def counting(out: io.BytesIO, cables: list[SheetCable], title: str, grid: object = AVERY_L7160) -> int:
        drawn.append(len(cables))
        return real(out, cables, title)

    monkeypatch.setattr(print_sheets, "label_sheet_pdf", counting)
    body = label_sheet_stream([[cable(i) for i in range(100)]], "t")
    assert next(body) == pdf_stream.HEADER and drawn == [], "the first byte leaves before anything is drawn"
    first = next(body)
    assert drawn == [42] and first.count(b"/Type /Page\n") == 4, "4 sheets of the first 42 cables"
    rest = list(body)
    assert drawn == [42, 42, 16]
    assert len(PdfReader(io.BytesIO(pdf_stream.HEADER + first + b"".join(rest))).pages) == 4 + 4 + 2


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=4))
def test_any_groups_make_a_valid_pdf_of_their_sheets(sizes: list[int]) -> None:
    groups = [[cable(100 * g + i) for i in range(n)] for g, n in enumerate(sizes)]
    pdf = b"".join(label_sheet_stream(groups, "t"))
    count = xref_points_at_every_object(pdf)
    reader = PdfReader(io.BytesIO(pdf), strict=True)
    assert len(reader.pages) == max(1, sum(-(-2 * n // AVERY_L7160.per_page) for n in sizes))
    assert count == int(reader.trailer["/Size"])  # type: ignore[call-overload]
    ids = CABLE_ID.findall("\n".join(p.extract_text() for p in reader.pages))
    assert ids == [c.cable_id for g in groups for c in g for _ in "AB"]


def test_a_piece_that_is_not_reportlabs_pdf_is_refused() -> None:
    def pieces() -> Iterator[bytes]:
        yield b"%PDF-1.7\n1 0 obj\n<< /Type /ObjStm >>\nendobj\nstartxref\n9\n%%EOF\n"

    body = joined_pdf(pieces(), "t")
    next(body)
    with pytest.raises(PieceError, match="cross-reference"):
        next(body)
