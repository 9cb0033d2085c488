"""The power sheet (issue 28 item 6): a line per rack feed, hand-derived, and its CSV, XLSX and PDF
read back."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from loopline.domain.errors import DomainError
from loopline.domain.exports import SheetContext, csv_chunks
from loopline.domain.facility.model import (
    FacilityReport,
    FacilityTotals,
    Feed,
    FeedLoad,
    RackFacility,
    RackLoad,
)
from loopline.domain.facility.power_sheet import (
    POWER_SHEET_COLUMNS,
    POWER_SHEET_LAYOUT,
    power_sheet_lines,
    power_sheet_rows,
    rows_by_row,
)
from loopline.domain.print_sheets import power_sheet_pdf
from loopline.domain.workbook import workbook_stream

HOT = "H1.R01.K01"
COOL = "H1.R02.K01"


def rack_load(rack: str, row: str, max_w: float, typical_w: float, feeds: tuple[FeedLoad, ...]) -> RackLoad:
    return RackLoad(
        rack=rack, row=row, typical_w=typical_w, max_w=max_w, budget_w=None, cooling_w=None, weight_kg=0.0,
        static_load_kg=None, floor_kg_m2=0.0, feeds=feeds, worst_pct=0.0, worst="",
    )  # fmt: skip


def example() -> tuple[dict[str, RackFacility], FacilityReport]:
    """The issue's rack: 40 servers of 700 W max (450 W typical) on 2 x (230 V, 32 A, single-phase)
    feeds at PF 1: each feed alone carries 40 x 700 = 28,000 W against 230 x 32 = 7,360 W capacity,
    0.8 x 7,360 = 5,888 W limit: 28,000 / 5,888 = 475.54 %. And a rack of 6,000 W max (4,200 typical)
    on one 230 V 16 A three-phase feed: 230 x 16 x 3 = 11,040 W, limit 8,832 W, 6,000 / 8,832 = 67.93 %,
    2,000 W a phase."""
    racks = {
        HOT: RackFacility(feeds=(Feed("A", pdu="PDU-1P-32A"), Feed("B", pdu="PDU-1P-32A"))),
        COOL: RackFacility(feeds=(Feed("A", voltage_v=230, phases=3, breaker_a=16),)),
    }
    single = FeedLoad("A", 7360.0, 5888.0, 28000.0, (28000.0,))
    loads = (
        # The report's order is the checks' own: the sheet sorts by row, rack and feed.
        rack_load(COOL, "R02", 6000, 4200, (FeedLoad("A", 11040.0, 8832.0, 6000.0, (2000.0, 2000.0, 2000.0)),)),
        rack_load(HOT, "R01", 28000, 18000, (FeedLoad("B", 7360.0, 5888.0, 28000.0, (28000.0,)), single)),
    )
    totals = FacilityTotals(22200, 34000, 34000, 0, None, 0)
    return racks, FacilityReport(issues=(), racks=loads, trays=(), totals=totals)


EXPECTED = [
    (HOT, "R01", "A", 230, 1, 32, "PDU-1P-32A", 28000, 7360, 5888, 475.5, "28000", 18000, "over"),
    (HOT, "R01", "B", 230, 1, 32, "PDU-1P-32A", 28000, 7360, 5888, 475.5, "28000", 18000, "over"),
    (COOL, "R02", "A", 230, 3, 16, "", 6000, 11040, 8832, 67.9, "2000 / 2000 / 2000", 4200, "ok"),
]


def test_a_line_per_rack_feed_with_the_load_it_must_carry_alone() -> None:
    racks, report = example()
    lines = power_sheet_lines(racks, report)
    assert list(power_sheet_rows(lines)) == EXPECTED
    assert [(row, len(ls)) for row, ls in rows_by_row(lines)] == [("R01", 2), ("R02", 1)]


def test_a_load_exactly_at_its_limit_is_ok_and_one_watt_more_is_over() -> None:
    racks = {HOT: RackFacility(feeds=(Feed("A"),))}
    for load, status, pct in ((5888.0, "ok", 100.0), (5889.0, "over", 100.0)):
        report = FacilityReport((), (rack_load(HOT, "R01", load, load, (FeedLoad("A", 7360, 5888, load, (load,)),)),),
                                (), FacilityTotals(0, 0, 0, 0, None, 0))  # fmt: skip
        (line,) = power_sheet_lines(racks, report)
        assert (line.status, line.pct_of_limit) == (status, pct)


def test_a_rack_without_facility_has_the_default_feeds_and_a_feed_the_rack_lacks_is_refused() -> None:
    racks, report = example()
    lines = power_sheet_lines({HOT: racks[HOT]}, report)
    assert [(x.rack, x.feed, x.voltage_v, x.phases, x.breaker_a, x.pdu_model) for x in lines][2] == (
        COOL, "A", 230.0, 1, 32.0, "",
    ), "the defaults: 230 V, single-phase, 32 A, no PDU"  # fmt: skip
    with pytest.raises(DomainError) as e:
        power_sheet_lines({HOT: RackFacility(feeds=(Feed("A"),)), COOL: racks[COOL]}, report)
    assert e.value.field == "feed" and "no feed B" in e.value.reason


def test_csv_xlsx_and_pdf_carry_the_same_lines() -> None:
    racks, report = example()
    lines = power_sheet_lines(racks, report)

    text = "".join(csv_chunks(POWER_SHEET_COLUMNS, power_sheet_rows(lines)))
    got = list(csv.reader(io.StringIO(text)))
    assert got[0] == list(POWER_SHEET_COLUMNS)
    assert got[1:] == [[str(v) for v in row] for row in EXPECTED]

    sheets = [(row, power_sheet_rows(ls)) for row, ls in rows_by_row(lines)]
    book = load_workbook(io.BytesIO(b"".join(workbook_stream(sheets, POWER_SHEET_LAYOUT))))
    assert book.sheetnames == ["R01", "R02"]
    r01 = [list(r) for r in book["R01"].iter_rows(values_only=True)]
    assert r01[0] == list(POWER_SHEET_COLUMNS)
    assert [tuple(r) for r in r01[1:]] == EXPECTED[:2]
    assert book["R01"].freeze_panes == "A2"
    load_cell = book["R01"].cell(row=2, column=POWER_SHEET_COLUMNS.index("load_w") + 1)
    assert load_cell.value == 28000 and load_cell.number_format == "#,##0"

    out = io.BytesIO()
    ctx = SheetContext(site="S1", hall="H1", via="tray", rack_face={})
    pages = power_sheet_pdf(out, lines, ctx, "Power sheet: hall H1", "limit = 80 % of V x A x phases x PF 1")
    assert out.getvalue().startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(out.getvalue()))
    assert pages == len(reader.pages) == 2, "a page per row"
    first, second = (p.extract_text() for p in reader.pages)
    assert "Row R01" in first and HOT in first and "28,000" in first and "5,888" in first and "475.5 %" in first
    assert first.count("OVER") == 2 and "limit = 80 %" in first
    assert "Row R02" in second and COOL in second and "2,000 / 2,000 / 2,000" in second and "OK" in second
    assert [o.title for o in reader.outline if not isinstance(o, list)] == ["Row R01", "Row R02"]
