"""Exports of a stored plan, streamed from the database: wiring sheet (CSV, XLSX, PDF), label sheet
(PDF), pull list (CSV), NetBox import (the cables CSV, or every object as a ZIP of CSVs); and a
hall's power sheet (CSV, XLSX, PDF), with a plan's optics when one is named.

Each function checks what can be refused (names NetBox would refuse, a label sheet too big to
print at once) and loads the hall before it returns, so a refusal is a 4xx before any byte is
sent; it returns an iterator of bytes that reads the cables through a server-side cursor
(`yield_per`) as the body is sent. Memory stays flat whatever the plan's size (see
scripts/bench_exports.py).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import chain, groupby, islice
from typing import Any

from sqlalchemy import ColumnElement, Select, String, bindparam, exists, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanChainStepRow, PlanDeviceRow, WiringPlanRow
from loopline.domain import netbox
from loopline.domain.device_names import LOCATION_NAMES, DeviceNames
from loopline.domain.errors import DomainError
from loopline.domain.exports import (
    NETBOX_COLUMNS,
    PULL_LIST_COLUMNS,
    WIRING_SHEET_COLUMNS,
    PullGroup,
    SheetCable,
    SheetContext,
    csv_chunks,
    netbox_rows,
    pull_list_rows,
    wiring_sheet_rows,
)
from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import DeviceFacts, Plant, RackFacility
from loopline.domain.facility.power_sheet import (
    POWER_SHEET_COLUMNS,
    POWER_SHEET_LAYOUT,
    PowerSheetLine,
    power_sheet_lines,
    power_sheet_rows,
    rows_by_row,
)
from loopline.domain.labels import rack_name
from loopline.domain.layout import Hall
from loopline.domain.media import Medium
from loopline.domain.print_sheets import label_sheet_pdf as render_label_sheet
from loopline.domain.print_sheets import label_sheet_stream as render_label_stream
from loopline.domain.print_sheets import labels_stream as render_labels_stream
from loopline.domain.print_sheets import power_sheet_pdf as render_power_sheet
from loopline.domain.print_sheets import wiring_sheet_pdf as render_wiring_sheet
from loopline.domain.print_sheets import work_order_pdf as render_work_order
from loopline.domain.wiring.work_order import WORK_ORDER_COLUMNS, Phase, WorkStep, work_order_rows
from loopline.domain.workbook import SheetLayout, workbook_stream, zip_stream
from loopline.services import facility_plant, structured_exports, wiring_compare, wiring_diff_cables, wiring_plant
from loopline.services.device_naming import names_for_export
from loopline.services.layout_snapshot import domain_catalog, get_hall_or_404, load_catalog, load_hall

YIELD_PER = 2000
"""Cables fetched per round trip of the server-side cursor."""
FILE_CHUNK = 256 * 1024
LABEL_PDF_CABLES = 400
"""A row's label sheet of at most this many cables is one PDF (800 labels, 39 sheets, ~1.4 s to
render on one core: reportlab writes a document once it is complete, so its first byte waits for
its last label); a larger row, or the whole plan, is a ZIP of PDFs of LABEL_FILE_CABLES cables."""
LABEL_FILE_CABLES = 200
"""Cables per PDF in a label ZIP (400 labels, 20 sheets, ~0.7 s to render, ~3.4 ms a cable with
its two QR codes): whole racks while they fit, so a rack's labels are printed together."""
PLANT_LABELS_FILE = "labels-plant.pdf"
"""A structured plan's label ZIP: the cords', trunk ends' and panel ports' labels, after the cables'."""
MAX_SHEET_PDF_CABLES = 100_000
"""reportlab holds every page until the document is complete (~1 MB per 1,000 cables): one row's
printable sheet of more cables (~4,400 pages) is refused, so the API stays under 500 MB."""


@dataclass(frozen=True, slots=True)
class PrintDownload:
    """A printable export's body: one PDF, or (`zipped`) a ZIP of PDFs streamed one by one."""

    body: Iterator[bytes]
    zipped: bool


_CABLE_COLUMNS: tuple[Any, ...] = (
    PlanCableRow.cable_id, PlanCableRow.label,
    PlanCableRow.a_device, PlanCableRow.a_port, PlanCableRow.a_row, PlanCableRow.a_rack,
    PlanCableRow.b_device, PlanCableRow.b_port, PlanCableRow.b_row, PlanCableRow.b_rack,
    PlanCableRow.gbps, PlanCableRow.medium, PlanCableRow.part_number, PlanCableRow.transceiver,
    PlanCableRow.raw_mm, PlanCableRow.slack_mm, PlanCableRow.ordered_mm,
)  # fmt: skip


def _c(column: Any) -> ColumnElement[str]:
    """Names sort by code point, as Python sorts them, whatever the database's collation."""
    return column.collate("C")  # type: ignore[no-any-return]


def _sheet_cable(r: Sequence[Any]) -> SheetCable:
    return SheetCable(
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], Medium(r[11]), r[12], r[13], r[14],
        r[15], r[16],
    )  # fmt: skip


def _stream(session: Session, stmt: Select[Any]) -> Iterator[Sequence[Any]]:
    yield from session.execute(stmt, execution_options={"yield_per": YIELD_PER})


def _in_row(stmt: Select[Any], row: str | None) -> Select[Any]:
    return stmt if row is None else stmt.where((PlanCableRow.a_row == row) | (PlanCableRow.b_row == row))


