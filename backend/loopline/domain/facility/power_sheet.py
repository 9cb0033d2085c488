"""The power sheet electricians work from: one line per rack and feed, what the feed must carry
against what its breaker allows (DESIGN §6, issue 28). Pure: a plant's racks and their facility report in,
rows out; the CSV, XLSX and PDF writers are the wiring sheet's (`exports.csv_chunks`,
`workbook.workbook_stream`, `print_sheets.power_sheet_pdf`).

Every figure is the checks' own (`checks.facility_report`): a feed's load is what it must carry
alone (the whole rack's maximum draw when the rack has A and B feeds, N+N), its capacity
V x A x phases x power factor and its limit the continuous fraction (80 %) of that. This module
only lays them out; it computes no rule of its own besides the load's share of the limit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from loopline.domain.errors import DomainError
from loopline.domain.facility.model import FacilityReport, Feed, FeedLoad, RackFacility, RackLoad
from loopline.domain.workbook import SheetLayout

OK = "ok"
OVER = "over"

POWER_SHEET_COLUMNS: tuple[str, ...] = (
    "rack", "row", "feed", "voltage_v", "phases", "breaker_a", "pdu_model", "load_w", "capacity_w", "limit_w",
    "pct_of_limit", "phase_w", "typical_w", "status",
)  # fmt: skip
"""`load_w`: what the feed must carry alone (the rack's maximum draw under N+N); `limit_w`: the
continuous limit (80 % of `capacity_w`); `phase_w`: per phase, `/`-separated; `typical_w`: the
whole rack's typical draw."""

_WIDTHS = {"rack": 18, "row": 8, "feed": 6, "pdu_model": 24, "phase_w": 22, "status": 8}
_FORMATS = {"load_w": "#,##0", "capacity_w": "#,##0", "limit_w": "#,##0", "typical_w": "#,##0", "pct_of_limit": "0.0"}
POWER_SHEET_LAYOUT = SheetLayout(
    columns=POWER_SHEET_COLUMNS,
    widths=[_WIDTHS.get(c, 12) for c in POWER_SHEET_COLUMNS],
    number_format={i: _FORMATS[c] for i, c in enumerate(POWER_SHEET_COLUMNS) if c in _FORMATS},
)


@dataclass(frozen=True, slots=True)
class PowerSheetLine:
    """One rack feed on the power sheet."""

    rack: str
    row: str
    feed: str
    voltage_v: float
    phases: int
    breaker_a: float
    pdu_model: str
    """"" when the feed names no PDU."""
    load_w: float
    capacity_w: float
    limit_w: float
    pct_of_limit: float
    """load / limit x 100, to one decimal."""
    phase_w: tuple[float, ...]
    typical_w: float
    status: str
    """`ok`, or `over` when the load is above the limit."""

    def cells(self) -> tuple[object, ...]:
        """The line in POWER_SHEET_COLUMNS order: watts whole, a percentage to one decimal."""
        return (
            self.rack, self.row, self.feed, _number(self.voltage_v), self.phases, _number(self.breaker_a),
            self.pdu_model, round(self.load_w), round(self.capacity_w), round(self.limit_w), self.pct_of_limit,
            " / ".join(str(round(w)) for w in self.phase_w), round(self.typical_w), self.status,
        )  # fmt: skip


def _number(x: float) -> float | int:
    """230.0 -> 230 (a voltage or breaker rating as a person writes it); 16.5 stays."""
    return int(x) if float(x).is_integer() else x


def pct_of_limit(load_w: float, limit_w: float) -> float:
    if limit_w <= 0:
        return 0.0 if load_w <= 0 else float("inf")
    return round(load_w / limit_w * 100, 1)


def _feed(racks: Mapping[str, RackFacility], rack: RackLoad, load: FeedLoad) -> Feed:
    # A rack the plant has no facility for has the defaults, as the checks read it.
    for feed in racks.get(rack.rack, RackFacility()).feeds:
        if feed.name == load.feed:
            return feed
    raise DomainError("feed", f"rack {rack.rack} has no feed {load.feed}")


def power_sheet_lines(racks: Mapping[str, RackFacility], report: FacilityReport) -> list[PowerSheetLine]:
    """A line per feed of every rack of `report`, by row, rack and feed name; `racks`: the plant's
    racks by rack name (`Plant.racks`), whose feeds give voltage, phases, breaker and PDU model."""
    lines: list[PowerSheetLine] = []
    for rack in sorted(report.racks, key=lambda r: (r.row, r.rack)):
        for load in sorted(rack.feeds, key=lambda f: f.feed):
            feed = _feed(racks, rack, load)
            pct = pct_of_limit(load.load_w, load.limit_w)
            lines.append(
                PowerSheetLine(
                    rack=rack.rack,
                    row=rack.row,
                    feed=load.feed,
                    voltage_v=feed.voltage_v,
                    phases=feed.phases,
                    breaker_a=feed.breaker_a,
                    pdu_model=feed.pdu or "",
                    load_w=load.load_w,
                    capacity_w=load.capacity_w,
                    limit_w=load.limit_w,
                    pct_of_limit=pct,
                    phase_w=load.phase_w,
                    typical_w=rack.typical_w,
                    status=OVER if load.load_w > load.limit_w else OK,
                )  # fmt: skip
            )
    return lines


def power_sheet_rows(lines: Sequence[PowerSheetLine]) -> Iterator[tuple[object, ...]]:
    for line in lines:
        yield line.cells()


def rows_by_row(lines: Sequence[PowerSheetLine]) -> Iterator[tuple[str, list[PowerSheetLine]]]:
    """(row name, its lines), rows in sheet order: a worksheet and a PDF section per row."""
    current: list[PowerSheetLine] = []
    for line in lines:
        if current and current[0].row != line.row:
            yield current[0].row, current
            current = []
        current.append(line)
    if current:
        yield current[0].row, current
