"""A structured plan's exports for cabling teams, read from its stored plant (issue 29 item 6): the
wiring sheet a line per segment, the trunk pull list, a printable port map per panel, the labels of
cords, trunk ends and panel ports, and the plant's objects for NetBox (panels as devices with front
and rear ports and their mapping, cords and trunks as cables).

Pure: the plant (`plant.StructuredPlant`, as the builder made it and storage gives it back) and the
logical links' ends in; rows, label contents and PDF bytes out. Nothing here decides how a link maps
to panels or trunks: that is the builder's; a panel model's front-to-rear port map is the catalog's
(its cassette's `fibre_map`), read by `panel_ports`.

Panel ports are named as the plant names them: front ``F<nn>``, rear ``R<nn>``, numbered across the
panel's cassettes in slot order (cassette 2's first front port follows cassette 1's last).
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from math import ceil
from typing import BinaryIO

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from loopline.domain import netbox
from loopline.domain.device_names import LOCATION_NAMES, DeviceNames
from loopline.domain.errors import DomainError
from loopline.domain.exports import netbox_length
from loopline.domain.labels import cable_label
from loopline.domain.pdf_stream import joined_pdf
from loopline.domain.print_sheets import BOLD, FONT, PrintedLabel, fit
from loopline.domain.structured.catalog import Connector, FibreKind, StructuredCatalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import ChainStep, PlantItem, PlantPanel

SEGMENT_COLUMNS = (
    "cable_id", "link_label", "position", "kind", "item_id", "item_label", "part", "length_m", "ordered_length_m",
    "from_end", "from_port", "to_end", "to_port", "detail",
)  # fmt: skip
"""A line per step of each logical link's chain, position 0 at the link's A end (the ToR)."""
TRUNK_PULL_COLUMNS = (
    "trunk", "part", "fibres", "length_m", "ordered_length_m", "made_to_order", "from_panel", "from_port",
    "to_panel", "to_port", "links", "route", "item_id",
)  # fmt: skip
"""A line per trunk: what to take off the shelf (or order made to length) and pull, end to end."""

CABLE_KINDS = frozenset({SegmentKind.CORD, SegmentKind.TRUNK, SegmentKind.BREAKOUT})


@dataclass(frozen=True, slots=True)
class PlantLink:
    """A structured logical link's ends, as the plan's cable holds them (device location names)."""

    cable_id: str
    label: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str


def _metres(mm_: int) -> str:
    return f"{mm_ / 1000:.3f}"


def is_front(port: str) -> bool:
    return port.startswith("F") and port[1:].isdigit()


def is_rear(port: str) -> bool:
    return port.startswith("R") and port[1:].isdigit()


def front_name(n: int) -> str:
    return f"F{n:02d}"


def rear_name(n: int) -> str:
    return f"R{n:02d}"


# --- wiring sheet, a line per segment --------------------------------------------------------------


Ends = tuple[str, str, str, str]
"""(from end, from port, to end, to port)."""


def oriented(item: PlantItem, at: tuple[str, str] | None) -> Ends:
    """The item's ends in the chain's direction: its end that meets `at` (the previous step's far
    end, device or panel and port) first; a trunk, whose ports name a leg set, by its panel alone.
    No match: as the item stores them."""
    a, b = (item.a_end, item.a_port), (item.b_end, item.b_port)
    if at is not None:
        if b == at and a != at:
            return (*b, *a)
        if a != at and item.b_end == at[0] and item.a_end != at[0]:
            return (*b, *a)
    return (*a, *b)


def _host(end: str, names: DeviceNames, panels: Collection[str]) -> str:
    """A device end by its host name; a panel by its id."""
    return end if end in panels else names.host(end)


def segment_rows(
    links: Iterable[tuple[PlantLink, Sequence[ChainStep]]],
    items: Mapping[str, PlantItem],
    panels: Collection[str],
    names: DeviceNames = LOCATION_NAMES,
) -> Iterator[Sequence[object]]:
    """Each link's steps in chain order, every item's ends turned to run from the link's A end to its
    B end (a trunk or cord shared by links is stored once, in one direction). Lengths in metres;
    a panel port has none (blank)."""
    for link, steps in links:
        label = link.label if names is LOCATION_NAMES else names.label(link.a_device, link.a_port, link.b_device,
                                                                          link.b_port)  # fmt: skip
        at: tuple[str, str] | None = (link.a_device, link.a_port)
        for step in sorted(steps, key=lambda s: s.position):
            item = items.get(step.item_id)
            if item is None:
                raise DomainError("steps.item_id", f"link {link.cable_id} step {step.position} names no item")
            from_end, from_port, to_end, to_port = oriented(item, at)
            at = (to_end, to_port)
            cable = item.kind in CABLE_KINDS
            yield (
                link.cable_id, label, step.position, item.kind.value, item.item_id, item.label, item.part,
                _metres(item.length_mm) if cable else "", _metres(item.ordered_mm) if cable else "",
                _host(from_end, names, panels), from_port, _host(to_end, names, panels), to_port, step.detail,
            )  # fmt: skip


# --- trunk pull list -----------------------------------------------------------------------------


def trunk_pull_rows(items: Iterable[PlantItem], steps: Iterable[ChainStep]) -> Iterator[Sequence[object]]:
    """A line per trunk, in the plant's order, with the logical links it carries."""
    carried: dict[str, set[str]] = {}
    for s in steps:
        carried.setdefault(s.item_id, set()).add(s.cable_id)
    return trunk_pull_lines((t, len(carried.get(t.item_id, ()))) for t in items if t.kind is SegmentKind.TRUNK)