def _in_rack(stmt: Select[Any], rack: str | None) -> Select[Any]:
    return stmt if rack is None else stmt.where((PlanCableRow.a_rack == rack) | (PlanCableRow.b_rack == rack))


def _without_plant_links(stmt: Select[Any], plan_id: int) -> Select[Any]:
    """Only the plan's cables that are cables: a structured link (one with chain steps) is its cords
    and trunk, labelled as those."""
    step = PlanChainStepRow
    return stmt.where(
        ~exists(select(step.cable_id).where(step.plan_id == plan_id, step.cable_id == PlanCableRow.cable_id))
    )


def _cables(
    session: Session,
    plan_id: int,
    row: str | None,
    *order: Any,
    rack: str | None = None,
    without_plant_links: bool = False,
) -> Iterator[SheetCable]:
    stmt = _in_rack(_in_row(select(*_CABLE_COLUMNS).where(PlanCableRow.plan_id == plan_id), row), rack)
    if without_plant_links:
        stmt = _without_plant_links(stmt, plan_id)
    for r in _stream(session, stmt.order_by(*order, PlanCableRow.seq)):
        yield _sheet_cable(r)


def _context(session: Session, plan: WiringPlanRow) -> tuple[SheetContext, Hall]:
    hall = load_hall(session, plan.hall_id)
    faces = {rack_name(hall.name, r.name, k.name): k.port_face.value for r in hall.rows for k in r.racks}
    names = names_for_export(session, plan.hall_id)
    return SheetContext(site=hall.site, hall=hall.name, via=plan.via, rack_face=faces, names=names), hall


def _named(cables: Iterator[SheetCable], names: DeviceNames) -> Iterator[SheetCable]:
    """Cables as a label prints them: the label with the devices' host names."""
    if names is LOCATION_NAMES:
        yield from cables
        return
    for c in cables:
        yield replace(c, label=names.label(c.a_device, c.a_port, c.b_device, c.b_port))


def _encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    for piece in pieces:
        yield piece.encode()


def wiring_sheet_csv(
    session: Session, plan: WiringPlanRow, row: str | None = None, rack: str | None = None
) -> Iterator[bytes]:
    ctx, _ = _context(session, plan)
    cables = _cables(session, plan.id, row, rack=rack)
    return _encoded(csv_chunks(WIRING_SHEET_COLUMNS, wiring_sheet_rows(cables, ctx)))


# --- XLSX ---------------------------------------------------------------------------------------

_LENGTH_COLUMNS = {"raw_length_m", "length_with_slack_m", "ordered_length_m"}
WORKBOOK_LAYOUT = SheetLayout(
    columns=WIRING_SHEET_COLUMNS,
    widths=[
        {"cable_id": 19, "label": 40, "a_device": 18, "b_device": 18, "part_number": 24}.get(
            c, 14 if c in _LENGTH_COLUMNS else 9 if c.endswith(("_site", "_u", "_face", "_port")) else 11
        )
        for c in WIRING_SHEET_COLUMNS
    ],  # fmt: skip
    number_format={i: "0.000" for i, c in enumerate(WIRING_SHEET_COLUMNS) if c in _LENGTH_COLUMNS},
)
_LENGTH_INDEXES = frozenset(WORKBOOK_LAYOUT.number_format)


def _numeric_lengths(rows: Iterable[Sequence[object]]) -> Iterator[Sequence[object]]:
    """Lengths as numbers in a workbook (the CSV writes them as fixed-point text)."""
    for r in rows:
        yield [float(str(v)) if i in _LENGTH_INDEXES else v for i, v in enumerate(r)]


def _sheets_per_row(session: Session, plan_id: int) -> Iterator[tuple[str, Iterator[SheetCable]]]:
    """(row, its cables) in row order; a cable between two rows is on both rows' sheets. Each
    sheet reads the plan in its stored order (the (plan, seq) key), so its first rows come at
    once: ordering the whole plan by row first would sort every cable before the first byte."""
    a = select(PlanCableRow.a_row.label("name")).where(PlanCableRow.plan_id == plan_id)
    b = select(PlanCableRow.b_row).where(PlanCableRow.plan_id == plan_id)
    names = sorted(session.execute(a.union(b)).scalars())
    for name in names:
        yield name, _cables(session, plan_id, name)


def wiring_sheet_xlsx(session: Session, plan: WiringPlanRow, per_row: bool, rack: str | None = None) -> Iterator[bytes]:
    """One sheet for the whole plan, or one per row (a cable between two rows is on both); with
    `rack`, one sheet of the cables with an end in that rack."""
    ctx, _ = _context(session, plan)
    if rack is not None:
        rack_rows = _numeric_lengths(wiring_sheet_rows(_cables(session, plan.id, None, rack=rack), ctx))
        sheets: Iterable[tuple[str, Iterable[Sequence[object]]]] = [(rack, rack_rows)]
    elif per_row:
        sheets = (
            (name, _numeric_lengths(wiring_sheet_rows(cables, ctx)))
            for name, cables in _sheets_per_row(session, plan.id)
        )
    else:
        sheets = [("All cables", _numeric_lengths(wiring_sheet_rows(_cables(session, plan.id, None), ctx)))]
    return workbook_stream(sheets, WORKBOOK_LAYOUT)


# --- PDF ----------------------------------------------------------------------------------------


