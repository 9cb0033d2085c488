"""Wiring sheets, pull lists and NetBox cable imports from a plan's cables (DESIGN §3.5). Pure: rows in,
rows (or CSV text) out; the services stream the rows from the database.

A cable end is described by names only (site, hall, row, rack, U, face, device, port), so a
sheet printed today matches the labels on the cables.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from loopline.domain.device_names import LOCATION_NAMES, DeviceNames
from loopline.domain.media import NETBOX_TYPE, Medium

SINGLE_MODE_OPTICS = ("DR", "FR", "LR")
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is run as a formula by spreadsheets (OWASP: CSV injection)."""


@dataclass(frozen=True, slots=True)
class SheetCable:
    cable_id: str
    label: str
    a_device: str
    a_port: str
    a_row: str
    a_rack: str
    b_device: str
    b_port: str
    b_row: str
    b_rack: str
    gbps: float
    medium: Medium
    part_number: str
    transceiver: str | None
    raw_mm: int
    slack_mm: int
    ordered_mm: int


@dataclass(frozen=True, slots=True)
class SheetContext:
    site: str
    hall: str
    via: str
    """How cables run between racks: `tray`, `floor` or `faces`."""
    rack_face: dict[str, str]
    """Full rack name -> the face its ports are on (`front`/`rear`)."""
    names: DeviceNames = LOCATION_NAMES
    """Host names by location name (the hall's device naming): what `device` columns and labels print."""


END_COLUMNS = ("site", "hall", "row", "rack", "u", "face", "device", "port", "asset_tag")
WIRING_SHEET_COLUMNS: tuple[str, ...] = (
    "cable_id",
    "label",
    *(f"a_{c}" for c in END_COLUMNS),
    *(f"b_{c}" for c in END_COLUMNS),
    "speed_gbps",
    "medium",
    "part_number",
    "transceiver",
    "raw_length_m",
    "length_with_slack_m",
    "ordered_length_m",
    "bundle",
    "status",
)
NETBOX_COLUMNS = (
    "side_a_site", "side_a_device", "side_a_type", "side_a_name",
    "side_b_site", "side_b_device", "side_b_type", "side_b_name",
    "type", "status", "label", "color", "length", "length_unit",
)  # fmt: skip
"""NetBox 4.x `CableImportForm` fields (netbox/dcim/forms/bulk_import.py); the site narrows each device."""
PULL_LIST_COLUMNS = (
    "bundle", "via", "from_rack", "to_rack", "medium", "part_number", "ordered_length_m", "quantity", "cable_ids",
)  # fmt: skip
CSV_BATCH_ROWS = 2000
"""Rows per streamed chunk: a few hundred kB, so the first bytes leave at once and memory stays flat."""


def _u(device: str) -> int:
    """`H1.R01.K03.U22` -> 22."""
    return int(device.rsplit(".U", 1)[1].rstrip("B"))


def _metres(mm: int) -> str:
    return f"{mm / 1000:.3f}"


def netbox_length(mm: int) -> str:
    """Metres with two decimals, rounded up to the centimetre: NetBox's `Cable.length` is
    `DecimalField(max_digits=8, decimal_places=2)` (it refused `1.500`), and an ordered cable is
    never written down shorter than it is."""
    cm = -(-mm // 10)
    return f"{cm // 100}.{cm % 100:02d}"


def bundle_of(a_rack: str, b_rack: str, via: str) -> str:
    """How a cable is pulled: inside its rack, or through the hall's `via` (tray, floor, faces)."""
    return "in-rack" if a_rack == b_rack else via


def wiring_sheet_rows(cables: Iterable[SheetCable], ctx: SheetContext) -> Iterable[Sequence[object]]:
    for c in cables:
        ends = []
        for device, port, row, rack in (
            (c.a_device, c.a_port, c.a_row, c.a_rack),
            (c.b_device, c.b_port, c.b_row, c.b_rack),
        ):
            ends += [ctx.site, ctx.hall, row, rack.rsplit(".", 1)[-1], _u(device), ctx.rack_face.get(rack, "front"),
                     ctx.names.host(device), port, ctx.names.asset_tag(device)]  # fmt: skip
        bundle = bundle_of(c.a_rack, c.b_rack, ctx.via)
        label = c.label if ctx.names is LOCATION_NAMES else ctx.names.label(c.a_device, c.a_port, c.b_device, c.b_port)
        yield (
            c.cable_id, label, *ends, c.gbps, c.medium.value, c.part_number, c.transceiver or "",
            _metres(c.raw_mm), _metres(c.slack_mm), _metres(c.ordered_mm), bundle, "planned",
        )  # fmt: skip


def netbox_type(medium: Medium, transceiver: str | None) -> str:
    if medium is Medium.FIBRE and transceiver and any(f"-{kind}" in transceiver for kind in SINGLE_MODE_OPTICS):
        return "smf-os2"
    return NETBOX_TYPE[medium]


def netbox_rows(
    cables: Iterable[SheetCable],
    site: str,
    names: DeviceNames = LOCATION_NAMES,
    colours: Mapping[str, str] | None = None,
) -> Iterable[Sequence[object]]:
    """NetBox's cable bulk-import columns; devices by host name, interfaces as in the plan, the
    colour by cable type (`colours`, else none)."""
    colours = colours or {}
    for c in cables:
        label = c.label if names is LOCATION_NAMES else names.label(c.a_device, c.a_port, c.b_device, c.b_port)
        kind = netbox_type(c.medium, c.transceiver)
        yield (
            site, names.host(c.a_device), "dcim.interface", c.a_port, site, names.host(c.b_device), "dcim.interface",
            c.b_port, kind, "planned", label, colours.get(kind, ""), netbox_length(c.ordered_mm), "m",
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PullGroup:
    """Cables of one part and ordered length that run between the same two racks."""

    from_rack: str
    to_rack: str
    medium: Medium
    part_number: str
    ordered_mm: int
    cable_ids: Sequence[str]


def pull_list_rows(groups: Iterable[PullGroup], via: str) -> Iterable[Sequence[object]]:
    """One line per (route, part, ordered length): what to take off the reel and pull together."""
    for g in groups:
        bundle = g.from_rack if g.from_rack == g.to_rack else f"{g.from_rack} ~ {g.to_rack}"
        yield (
            bundle, bundle_of(g.from_rack, g.to_rack, via), g.from_rack, g.to_rack, g.medium.value,
            g.part_number, _metres(g.ordered_mm), len(g.cable_ids), " ".join(g.cable_ids),
        )  # fmt: skip


def spreadsheet_safe(value: object) -> object:
    """A text cell a spreadsheet would run as a formula gets a leading `'`, so it is shown as the
    text it is; numbers (a negative one too) and every name starting with a letter or digit are
    left exactly as they are, so NetBox imports legitimate names unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def to_csv(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    return "".join(csv_chunks(columns, rows))


def csv_chunks(columns: Sequence[str], rows: Iterable[Sequence[object]], batch: int | None = None) -> Iterator[str]:
    """The CSV text in pieces of `batch` rows (CSV_BATCH_ROWS), header first, every cell made
    spreadsheet-safe."""
    batch = batch or CSV_BATCH_ROWS
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for n, row in enumerate(rows, 1):
        writer.writerow([spreadsheet_safe(v) for v in row])
        if n % batch == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()