def trunk_pull_lines(trunks: Iterable[tuple[PlantItem, int]]) -> Iterator[Sequence[object]]:
    """A line per (trunk, the logical links it carries)."""
    for t, links in trunks:
        yield (
            t.label, t.part, t.fibres, _metres(t.length_mm), _metres(t.ordered_mm), "yes" if t.made_to_order else "no",
            t.a_end, t.a_port, t.b_end, t.b_port, links, t.route, t.item_id,
        )  # fmt: skip


# --- a panel's ports -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FrontPort:
    name: str
    rear: str
    position: int
    """The rear port's position this front port maps to (NetBox's `rear_port_position`)."""
    connector: Connector


@dataclass(frozen=True, slots=True)
class RearPort:
    name: str
    positions: int
    connector: Connector


@dataclass(frozen=True, slots=True)
class PanelPorts:
    fronts: tuple[FrontPort, ...]
    rears: tuple[RearPort, ...]


def panel_ports(panel: PlantPanel, catalog: StructuredCatalog) -> PanelPorts:
    """Every front port of `panel` with the rear port and position it maps to, and every rear port.

    With cassettes: cassette c's front port k is front port c x (its front ports) + k, its rear port r
    rear port c x (its rear ports) + r, and a front port maps to the rear port its `fibre_map` takes
    its fibres to; a rear port's positions are the front ports mapped to it, in order. Without: an
    adapter panel, front port n straight through to rear port n (one position)."""
    model = catalog.panel(panel.model)
    if panel.cassette is None:
        connector = model.front_connector
        rear = model.rear_connector or connector
        fronts = tuple(FrontPort(front_name(n), rear_name(n), 1, connector) for n in range(1, panel.front_ports + 1))
        return PanelPorts(fronts, tuple(RearPort(rear_name(n), 1, rear) for n in range(1, panel.front_ports + 1)))
    cassette = catalog.cassette(panel.cassette)
    rear_of: dict[int, int] = {}
    for m in sorted(cassette.fibre_map, key=lambda m: (m.front_port, m.front_position)):
        rear_of.setdefault(m.front_port, m.rear_port)  # a front port's fibres all go to one rear port
    front_list: list[FrontPort] = []
    rear_list: list[RearPort] = []
    for c in range(panel.cassettes):
        taken: dict[int, int] = {}
        for k in range(1, cassette.front_ports + 1):
            r = rear_of.get(k, 1)
            taken[r] = taken.get(r, 0) + 1
            front_list.append(
                FrontPort(
                    front_name(c * cassette.front_ports + k),
                    rear_name(c * cassette.rear_ports + r),
                    taken[r],
                    cassette.front_connector,
                )
            )
        rear_list += [
            RearPort(rear_name(c * cassette.rear_ports + r), max(1, taken.get(r, 0)), cassette.rear_connector)
            for r in range(1, cassette.rear_ports + 1)
        ]
    return PanelPorts(tuple(front_list), tuple(rear_list))


