"""Wiring sheets and NetBox cable imports from a plan's cables (DESIGN §3.5). Pure: rows in, rows out.

A cable end is described by names only (site, hall, row, rack, U, face, device, port), so a
sheet printed today matches the labels on the cables.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


END_COLUMNS = ("site", "hall", "row", "rack", "u", "face", "device", "port")
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
    "side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
    "type", "status", "label", "length", "length_unit",
)  # fmt: skip


def _u(device: str) -> int:
    """`H1.R01.K03.U22` -> 22."""
    return int(device.rsplit(".U", 1)[1].rstrip("B"))


def _metres(mm: int) -> str:
    return f"{mm / 1000:.3f}"


def wiring_sheet_rows(cables: Iterable[SheetCable], ctx: SheetContext) -> Iterable[Sequence[object]]:
    for c in cables:
        ends = []
        for device, port, row, rack in (
            (c.a_device, c.a_port, c.a_row, c.a_rack),
            (c.b_device, c.b_port, c.b_row, c.b_rack),
        ):
            ends += [ctx.site, ctx.hall, row, rack.rsplit(".", 1)[-1], _u(device), ctx.rack_face.get(rack, "front"),
                     device, port]  # fmt: skip
        bundle = "in-rack" if c.a_rack == c.b_rack else ctx.via
        yield (
            c.cable_id, c.label, *ends, c.gbps, c.medium.value, c.part_number, c.transceiver or "",
            _metres(c.raw_mm), _metres(c.slack_mm), _metres(c.ordered_mm), bundle, "planned",
        )  # fmt: skip


def netbox_type(medium: Medium, transceiver: str | None) -> str:
    if medium is Medium.FIBRE and transceiver and any(f"-{kind}" in transceiver for kind in SINGLE_MODE_OPTICS):
        return "smf-os2"
    return NETBOX_TYPE[medium]


def netbox_rows(cables: Iterable[SheetCable]) -> Iterable[Sequence[object]]:
    """NetBox's cable bulk-import columns; devices and interfaces named as in the plan."""
    for c in cables:
        yield (
            c.a_device, "dcim.interface", c.a_port, c.b_device, "dcim.interface", c.b_port,
            netbox_type(c.medium, c.transceiver), "planned", c.label, _metres(c.ordered_mm), "m",
        )  # fmt: skip


def spreadsheet_safe(value: object) -> object:
    """A text cell a spreadsheet would run as a formula gets a leading `'`, so it is shown as the
    text it is; numbers (a negative one too) and every name starting with a letter or digit are
    left exactly as they are, so NetBox imports legitimate names unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def to_csv(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([spreadsheet_safe(v) for v in row] for row in rows)
    return out.getvalue()