def _spooled(render: Any) -> Iterator[bytes]:
    """reportlab writes a document when it is complete: render into a temporary file (pages are
    kept compressed until then), then send the file in pieces."""
    with tempfile.TemporaryFile() as spool:
        render(spool)
        spool.seek(0)
        while chunk := spool.read(FILE_CHUNK):
            yield chunk


def _print_order() -> tuple[Any, ...]:
    return (_c(PlanCableRow.a_row), _c(PlanCableRow.a_rack))


def _entry_name(text: str) -> str:
    """A ZIP entry name from row and rack names (any text): no folders, no drive letters."""
    return "".join("_" if c in "/\\:" or not c.isprintable() else c for c in text)


def _row_counts(session: Session, plan_id: int) -> dict[str, int]:
    """Cables with an end in each row (a cable between two rows counts in both), by row name."""
    c = PlanCableRow
    ends = (
        select(c.a_row.label("name"))
        .where(c.plan_id == plan_id)
        .union_all(select(c.b_row).where((c.plan_id == plan_id) & (c.b_row != c.a_row)))
        .subquery()
    )
    counts = session.execute(select(ends.c.name, func.count()).group_by(ends.c.name)).all()
    return dict(sorted((name, n) for name, n in counts))


def wiring_sheet_pdf(session: Session, plan: WiringPlanRow, row: str | None = None) -> PrintDownload:
    """One row: a PDF. The whole plan: a ZIP of one row's PDF per row (the `?row=` PDF of each),
    each rendered and sent before the next is started, so the download starts with the first
    row and only one row's pages are ever held (reportlab keeps a document's pages until it is
    complete)."""
    ctx, _ = _context(session, plan)
    if row is not None:
        _at_most(session, plan, row, MAX_SHEET_PDF_CABLES, "printable wiring sheets")
        title = f"Wiring sheet: plan {plan.name}, row {row}"
        cables = _cables(session, plan.id, row, *_print_order())
        return PrintDownload(_spooled(lambda out: render_wiring_sheet(out, cables, ctx, title)), zipped=False)
    counts = _row_counts(session, plan.id)
    for name, n in counts.items():
        if n > MAX_SHEET_PDF_CABLES:
            _at_most(session, plan, name, MAX_SHEET_PDF_CABLES, "printable wiring sheets")

    def sheet(name: str) -> Iterator[bytes]:
        title = f"Wiring sheet: plan {plan.name}, row {name}"
        cables = _cables(session, plan.id, name, *_print_order())
        return _spooled(lambda out: render_wiring_sheet(out, cables, ctx, title))

    members = ((f"wiring-row-{_entry_name(name)}.pdf", sheet(name)) for name in counts)
    return PrintDownload(zip_stream(members), zipped=True)


def _at_most(session: Session, plan: WiringPlanRow, row: str | None, limit: int, what: str) -> None:
    count = session.execute(
        _in_row(select(func.count()).select_from(PlanCableRow).where(PlanCableRow.plan_id == plan.id), row)
    ).scalar_one()
    if count > limit:
        where = f"row {row}" if row else "the plan"
        raise DomainError(
            "row", f"{where} has {count} cables; {what} are made for at most {limit} cables at a time: choose a row"
        )


@dataclass(frozen=True, slots=True)
class LabelFile:
    """One PDF of a label ZIP: `cables` consecutive cables in print order, from `first` to `last` rack."""

    row: str
    first: str
    last: str
    part: int
    cables: int

    @property
    def name(self) -> str:
        racks = self.first if self.first == self.last else f"{self.first}--{self.last}"
        return _entry_name(f"labels-{racks}" + (f"-part-{self.part}" if self.part else "") + ".pdf")