# --- panel port map (PDF) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PortLine:
    port: str
    maps_to: str
    """Front: its rear port and position (``R02/3``); rear: blank."""
    cable: str
    """The cord (front) or trunk (rear) plugged, by label; blank when none."""
    far_end: str
    """The cable's other end, ``<device or panel>:<port>``."""


@dataclass(frozen=True, slots=True)
class PanelSheet:
    panel: PlantPanel
    fronts: list[PortLine]
    rears: list[PortLine]


def panel_sheets(
    panels: Iterable[PlantPanel],
    items: Iterable[PlantItem],
    steps: Iterable[ChainStep],
    catalog: StructuredCatalog,
    names: DeviceNames = LOCATION_NAMES,
    plant_panels: Collection[str] | None = None,
) -> Iterator[PanelSheet]:
    """Each panel's front ports (its rear port, the cord in it and that cord's far end) and rear ports
    (the trunk in it and the panel at its other end). A trunk whose stored ports name a set of legs
    is placed by the rear ports its links' panel ports lead to.

    `panels` may be a batch of the plant's: `items` and `steps` then need only be those touching it
    (its items in stored order, the whole chains through it), and `plant_panels` names every panel
    of the plant, so a far end on a panel outside the batch is still named as a panel."""
    panel_list = list(panels)
    panel_ids: Collection[str] = {p.panel_id for p in panel_list} if plant_panels is None else plant_panels
    by_id = {i.item_id: i for i in items}
    plugged: dict[tuple[str, str], tuple[PlantItem, str, str]] = {}

    def far(end: str, port: str) -> tuple[str, str]:
        return (_host(end, names, panel_ids), port)

    for it in by_id.values():
        if it.kind not in CABLE_KINDS:
            continue
        for (end, port), (other, other_port) in (((it.a_end, it.a_port), (it.b_end, it.b_port)),
                                                 ((it.b_end, it.b_port), (it.a_end, it.a_port))):  # fmt: skip
            if end in panel_ids:
                plugged.setdefault((end, port), (it, *far(other, other_port)))
    # Trunk legs by the panel ports their links pass: rear port -> trunk on each side.
    by_link: dict[str, list[ChainStep]] = {}
    for s in steps:
        by_link.setdefault(s.cable_id, []).append(s)
    for chain in by_link.values():
        for pair in _trunk_legs(sorted(chain, key=lambda s: s.position), by_id):
            trunk, (pa, ra), (pb, rb) = pair
            plugged.setdefault((pa, ra), (trunk, pb, rb))
            plugged.setdefault((pb, rb), (trunk, pa, ra))
    for p in panel_list:
        ports = panel_ports(p, catalog)

        def line(port: str, maps_to: str, p: PlantPanel = p) -> PortLine:
            got = plugged.get((p.panel_id, port))
            if got is None:
                return PortLine(port, maps_to, "", "")
            item, end, other_port = got
            return PortLine(port, maps_to, item.label, f"{end}:{other_port}")

        yield PanelSheet(
            p,
            [line(f.name, f"{f.rear}/{f.position}") for f in ports.fronts],
            [line(r.name, "") for r in ports.rears],
        )


def _trunk_legs(
    chain: Sequence[ChainStep], items: Mapping[str, PlantItem]
) -> Iterator[tuple[PlantItem, tuple[str, str], tuple[str, str]]]:
    """Each trunk step of one link's chain with the (panel, rear port) on either side of it: the rear
    ports of the panel-port steps before and after it."""
    for i, s in enumerate(chain):
        trunk = items.get(s.item_id)
        if trunk is None or trunk.kind is not SegmentKind.TRUNK or i == 0 or i + 1 >= len(chain):
            continue
        before, after = items.get(chain[i - 1].item_id), items.get(chain[i + 1].item_id)
        if before is None or after is None:
            continue
        a, b = _rear_of(before), _rear_of(after)
        if a is not None and b is not None:
            yield trunk, a, b