def label_files(racks: Iterable[tuple[str, str, int]], most: int) -> list[LabelFile]:
    """(A row, A rack, cables) in print order grouped into files: whole racks of one row while
    they fit in `most` cables; a rack of more is cut into parts of `most` (part 1, 2, ...)."""
    files: list[LabelFile] = []
    open_: LabelFile | None = None
    for row, rack, n in racks:
        if open_ is not None and (open_.row != row or open_.cables + n > most):
            files.append(open_)
            open_ = None
        if n > most:
            files += [LabelFile(row, rack, rack, i + 1, min(most, n - i * most)) for i in range(-(-n // most))]
        elif open_ is None:
            open_ = LabelFile(row, rack, rack, 0, n)
        else:
            open_ = LabelFile(row, open_.first, rack, 0, open_.cables + n)
    if open_ is not None:
        files.append(open_)
    return files


def label_sheet_pdf(
    session: Session, plan: WiringPlanRow, row: str | None = None, one_pdf: bool = False
) -> PrintDownload:
    """A row of at most LABEL_PDF_CABLES cables: one PDF. The whole plan, or a larger row: a ZIP of
    PDFs of at most LABEL_FILE_CABLES cables each (whole racks by A end, a rack of more cut into
    parts; every cable once, its two labels together), each rendered and sent before the next
    is started. `one_pdf`: the sheets of that PDF, or of the ZIP's PDFs together (each file's
    first label on a new sheet), as one PDF sent a few sheets at a time as they are drawn, so it
    starts at once however large the plan."""
    what = f"Cable labels: plan {plan.name}" + (f", row {row}" if row else "")
    names = names_for_export(session, plan.hall_id)
    order = _print_order()
    structured = wiring_plant.is_structured(plan)
    counted = _in_row(
        select(PlanCableRow.a_row, PlanCableRow.a_rack, func.count()).where(PlanCableRow.plan_id == plan.id), row
    )
    if structured:
        counted = _without_plant_links(counted, plan.id)
    racks = session.execute(counted.group_by(PlanCableRow.a_row, PlanCableRow.a_rack).order_by(*order)).all()
    total = sum(n for _, _, n in racks)
    # One cursor in print order, cut into the files' counts (the counts came from the same order).
    stream = _named(_cables(session, plan.id, row, *order, without_plant_links=structured), names)
    # A structured plan's cords, trunk ends and panel ports: with the whole plan's labels (a row's
    # sheet has its cables only: the plant is not laid out by row). Read when the first is drawn,
    # after the direct cables' labels have been sent.
    more = structured_exports.plant_labels(session, plan, names) if structured and row is None else None
    if row is not None and total <= LABEL_PDF_CABLES:
        if one_pdf:
            return PrintDownload(render_label_stream([stream], what), zipped=False)
        return PrintDownload(_spooled(lambda out: render_label_sheet(out, stream, what)), zipped=False)
    files = label_files(((r, k, n) for r, k, n in racks), LABEL_FILE_CABLES)
    if one_pdf:
        groups = (islice(stream, f.cables) for f in files)
        return PrintDownload(render_label_stream(groups, what, more=more or ()), zipped=False)

    def members() -> Iterator[tuple[str, Iterable[bytes]]]:
        for f in files:
            cables = list(islice(stream, f.cables))
            racks_of = f.first if f.first == f.last else f"{f.first} to {f.last}"
            title = f"{what}: {racks_of}" + (f", part {f.part}" if f.part else "")
            yield f.name, _spooled(lambda out, cables=cables, title=title: render_label_sheet(out, cables, title))
        if more is not None:
            yield PLANT_LABELS_FILE, render_labels_stream(more, f"{what}: cords, trunk ends and panel ports")

    return PrintDownload(zip_stream(members()), zipped=True)


# --- pull list ----------------------------------------------------------------------------------


def pull_list_csv(session: Session, plan: WiringPlanRow) -> Iterator[bytes]:
    """Cables of the same part and ordered length between the same two racks, grouped (the
    database does the grouping, so nothing is held here)."""
    lo = func.least(_c(PlanCableRow.a_rack), _c(PlanCableRow.b_rack))
    hi = func.greatest(_c(PlanCableRow.a_rack), _c(PlanCableRow.b_rack))
    stmt = (
        select(
            lo,
            hi,
            PlanCableRow.medium,
            PlanCableRow.part_number,
            PlanCableRow.ordered_mm,
            func.array_agg(PlanCableRow.cable_id.op("ORDER BY")(PlanCableRow.seq)),
        )  # fmt: skip
        .where(PlanCableRow.plan_id == plan.id)
        .group_by(lo, hi, PlanCableRow.medium, PlanCableRow.part_number, PlanCableRow.ordered_mm)
        .order_by(lo, hi, PlanCableRow.part_number, PlanCableRow.ordered_mm)
    )
    groups = (PullGroup(r[0], r[1], Medium(r[2]), r[3], r[4], r[5]) for r in _stream(session, stmt))
    return _encoded(csv_chunks(PULL_LIST_COLUMNS, pull_list_rows(groups, plan.via)))


# --- NetBox -------------------------------------------------------------------------------------


def _check_netbox_names(session: Session, plan_id: int) -> None:
    """The longest label, device and port names of the cables against NetBox's limits, before any
    byte is sent: one scan for the lengths, and only when one is too long a second to name it."""
    c = PlanCableRow
    lengths = {
        "label": func.length(c.label),
        "device": func.greatest(func.length(c.a_device), func.length(c.b_device)),
        "interface": func.greatest(func.length(c.a_port), func.length(c.b_port)),
    }
    longest = session.execute(select(*(func.max(x) for x in lengths.values())).where(c.plan_id == plan_id)).one()
    for (kind, length), most in zip(lengths.items(), longest, strict=True):
        if most is not None and most > netbox.NAME_LIMITS[kind]:
            label, a_dev, b_dev, a_port, b_port = session.execute(
                select(c.label, c.a_device, c.b_device, c.a_port, c.b_port)
                .where(c.plan_id == plan_id)
                .order_by(length.desc())
                .limit(1)
            ).one()
            value = {"label": label, "device": max(a_dev, b_dev, key=len), "interface": max(a_port, b_port, key=len)}
            netbox.check_length(kind, value[kind])


def netbox_csv(session: Session, plan: WiringPlanRow, colours: Mapping[str, str] | None = None) -> Iterator[bytes]:
    ctx, _ = _context(session, plan)
    netbox.check_length("site", ctx.site)
    _check_netbox_names(session, plan.id)
    colours = colours or netbox.CABLE_COLOURS
    structured = structured_exports.plant_or_none(session, plan)
    if structured is None:
        rows = netbox_rows(_cables(session, plan.id, None), ctx.site, ctx.names, colours)
        return _encoded(csv_chunks(NETBOX_COLUMNS, rows))
    panels = structured_exports.netbox_plant(structured, ctx.site, ctx.rack_face, ctx.names, dict(colours))
    direct = (c for c in _cables(session, plan.id, None) if c.cable_id not in panels.structured)
    rows = chain(netbox_rows(direct, ctx.site, ctx.names, colours), panels.cables)
    return _encoded(csv_chunks(NETBOX_COLUMNS, rows))


def _racks(hall: Hall) -> list[netbox.NetboxRack]:
    racks = []
    for row in hall.rows:
        for rack in row.racks:
            x0, y0, _, _ = row.footprint(rack)
            t = rack.rack_type
            racks.append(
                netbox.NetboxRack(
                    rack_name(hall.name, row.name, rack.name), t.height_u, t.width_mm, t.depth_mm, row.name, x0, y0
                )
            )
    return racks


def _locations(hall: Hall) -> dict[str, str]:
    """Full rack name -> its row's NetBox location."""
    return {
        rack_name(hall.name, row.name, rack.name): netbox.location_name(hall.name, row.name)
        for row in hall.rows
        for rack in row.racks
    }


def _device_models(session: Session, plan: WiringPlanRow) -> list[str]:
    """The models the plan's devices use; checks the devices' names against NetBox's limits."""
    d = PlanDeviceRow
    kinds = session.execute(
        select(d.model, func.max(func.length(d.name))).where(d.plan_id == plan.id).group_by(d.model)
    ).all()
    if any(longest > netbox.NAME_LIMITS["device"] for _, longest in kinds):
        name = session.execute(
            select(d.name).where(d.plan_id == plan.id).order_by(func.length(d.name).desc()).limit(1)
        ).scalar_one()
        netbox.check_length("device", name)
    return [m for m, _ in kinds]


def _device_types(
    session: Session, plan: WiringPlanRow, hall: Hall, models: list[str]
) -> dict[str, netbox.NetboxDeviceType]:
    """`models` as NetBox device types with an interface template per port: the catalog entry's
    ports (the hall's entries, else the project's by name); a model the wiring made up (the second
    ToR of a parallel port set) has the ports the plan cables on it, and the height of the ToR it
    doubles."""
    known: dict[str, netbox.NetboxDeviceType] = {}
    servers, switches, _ = load_catalog(session, usable_in=plan.project_id)
    catalog = domain_catalog(servers, switches, {})
    for sm in catalog.servers.values():
        known.setdefault(sm.name, netbox.server_type(sm))
    for sw in catalog.switches.values():
        known.setdefault(sw.name, netbox.switch_type(sw))
    tor_height = 1
    for row in hall.rows:
        for rack in row.racks:
            for lr in rack.logical_racks:
                known[lr.server_model.name] = netbox.server_type(lr.server_model)
                known[lr.tor_model.name] = netbox.switch_type(lr.tor_model)
                tor_height = lr.tor_model.height_u
            for fs in rack.fabric_switches:
                known[fs.model.name] = netbox.switch_type(fs.model)
    d, c = PlanDeviceRow, PlanCableRow
    # The cabled ports of models outside the catalog only: a catalog model's ports hold every port
    # the wiring cables (property-tested), and this join scans every cable of the plan.
    unknown = [m for m in models if m not in known]
    model_of = dict(
        session.execute(select(d.name, d.model).where(d.plan_id == plan.id, d.model.in_(unknown))).tuples().all()
        if unknown
        else ()
    )
    cabled: dict[str, list[tuple[str, float]]] = {}
    for device, port in ((c.a_device, c.a_port), (c.b_device, c.b_port)) if model_of else ():
        # One scan of the plan's cables, the devices' names as one array parameter: a join on names
        # took ~4 s a side on the 220,400-cable bench plan.
        stmt = (
            select(device, port, func.max(c.gbps))
            .where(c.plan_id == plan.id, device == func.any(bindparam("names", list(model_of), ARRAY(String))))
            .group_by(device, port)
        )
        for name, p, gbps in session.execute(stmt):
            cabled.setdefault(model_of[name], []).append((p, gbps))
    return {m: known[m] if m in known else netbox.cabled_type(m, tor_height, cabled.get(m, [])) for m in models}


def _colours(colours: Mapping[str, str] | None) -> Mapping[str, str]:
    return colours if colours is not None else netbox.CABLE_COLOURS


def _feeds(hall: Hall, plant: Plant) -> list[netbox.NetboxFeed]:
    """Every rack's feeds (a rack the plant holds no facility for has the defaults, as the checks
    read it), in the hall's row and rack order."""
    return [
        netbox.NetboxFeed(
            rack_name(hall.name, row.name, rack.name), row.name, f.name, f.voltage_v, f.phases, f.breaker_a, f.pdu
        )  # fmt: skip
        for row in hall.rows
        for rack in row.racks
        for f in plant.racks.get(rack.name, RackFacility()).feeds
    ]


def _powered(types: Mapping[str, netbox.NetboxDeviceType], plant: Plant) -> dict[str, netbox.NetboxDeviceType]:
    """Device types with their two power supplies, drawn from the catalog's facts (unknown: no draw)."""
    facts = {**plant.switches, **plant.servers}
    out = {}
    for model, t in types.items():
        f = facts.get(model, DeviceFacts())
        out[model] = replace(t, power_ports=netbox.psu_templates(f.max_w, f.typical_w))
    return out


def _devices_by_rack(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[tuple[str, list[str]]]:
    """(rack, its devices' host names in `netbox.power_order`), rack by rack: what plugs into the
    rack's PDUs."""
    d = PlanDeviceRow
    stmt = select(d.rack, d.name, d.u).where(d.plan_id == plan.id).order_by(_c(d.rack), d.u, _c(d.name))
    for rack, group in groupby(_stream(session, stmt), key=lambda r: str(r[0])):
        yield rack, netbox.power_order([(names.host(name), u) for _, name, u in group])


def _power_cables(
    session: Session, plan: WiringPlanRow, hall: Hall, plant: Plant, site: str, names: DeviceNames
) -> list[Sequence[object]]:
    feeds = _feeds(hall, plant)
    outlets = {f.pdu: plant.pdus[f.pdu].outlets for f in feeds if f.pdu is not None}
    return list(netbox.power_cable_rows(site, hall.name, feeds, _devices_by_rack(session, plan, names), outlets))


def netbox_zip(session: Session, plan: WiringPlanRow, colours: Mapping[str, str] | None = None) -> Iterator[bytes]:
    """Every object NetBox needs, one file per object type in import order, and a README."""
    ctx, hall = _context(session, plan)
    site = ctx.site
    # Everything small is built (and checked) now; devices and cables stream later.
    sites = list(netbox.site_rows(site, hall.name))
    locations = list(netbox.location_rows(site, hall.name, [r.name for r in hall.rows]))
    racks = list(netbox.rack_rows(site, hall.name, _racks(hall)))
    rack_locations = _locations(hall)
    models = _device_models(session, plan)
    plant = facility_plant.load_plant(session, plan.hall_id, None)
    feeds = _feeds(hall, plant)
    # A structured plan's panels now (a count, a role, a name check); the rest of its plant is read
    # when the archive reaches the panels' device types, after the members that need none of it.
    plant_panels = structured_exports.stored_panels(session, plan) if wiring_plant.is_structured(plan) else None
    pdu_models = sorted({f.pdu for f in feeds if f.pdu is not None})
    if clash := set(pdu_models) & set(models):
        raise DomainError(
            "pdu_model", f"PDU model {min(clash)!r} has the name of a device model: NetBox needs them apart"
        )
    for panel in plant_panels or ():
        netbox.check_length("device", panel.panel_id)
    if plant_panels and (clash := structured_exports.panel_type_clashes(plant_panels, {*models, *pdu_models})):
        raise DomainError(
            "panel_model", f"panel type {min(clash)!r} has the name of a device model: NetBox needs them apart"
        )
    read: list[structured_exports.NetboxPlant] = []

    def netbox_panels() -> structured_exports.NetboxPlant | None:
        if plant_panels is None:
            return None
        if not read:
            structured = structured_exports.stored_plant(session, plan)
            read.append(
                structured_exports.netbox_plant(structured, site, ctx.rack_face, ctx.names, dict(_colours(colours)))
            )
        return read[0]

    outlets = {name: plant.pdus[name].outlets for name in pdu_models}
    power_panels = list(netbox.power_panel_rows(site, hall.name, [r.name for r in hall.rows]))
    power_feeds = list(netbox.power_feed_rows(site, hall.name, feeds, plant.facility.continuous_fraction))
    pdus = list(netbox.pdu_device_rows(site, feeds, rack_locations))
    d = PlanDeviceRow
    per_rack = dict(
        session.execute(select(d.rack, func.count()).where(d.plan_id == plan.id).group_by(d.rack)).tuples().all()
    )
    unplugged = netbox.unplugged(feeds, per_rack, outlets)

    def device_types() -> Iterator[bytes]:
        # Read when the archive reaches it: a made-up model's ports scan the plan's cables, and a
        # panel's type (a far panel's reversed positions) needs the plant's chains.
        types = _powered(_device_types(session, plan, hall, models), plant)
        types |= {name: netbox.pdu_type(name, n) for name, n in outlets.items()}
        panels = netbox_panels()
        panel_types = {} if panels is None else panels.types
        types |= panel_types
        slugs = netbox.device_type_slugs([*models, *pdu_models, *panel_types])
        yield "".join(netbox.device_types_yaml(types.values(), slugs)).encode()

    roles = session.execute(select(PlanDeviceRow.role).where(PlanDeviceRow.plan_id == plan.id).distinct()).scalars()
    extra_roles = [*([netbox.PDU_ROLE] if pdus else []), *([netbox.PANEL_ROLE] if plant_panels else [])]
    device_roles = list(netbox.device_role_rows([*roles, *extra_roles]))
    _check_netbox_names(session, plan.id)

    def devices() -> Iterator[netbox.NetboxDevice]:
        stmt = select(d.name, d.role, d.rack, d.u, d.model).where(d.plan_id == plan.id)
        for name, role, rack, u, model in _stream(session, stmt.order_by(_c(d.rack), d.u, _c(d.name))):
            face = ctx.rack_face.get(rack, "front")
            yield netbox.NetboxDevice(ctx.names.host(name), role, rack, u, model, face, ctx.names.asset_tag(name))
        if (panels := netbox_panels()) is not None:
            yield from panels.devices

    def cables() -> Iterator[Sequence[object]]:
        direct = _cables(session, plan.id, None)
        if (panels := netbox_panels()) is None:
            yield from netbox_rows(direct, site, ctx.names, _colours(colours))
            return
        # A structured link is its cords and trunk, not a cable of its own.
        yield from netbox_rows(
            (c for c in direct if c.cable_id not in panels.structured), site, ctx.names, _colours(colours)
        )
        yield from panels.cables

    sections: dict[str, Iterable[Sequence[object]]] = {
        "01-sites.csv": sites,
        "02-locations.csv": locations,
        "03-racks.csv": racks,
        "04-manufacturers.csv": list(netbox.manufacturer_rows()),
        "06-device-roles.csv": device_roles,
        "07-devices.csv": chain(netbox.device_rows(site, devices(), rack_locations), pdus),
        "08-cables.csv": cables(),
        "09-power-panels.csv": power_panels,
        "10-power-feeds.csv": power_feeds,
        "11-power-cables.csv": netbox.power_cable_rows(
            site, hall.name, feeds, _devices_by_rack(session, plan, ctx.names), outlets
        ),
    }
    members: list[tuple[str, Iterable[bytes]]] = [
        (
            "README.txt",
            [
                netbox.readme(
                    plan.name,
                    hall.name,
                    _colours(colours),
                    unplugged,
                    None if plant_panels is None else structured_exports.netbox_note(len(plant_panels)),
                ).encode()
            ],
        ),
        *(
            (
                name,
                device_types() if name == netbox.DEVICE_TYPES_YAML else _encoded(csv_chunks(columns, sections[name])),
            )
            for name, columns in netbox.FILES
        ),
    ]
    return zip_stream(members)


def _plan_cables(session: Session, plan_id: int, ids: Iterable[str]) -> list[SheetCable]:
    """The plan's cables of `ids`, in plan order (in batches: an IN list of 100,000 is slow)."""
    wanted = list(ids)
    found: list[tuple[int, SheetCable]] = []
    for i in range(0, len(wanted), 5000):
        stmt = select(PlanCableRow.seq, *_CABLE_COLUMNS).where(
            PlanCableRow.plan_id == plan_id, PlanCableRow.cable_id.in_(wanted[i : i + 5000])
        )
        found += [(r[0], _sheet_cable(r[1:])) for r in session.execute(stmt)]
    return [c for _, c in sorted(found, key=lambda x: x[0])]


def _plan_devices(session: Session, plan_id: int) -> dict[str, netbox.PlanDevice]:
    d = PlanDeviceRow
    stmt = select(d.name, d.role, d.rack, d.u, d.model).where(d.plan_id == plan_id).order_by(d.node_id)
    return {r[0]: netbox.PlanDevice(*r) for r in session.execute(stmt)}


def netbox_upgrade_zip(
    session: Session, old: WiringPlanRow, new: WiringPlanRow, colours: Mapping[str, str] | None = None
) -> Iterator[bytes]:
    """What changes in a NetBox that holds `old` (its netbox.zip) to make it hold `new`, from the
    plans' diff (`wiring_compare.plan_diff`, the one the comparison and the work order read): cables to
    delete (removed, a moved cable's old run, a changed cable's old part) and to add (added, moved,
    changed), devices and the interfaces of kept devices whose model changed, device types and roles
    the new devices need. Small (an upgrade's size), so built at once; refusals come before any byte."""
    d = wiring_compare.plan_diff(session, old, new)
    ctx, hall = _context(session, new)
    site = ctx.site
    netbox.check_length("site", site)
    _check_netbox_names(session, new.id)
    names = ctx.names
    gone = _plan_cables(session, old.id, [*d.removed, *(o for o, _ in d.moved), *d.changed])
    fresh = _plan_cables(session, new.id, [*d.added, *(n for _, n in d.moved), *d.changed])
    plant = facility_plant.load_plant(session, new.hall_id, None)
    old_types = _powered(_device_types(session, old, hall, _device_models(session, old)), plant)
    new_types = _powered(_device_types(session, new, hall, _device_models(session, new)), plant)
    change = netbox.upgrade_changes(
        [n for ns in d.hardware_added.values() for n in ns],
        [n for ns in d.hardware_removed.values() for n in ns],
        _plan_devices(session, old.id),
        _plan_devices(session, new.id),
        old_types,
        new_types,
        ctx.rack_face,
        names,
    )
    slugs = netbox.device_type_slugs([*old_types, *new_types])
    delete_cables = [
        (
            c.label if names is LOCATION_NAMES else names.label(c.a_device, c.a_port, c.b_device, c.b_port),
            names.host(c.a_device), c.a_port, names.host(c.b_device), c.b_port,
        )
        for c in gone
    ]  # fmt: skip
    # Power: the plugs only one plan has (feeds and PDUs are the hall's: the same in both).
    old_power, new_power = (_power_cables(session, p, hall, plant, site, names) for p in (old, new))
    kept = {tuple(r) for r in old_power} & {tuple(r) for r in new_power}
    unplug = [r for r in old_power if tuple(r) not in kept and r[3] == "dcim.poweroutlet"]
    plug = [r for r in new_power if tuple(r) not in kept]
    at = {c: i for i, c in enumerate(netbox.POWER_CABLE_COLUMNS)}
    unplugged: list[Sequence[object]] = [
        [r[at[c]] for c in ("label", "side_a_device", "side_a_name", "side_b_device", "side_b_name")] for r in unplug
    ]
    sections: dict[str, list[Sequence[object]]] = {
        "1-delete-cables.csv": [*delete_cables, *unplugged],
        "2-delete-interfaces.csv": list(change.delete_interfaces),
        "3-delete-devices.csv": [(n,) for n in change.delete_devices],
        "5-device-roles.csv": list(netbox.device_role_rows(change.roles)),
        "6-devices.csv": list(netbox.device_rows(site, change.devices, _locations(hall), change.taken)),
        "7-interfaces.csv": list(netbox.interface_rows(change.interfaces)),
        "8-cables.csv": list(netbox_rows(fresh, site, names, _colours(colours))),
        "9-power-cables.csv": plug,
    }
    device_types = "".join(netbox.device_types_yaml(change.device_types, slugs))
    counts = {name: len(rows) for name, rows in sections.items()}
    counts["4-device-types.yaml"] = len(change.device_types)
    readme = netbox.upgrade_readme(old.name, new.name, hall.name, counts, change.retyped)
    members: list[tuple[str, Iterable[bytes]]] = [("README.txt", [readme.encode()])]
    for name, file_columns in netbox.UPGRADE_FILES:
        if not counts[name]:
            continue
        body = [device_types.encode()] if name.endswith(".yaml") else _encoded(csv_chunks(file_columns, sections[name]))
        members.append((name, body))
    return zip_stream(members)


# --- power sheet of a hall ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PowerSheet:
    """A hall's power sheet, computed in the request (a line per rack feed: small), rendered as sent."""

    ctx: SheetContext
    stem: str
    """File name without its extension."""
    title: str
    head: str
    """How the figures are reckoned, printed under the PDF's title."""
    lines: list[PowerSheetLine]


def power_sheet(session: Session, hall_id: int, plan_id: int | None) -> PowerSheet:
    """The hall's facility report (`checks.facility_report` of `facility_plant.load_plant`), with the
    optics of plan `plan_id` (of this hall) when given, laid out a line per rack feed."""
    get_hall_or_404(session, hall_id)
    plant = facility_plant.load_plant(session, hall_id, plan_id)  # refuses a plan of another hall (`plan_id`)
    plan = None if plan_id is None else session.get(WiringPlanRow, plan_id)
    report = facility_report(plant)
    f = plant.facility
    head = (
        f"limit {f.continuous_fraction * 100:g} % of V x A x phases x PF {f.power_factor:g}; "
        "with A and B feeds each feed alone carries the whole rack (N+N); "
        + (f"devices and the optics of plan {plan.name}" if plan else "devices only (no plan: no optics)")
    )
    what = f"Power sheet: hall {plant.hall.name}" + (f", plan {plan.name}" if plan else "")
    stem = f"hall-{hall_id}-power-sheet" + (f"-plan-{plan.id}" if plan else "")
    ctx = SheetContext(site=plant.hall.site, hall=plant.hall.name, via="", rack_face={})
    return PowerSheet(ctx, stem, what, head, power_sheet_lines(plant.racks, report))


def power_sheet_csv(sheet: PowerSheet) -> Iterator[bytes]:
    return _encoded(csv_chunks(POWER_SHEET_COLUMNS, power_sheet_rows(sheet.lines)))


def power_sheet_xlsx(sheet: PowerSheet) -> Iterator[bytes]:
    """A worksheet per row (a hall without racks: one, "No racks", of the header alone)."""
    sheets: list[tuple[str, Iterable[Sequence[object]]]] = [
        (row, power_sheet_rows(lines)) for row, lines in rows_by_row(sheet.lines)
    ]
    return workbook_stream(sheets or [("No racks", [])], POWER_SHEET_LAYOUT)


def power_sheet_pdf(sheet: PowerSheet) -> Iterator[bytes]:
    """A section per row, to print and tick."""
    return _spooled(lambda out: render_power_sheet(out, sheet.lines, sheet.ctx, sheet.title, sheet.head))


# --- re-cabling work order of an upgrade ---------------------------------------------------------

WORK_ORDER_LAYOUT = SheetLayout(
    columns=WORK_ORDER_COLUMNS,
    widths=[
        {"step": 6, "phase": 30, "action": 9, "label": 40, "cable_id": 19, "old_label": 40, "part_number": 22}.get(
            c, 26 if c.startswith(("unplug_", "plug_")) else 12
        )
        for c in WORK_ORDER_COLUMNS
    ],
    number_format={WORK_ORDER_COLUMNS.index("ordered_length_m"): "0.000"},
)


_PHASE_SHEETS = {Phase.PLUG: "1 plug", Phase.RECABLE: "2 re-cable", Phase.UNPLUG: "3 unplug"}


def _work_order(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> list[WorkStep]:
    return wiring_diff_cables.work_order_steps(session, old, new)


def work_order_csv(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> Iterator[bytes]:
    """Every step of `old` -> `new` in order (`domain.wiring.work_order`), one line each."""
    length = WORK_ORDER_COLUMNS.index("ordered_length_m")
    rows = (
        [f"{v:.3f}" if i == length else v for i, v in enumerate(r)]
        for r in work_order_rows(_work_order(session, old, new))
    )
    return _encoded(csv_chunks(WORK_ORDER_COLUMNS, rows))


def work_order_xlsx(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> Iterator[bytes]:
    """One sheet per phase, the steps in order, grouped by rack."""
    steps = _work_order(session, old, new)
    sheets = [(name, work_order_rows([s for s in steps if s.phase is phase])) for phase, name in _PHASE_SHEETS.items()]
    return workbook_stream(sheets, WORK_ORDER_LAYOUT)


def work_order_pdf(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> Iterator[bytes]:
    ctx, _ = _context(session, new)
    steps = _work_order(session, old, new)
    title = f"Re-cabling work order: plan {old.name} -> {new.name}"
    return _spooled(lambda out: render_work_order(out, steps, ctx, title))