def _rear_of(item: PlantItem) -> tuple[str, str] | None:
    """The (panel, rear port) of a panel-port item."""
    if item.kind is not SegmentKind.PANEL_PORT:
        return None
    for end, port in ((item.a_end, item.a_port), (item.b_end, item.b_port)):
        if is_rear(port):
            return end, port
    return None


PAGE = landscape(A4)
MARGIN = 12 * mm
SHEET_LINE_PT = 11.0
MIN_LINE_PT = 6.0
PORT_COLUMNS = (("Port", 0.11), ("Rear/pos", 0.13), ("Cord / trunk", 0.46), ("Far end", 0.30))
"""A port line's cells and their share of a column's width."""


def page_layout(lines: int, height: float) -> tuple[int, int, float]:
    """(columns, lines per column, line height) that put `lines` on one page of `height`, each
    column under a heading line: one column while they fit at the normal height, else as many
    columns as keep lines at least MIN_LINE_PT apart."""
    if lines + 1 <= height // SHEET_LINE_PT:
        return 1, lines, SHEET_LINE_PT
    columns = ceil(lines / (int(height // MIN_LINE_PT) - 1))
    per_column = ceil(lines / columns)
    return columns, per_column, min(SHEET_LINE_PT, height / (per_column + 1))


def draw_panel_page(canvas: Canvas, sheet: PanelSheet, title: str) -> None:
    """One page: the panel's name, rack, U, model and cassettes, then every front port (rear port and
    position, the cord plugged and its far end) and every rear port (the trunk and its far end)."""
    p = sheet.panel
    w, h = PAGE
    top = h - MARGIN
    canvas.bookmarkPage(p.panel_id)
    canvas.addOutlineEntry(p.panel_id, p.panel_id, level=0)
    canvas.setFont(BOLD, 14)
    canvas.drawString(MARGIN, top - 14, *fit(f"Panel {p.panel_id}", BOLD, 14, w - 2 * MARGIN)[:1])
    fitted = f"{p.cassettes} x {p.cassette}" if p.cassette else "no cassettes"
    head = (
        f"{title}   rack {p.rack}   U{p.u}   {p.model} ({fitted})   {p.role} panel   "
        f"{p.ports_used} of {p.front_ports} front ports used"
    )
    text, size = fit(head, FONT, 8, w - 2 * MARGIN)
    canvas.setFont(FONT, size)
    canvas.drawString(MARGIN, top - 28, text)
    entries: list[PortLine | str] = ["Front ports", *sheet.fronts, "Rear ports", *sheet.rears]
    body_top = top - 44
    columns, per_column, step = page_layout(len(entries), body_top - MARGIN)
    col_w = (w - 2 * MARGIN) / columns
    for c in range(columns):
        x0 = MARGIN + c * col_w
        y = body_top
        size = max(4.0, min(8.0, step * 0.75))
        canvas.setFont(BOLD, size)
        x = x0
        for name, share in PORT_COLUMNS:
            canvas.drawString(x, y, fit(name, BOLD, size, col_w * share - 3)[0])
            x += col_w * share
        y -= step
        for e in entries[c * per_column : (c + 1) * per_column]:
            if isinstance(e, str):
                canvas.setFont(BOLD, size)
                canvas.drawString(x0, y, e)
            else:
                x = x0
                for value, (_, share) in zip((e.port, e.maps_to, e.cable, e.far_end), PORT_COLUMNS, strict=True):
                    cell, s = fit(value, FONT, size, col_w * share - 3)
                    canvas.setFont(FONT, s)
                    canvas.drawString(x, y, cell)
                    x += col_w * share
            y -= step
    canvas.showPage()


def panel_map_pdf(out: BinaryIO, sheets: Iterable[PanelSheet], title: str) -> int:
    """One landscape A4 page per panel; returns the pages. No panel: one page saying so."""
    canvas = Canvas(out, pagesize=PAGE, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Loopline")
    n = 0
    for sheet in sheets:
        draw_panel_page(canvas, sheet, title)
        n += 1
    if n == 0:
        canvas.setFont(FONT, 10)
        canvas.drawString(MARGIN, PAGE[1] - MARGIN - 10, f"{title}: no panels")
        canvas.showPage()
    canvas.save()
    return n


PANELS_PER_PIECE = 20
"""Panels drawn at a time for the streamed port map: a reportlab document each, joined on the fly
(`pdf_stream`), so the first pages leave at once however many panels the plan has."""


def panel_map_stream(sheets: Iterable[PanelSheet], title: str) -> Iterator[bytes]:
    def pieces() -> Iterator[bytes]:
        it = iter(sheets)
        first = True
        while (piece := list(islice(it, PANELS_PER_PIECE))) or first:
            first = False
            out = io.BytesIO()
            panel_map_pdf(out, piece, title)
            yield out.getvalue()

    return joined_pdf(pieces(), title)


# --- labels --------------------------------------------------------------------------------------


def plant_labels(
    panels: Iterable[PlantPanel],
    items: Iterable[PlantItem],
    steps: Iterable[ChainStep],
    names: DeviceNames = LOCATION_NAMES,
) -> Iterator[PrintedLabel]:
    """Two labels per cord and breakout cable (end A, end B: the same text, TIA-606), two per trunk
    (its label, and at each end the panel and the rear ports it lands on), then one per panel port a
    cable is plugged into (``<panel>:<port>``, the rack-panel-port identifier, with what is plugged),
    by panel and port. A trunk's ports are its legs' (`netbox_terminations`)."""
    panel_ids = frozenset(p.panel_id for p in panels)
    item_list = list(items)
    ends: dict[str, list[tuple[tuple[str, str], tuple[str, str]]]] = {}
    for it, at_a, at_b in netbox_terminations(item_list, steps):
        ends.setdefault(it.item_id, []).append((at_a, at_b))
    used: dict[tuple[str, str], PlantItem] = {}
    for it in item_list:
        if it.kind is SegmentKind.PANEL_PORT:
            continue
        for pair in ends.get(it.item_id, []):
            for end, port in pair:
                if end in panel_ids:
                    used.setdefault((end, port), it)
        a = _host(it.a_end, names, panel_ids)
        b = _host(it.b_end, names, panel_ids)
        length = f"{netbox_length(it.ordered_mm)} m"
        if it.kind is SegmentKind.TRUNK:
            legs = ends.get(it.item_id, [])
            a_ports = " ".join(dict.fromkeys(p for (_, p), _ in legs)) or it.a_port
            b_ports = " ".join(dict.fromkeys(p for _, (_, p) in legs)) or it.b_port
            for which, here, there in (("A", f"{a}:{a_ports}", f"{b}:{b_ports}"),
                                       ("B", f"{b}:{b_ports}", f"{a}:{a_ports}")):  # fmt: skip
                yield PrintedLabel(
                    it.label,
                    (
                        (it.label, BOLD, 10.0),
                        (f"this end: {here}", FONT, 8.0),
                        (f"far end: {there}", FONT, 8.0),
                        (f"END {which}   {length}   {it.fibres} fibres", BOLD, 7.0),
                        (it.part, FONT, 6.0),
                    ),
                )
        else:
            label = cable_label(a, it.a_port, b, it.b_port)
            halves = label.split(" / ", 1)
            for which in ("A", "B"):
                yield PrintedLabel(
                    it.item_id,
                    (
                        (it.label if it.label != label else it.item_id, BOLD, 10.0),
                        (halves[0], FONT, 8.5),
                        (halves[1] if len(halves) > 1 else "", FONT, 8.5),
                        (f"END {which}   {length}   {it.kind.value}", BOLD, 7.0),
                        (it.part, FONT, 6.0),
                    ),
                )
    for (panel, port), it in sorted(used.items()):
        ident = f"{panel}:{port}"
        yield PrintedLabel(
            ident,
            (
                (ident, BOLD, 10.0),
                ("front port" if is_front(port) else "rear port" if is_rear(port) else "port", FONT, 8.0),
                (f"{it.kind.value}: {it.label}", FONT, 7.0),
                ("", FONT, 6.0),
                (it.part, FONT, 6.0),
            ),
        )


# --- NetBox --------------------------------------------------------------------------------------

PANEL_ROLE = netbox.PANEL_ROLE
NETBOX_PORT_TYPES = {
    Connector.LC_DUPLEX: "lc",
    Connector.MPO_12: "mpo",
    Connector.MPO_16: "mpo",
    Connector.MPO_24: "mpo",
}
"""dcim/choices.py PortTypeChoices: TYPE_LC, TYPE_MPO."""
NETBOX_FIBRE_TYPES = {
    FibreKind.OM3: "mmf-om3",
    FibreKind.OM4: "mmf-om4",
    FibreKind.OM5: "mmf-om5",
    FibreKind.OS2: "smf-os2",
}
"""dcim/choices.py CableTypeChoices by the cable's fibre."""
FRONT_PORT = "dcim.frontport"
REAR_PORT = "dcim.rearport"


def panel_type_name(panel: PlantPanel) -> str:
    """The NetBox device type of a panel as fitted: the model, and its cassettes when it has some
    (a panel with 2 cassettes has other ports than the same model with 4)."""
    return panel.model if panel.cassette is None else f"{panel.model} + {panel.cassettes} x {panel.cassette}"


def cable_type(item: PlantItem, catalog: StructuredCatalog) -> str:
    """The NetBox cable type of a cord, trunk or breakout cable by its catalog part's fibre; blank
    for a part the catalog does not hold, or a copper breakout."""
    fibre: FibreKind | None
    try:
        if item.kind is SegmentKind.CORD:
            fibre = catalog.cord(item.part).fibre
        elif item.kind is SegmentKind.TRUNK:
            fibre = catalog.trunk(item.part).fibre
        elif item.kind is SegmentKind.BREAKOUT:
            fibre = catalog.breakout_cable(item.part).fibre
        else:
            return ""
    except DomainError:
        return ""
    return NETBOX_FIBRE_TYPES.get(fibre, "") if fibre is not None else ""


def rear_range(port: str) -> list[str] | None:
    """A trunk end's rear ports as the plant writes them: ``R02``, or ``R01-R04`` for side by side
    legs; None for anything else."""
    first, sep, last = port.partition("-")
    if not is_rear(first) or (sep and not is_rear(last)):
        return None
    lo, hi = int(first[1:]), int(last[1:]) if sep else int(first[1:])
    return [rear_name(n) for n in range(lo, hi + 1)] if lo <= hi else None


def netbox_terminations(
    items: Iterable[PlantItem], steps: Iterable[ChainStep]
) -> Iterator[tuple[PlantItem, tuple[str, str], tuple[str, str]]]:
    """Each cable of the plant as NetBox cables, (item, (end, port), (end, port)): a cord or breakout
    leg between its two ends; a trunk of several MPO legs (``R01-R04`` at each end) one NetBox cable
    per leg, the n-th rear port of one end to the n-th of the other, spare legs too; a trunk whose
    ends name no such range, the legs its links use, found from the panel ports before and after it
    in their chains. NetBox imports one port per cable end."""
    item_list = list(items)
    by_id = {i.item_id: i for i in item_list}
    legs: dict[str, dict[tuple[tuple[str, str], tuple[str, str]], None]] = {}
    by_link: dict[str, list[ChainStep]] = {}
    for s in steps:
        by_link.setdefault(s.cable_id, []).append(s)
    for chain in by_link.values():
        for trunk, a, b in _trunk_legs(sorted(chain, key=lambda s: s.position), by_id):
            if (a[0], b[0]) == (trunk.b_end, trunk.a_end) and trunk.a_end != trunk.b_end:
                a, b = b, a
            legs.setdefault(trunk.item_id, {})[(a, b)] = None
    for it in item_list:
        if it.kind not in CABLE_KINDS:
            continue
        a, b = (it.a_end, it.a_port), (it.b_end, it.b_port)
        if it.kind is SegmentKind.TRUNK:
            ra, rb = rear_range(it.a_port), rear_range(it.b_port)
            if ra is not None and rb is not None and len(ra) == len(rb):
                for x, y in zip(ra, rb, strict=True):
                    yield it, (it.a_end, x), (it.b_end, y)
                continue
            if not (is_rear(it.a_port) and is_rear(it.b_port)):
                for pair in legs.get(it.item_id, {}):
                    yield it, *pair
                continue
        yield it, a, b


def _side(end: str, port: str, panels: set[str], names: DeviceNames) -> tuple[str, str]:
    """(NetBox device, termination type) of a cable end."""
    if end in panels:
        return end, FRONT_PORT if is_front(port) else REAR_PORT
    return names.host(end), "dcim.interface"


def plant_cable_rows(
    items: Iterable[PlantItem],
    steps: Iterable[ChainStep],
    panel_ids: Iterable[str],
    site: str,
    catalog: StructuredCatalog,
    names: DeviceNames = LOCATION_NAMES,
    colours: Mapping[str, str] | None = None,
) -> Iterator[Sequence[object]]:
    """NetBox cable import rows (`exports.NETBOX_COLUMNS`) of the cords, trunks (one per leg when a
    trunk has several) and breakout cables; a trunk of several legs labels each ``<trunk> leg <n>``."""
    panels = set(panel_ids)
    colours = colours or {}
    ends = list(netbox_terminations(items, steps))
    per_item: dict[str, int] = {}
    for it, _, _ in ends:
        per_item[it.item_id] = per_item.get(it.item_id, 0) + 1
    seen: dict[str, int] = {}
    for it, (ae, ap), (be, bp) in ends:
        seen[it.item_id] = seen.get(it.item_id, 0) + 1
        label = it.label if per_item[it.item_id] == 1 else f"{it.label} leg {seen[it.item_id]}"
        netbox.check_length("label", label)
        a_dev, a_type = _side(ae, ap, panels, names)
        b_dev, b_type = _side(be, bp, panels, names)
        kind = cable_type(it, catalog)
        yield (
            site, a_dev, a_type, ap, site, b_dev, b_type, bp, kind, netbox.STATUS, label, colours.get(kind, ""),
            netbox_length(it.ordered_mm), "m",
        )  # fmt: skip


def panel_device_type(
    panel: PlantPanel, catalog: StructuredCatalog, arrival: Mapping[int, int] | None = None
) -> netbox.NetboxDeviceType:
    """A panel as fitted as a NetBox device type: its rear ports (with their positions) and front ports
    (each on its rear port's position), so NetBox's trace goes front -> rear -> trunk -> rear -> front.
    `arrival`: a far panel's front ports by the position they are reached on within their cassette
    (`far_end_positions`); the type is then named for it."""
    ports = panel_ports(panel, catalog)
    fronts = ports.fronts
    name = panel_type_name(panel)
    if arrival:
        per = len(fronts) // max(1, panel.cassettes)
        fronts = tuple(
            FrontPort(f.name, f.rear, arrival.get((i % per) + 1, f.position), f.connector) for i, f in enumerate(fronts)
        )
        order = [arrival[k] for k in sorted(arrival)]
        pattern = "reversed" if order == list(range(per, 0, -1)) else ",".join(map(str, order))
        name = f"{name}, positions {pattern}"
    return netbox.NetboxDeviceType(
        name,
        catalog.panel(panel.model).height_u,
        (),
        full_depth=False,
        rear_ports=tuple((r.name, NETBOX_PORT_TYPES[r.connector], r.positions) for r in ports.rears),
        front_ports=tuple((f.name, NETBOX_PORT_TYPES[f.connector], f.rear, f.position) for f in fronts),
    )


def far_end_positions(
    panels: Iterable[PlantPanel], items: Iterable[PlantItem], steps: Iterable[ChainStep], catalog: StructuredCatalog
) -> dict[str, dict[int, int]]:
    """NetBox's rear-port positions are channels without polarity: a trunk joins position p of one rear
    port to position p of the other. A Type-B trunk between cassettes (TIA-568.3-D Method B) brings a
    cassette's front port k to the far cassette's port n + 1 - k, so for NetBox's trace to reach the
    far port the plant chose, that far panel's front port must sit on the position the near port
    leaves by. Read from the stored chains (the builder chose the ports; nothing is recomputed): per
    panel at the far end of a trunk whose ports differ from the cassette's own order, its cassette's
    front port (1..n) -> the position it is reached on; the ports no link uses follow Method B's order
    where every used one does (n + 1 - k), else take the positions left in order. Only panels whose
    cassettes have one rear port (the LC cassettes) are concerned; an MPO adapter's positions are all 1."""
    panel_list = list(panels)
    by_panel = {p.panel_id: p for p in panel_list}
    by_id = {i.item_id: i for i in items}
    standard: dict[str, dict[str, tuple[str, int]]] = {}

    def position(panel: PlantPanel, front: str) -> int | None:
        if panel.panel_id not in standard:
            standard[panel.panel_id] = {f.name: (f.rear, f.position) for f in panel_ports(panel, catalog).fronts}
        got = standard[panel.panel_id].get(front)
        return None if got is None else got[1]

    wanted: dict[str, dict[int, int]] = {}
    by_link: dict[str, list[ChainStep]] = {}
    for s in steps:
        by_link.setdefault(s.cable_id, []).append(s)
    for chain in by_link.values():
        chain.sort(key=lambda s: s.position)
        for i, s in enumerate(chain[1:-1], start=1):
            trunk = by_id.get(s.item_id)
            near, far = by_id.get(chain[i - 1].item_id), by_id.get(chain[i + 1].item_id)
            if trunk is None or near is None or far is None or trunk.kind is not SegmentKind.TRUNK:
                continue
            fa, fb = _front_of(near), _front_of(far)
            if fa is None or fb is None or fa[0] not in by_panel or fb[0] not in by_panel:
                continue
            pb = by_panel[fb[0]]
            if pb.cassette is None or catalog.cassette(pb.cassette).rear_ports != 1:
                continue
            pos = position(by_panel[fa[0]], fa[1])
            if pos is None:
                continue
            per = catalog.cassette(pb.cassette).front_ports
            local = (int(fb[1][1:]) - 1) % per + 1
            wanted.setdefault(pb.panel_id, {}).setdefault(local, pos)
    out: dict[str, dict[int, int]] = {}
    for panel_id, known in wanted.items():
        cassette = by_panel[panel_id].cassette
        assert cassette is not None
        per = catalog.cassette(cassette).front_ports
        if all(k == v for k, v in known.items()):
            continue
        if all(v == per + 1 - k for k, v in known.items()):  # Method B's order: the ports no link uses too
            out[panel_id] = {k: per + 1 - k for k in range(1, per + 1)}
            continue
        left = iter(sorted(set(range(1, per + 1)) - set(known.values())))
        out[panel_id] = {k: known[k] if k in known else next(left) for k in range(1, per + 1)}
    return out


def _front_of(item: PlantItem) -> tuple[str, str] | None:
    """The (panel, front port) of a panel-port item."""
    if item.kind is not SegmentKind.PANEL_PORT:
        return None
    for end, port in ((item.a_end, item.a_port), (item.b_end, item.b_port)):
        if is_front(port):
            return end, port
    return None


def netbox_panel_types(
    panels: Iterable[PlantPanel], items: Iterable[PlantItem], steps: Iterable[ChainStep], catalog: StructuredCatalog
) -> tuple[dict[str, netbox.NetboxDeviceType], dict[str, str]]:
    """The panels' NetBox device types by name, and each panel's type (`far_end_positions` gives a far
    panel of a Method B trunk a type of its own)."""
    panel_list = list(panels)
    arrivals = far_end_positions(panel_list, items, steps, catalog)
    types: dict[str, netbox.NetboxDeviceType] = {}
    type_of: dict[str, str] = {}
    for p in panel_list:
        t = panel_device_type(p, catalog, arrivals.get(p.panel_id))
        types.setdefault(t.model, t)
        type_of[p.panel_id] = t.model
    return types, type_of


def panel_devices(
    panels: Iterable[PlantPanel], faces: Mapping[str, str], type_of: Mapping[str, str] | None = None
) -> Iterator[netbox.NetboxDevice]:
    """Each panel as a device named by its id, at its U on its rack's port face, of its type
    (`type_of`, else `panel_type_name`)."""
    for p in panels:
        model = (type_of or {}).get(p.panel_id, panel_type_name(p))
        yield netbox.NetboxDevice(p.panel_id, PANEL_ROLE, p.rack, p.u, model, faces.get(p.rack, "front"))
