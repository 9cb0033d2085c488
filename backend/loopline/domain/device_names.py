"""Host names and asset tags of a hall's devices: a naming template with counters, per-device
overrides, and the CSV that bulk-edits the overrides.

A device is known by its location name (`labels.device_name`: ``H1.R01.R01-19.U17``), which cable
IDs are derived from and which never changes with naming. Its host name is, in order: its
override, the hall's template rendered for it, or the location name itself (no template). Names
must be unique in the hall; a clash is refused naming both devices.

Template fields (`{u:02}` pads a number with zeros to two digits; text fields take no format):
``site``, ``hall``, ``row``, ``rack_name`` (names as in the layout), ``rack`` (the rack's number in
its row, 1 at the row's origin), ``u`` (the device's lowest U), ``n`` (its number in the rack, 1 at
the bottom), ``role`` (``server``, ``tor``, ``agg``, ``spine``, ``core``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from string import Formatter

from loopline.domain.errors import DomainError
from loopline.domain.labels import cable_label, device_name, rack_name
from loopline.domain.layout import Hall, RackRole

NUMBER_FIELDS = ("rack", "u", "n")
TEXT_FIELDS = ("site", "hall", "row", "rack_name", "role")
TEMPLATE_MAX = 200
HOST_NAME_MAX = 64
"""NetBox's `Device.name` limit; DNS allows 63 per label, and names here may hold dots."""
ASSET_TAG_MAX = 50
"""NetBox's `Device.asset_tag` limit."""
HOST_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")
"""Letters, digits, `.`, `-`, `_`, starting and ending with a letter or digit: a valid DNS-style host
name, which no spreadsheet takes for a formula and no label shows two ways."""
ASSET_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
TWIN_SUFFIX = "-b"
"""The second ToR of a parallel port set (location ``…U41B``) is named after the first with this."""
CSV_COLUMNS = ("device", "host_name", "asset_tag", "name")
"""`name` (the name in effect, as the download has it) is read-only: an upload ignores it."""


@dataclass(frozen=True, slots=True)
class DeviceSlot:
    """One device of the layout, with what a template can say about it."""

    key: str
    """The location name (`labels.device_name`)."""
    site: str
    hall: str
    row: str
    rack: int
    rack_name: str
    u: int
    n: int
    role: str

    @property
    def rack_key(self) -> str:
        return self.key.rsplit(".U", 1)[0]


@dataclass(frozen=True, slots=True)
class Override:
    host_name: str | None = None
    asset_tag: str | None = None


@dataclass(frozen=True, slots=True)
class Template:
    text: str
    parts: tuple[tuple[str, str | None, str], ...]
    """(literal, field or None, format spec)."""

    def render(self, slot: DeviceSlot) -> str:
        out: list[str] = []
        for literal, name, spec in self.parts:
            out.append(literal)
            if name is not None:
                out.append(format(getattr(slot, name), spec))
        return "".join(out)


def parse_template(text: str, field: str = "template") -> Template:
    """The template, or a DomainError naming `field` and what is wrong with it."""
    if len(text) > TEMPLATE_MAX:
        raise DomainError(field, f"a naming template has at most {TEMPLATE_MAX} characters")
    if "{" not in text:
        raise DomainError(field, "a naming template needs a counter such as {u} or {n}, or every device gets one name")
    try:
        pieces = list(Formatter().parse(text))
    except ValueError as err:
        raise DomainError(field, f"unbalanced braces: {err} (write {{{{ or }}}} for a brace itself)") from None
    parts: list[tuple[str, str | None, str]] = []
    known = ", ".join("{" + f + "}" for f in (*TEXT_FIELDS, *NUMBER_FIELDS))
    for literal, name, spec, conversion in pieces:
        if name is None:
            parts.append((literal, None, ""))
            continue
        if name not in TEXT_FIELDS and name not in NUMBER_FIELDS:
            raise DomainError(field, f"unknown field {{{name}}}: the fields are {known}")
        if conversion is not None:
            raise DomainError(field, f"{{{name}!{conversion}}}: conversions are not supported")
        spec = spec or ""
        if name in NUMBER_FIELDS and spec and not re.fullmatch(r"0?[1-9]", spec):
            raise DomainError(field, f"{{{name}:{spec}}}: a number takes a width such as :02 (zero-padded) or nothing")
        if name in TEXT_FIELDS and spec:
            raise DomainError(field, f"{{{name}:{spec}}}: a text field takes no format")
        parts.append((literal, name, spec))
    return Template(text, tuple(parts))


def check_host_name(name: str, field: str, device: str) -> None:
    if len(name) > HOST_NAME_MAX:
        raise DomainError(field, f"{device}: host name {name!r} is longer than {HOST_NAME_MAX} characters")
    if not HOST_NAME.match(name):
        raise DomainError(
            field,
            f"{device}: {name!r} is not a host name: use letters, digits, '.', '-' and '_', starting and "
            "ending with a letter or digit",
        )


def check_asset_tag(tag: str, field: str, device: str) -> None:
    if len(tag) > ASSET_TAG_MAX or not ASSET_TAG.match(tag):
        raise DomainError(
            field,
            f"{device}: asset tag {tag!r} must be 1-{ASSET_TAG_MAX} letters, digits, '.', '-', '_' or '/', "
            "starting with a letter or digit",
        )


def hall_slots(hall: Hall) -> list[DeviceSlot]:
    """Every device the layout places: fabric switches, and in compute racks each logical rack's
    servers and ToR (their U from `LogicalRack.server_us`/`tor_u`), in hall order, bottom to top."""
    slots: list[DeviceSlot] = []
    for row in hall.rows:
        ordered = sorted(row.racks, key=lambda r: r.position_mm)
        for number, rack in enumerate(ordered, start=1):
            units: list[tuple[int, str]] = [(fs.u, fs.role) for fs in rack.fabric_switches]
            if rack.role is RackRole.COMPUTE:
                for lr in rack.logical_racks:
                    units += [(u, "server") for u in lr.server_us()]
                    units.append((lr.tor_u(), "tor"))
            full = rack_name(hall.name, row.name, rack.name)
            for n, (u, role) in enumerate(sorted(units), start=1):
                slots.append(
                    DeviceSlot(device_name(full, u), hall.site, hall.name, row.name, number, rack.name, u, n, role)
                )
    return slots


@dataclass(frozen=True, slots=True)
class NamedDevice:
    slot: DeviceSlot
    host_name: str
    asset_tag: str | None
    source: str
    """`override`, `template` or `location`."""


@dataclass(frozen=True, slots=True)
class DeviceNames:
    """Location name -> host name and asset tag, as every export prints them."""

    names: Mapping[str, str]
    tags: Mapping[str, str]

    def host(self, device: str) -> str:
        """A device's host name; a location the naming does not know (a plan older than the layout)
        keeps its location name."""
        name = self.names.get(device)
        if name is not None:
            return name
        if device.endswith("B") and (first := self.names.get(device[:-1])) is not None:
            return first + TWIN_SUFFIX
        return device

    def asset_tag(self, device: str) -> str:
        return self.tags.get(device, "")

    def label(self, a_device: str, a_port: str, b_device: str, b_port: str) -> str:
        """The cable's label with host names (`labels.cable_label`'s form)."""
        return cable_label(self.host(a_device), a_port, self.host(b_device), b_port)


LOCATION_NAMES = DeviceNames({}, {})
"""No naming: every device is called by its location."""


def assign_names(
    slots: Iterable[DeviceSlot], template: Template | None, overrides: Mapping[str, Override]
) -> list[NamedDevice]:
    """Each device's host name and asset tag. Refused (naming both devices) when two devices would
    share a host name or an asset tag; a rendered name that is no host name is refused naming the
    device."""
    named: list[NamedDevice] = []
    by_name: dict[str, str] = {}
    by_tag: dict[str, str] = {}
    for slot in slots:
        o = overrides.get(slot.key, Override())
        if o.host_name:
            name, source = o.host_name, "override"
        elif template is not None:
            name, source = template.render(slot), "template"
            check_host_name(name, "template", slot.key)
        else:
            name, source = slot.key, "location"
        other = by_name.setdefault(name.lower(), slot.key)
        if other != slot.key:
            raise DomainError(
                "host_name" if source == "override" else "template",
                f"{other} and {slot.key} would both be named {name!r}: host names must be unique in the hall",
            )
        if o.asset_tag:
            tagged = by_tag.setdefault(o.asset_tag, slot.key)
            if tagged != slot.key:
                raise DomainError("asset_tag", f"{tagged} and {slot.key} both have the asset tag {o.asset_tag!r}")
        named.append(NamedDevice(slot, name, o.asset_tag, source))
    return named


def device_names(named: Iterable[NamedDevice]) -> DeviceNames:
    names: dict[str, str] = {}
    tags: dict[str, str] = {}
    for d in named:
        names[d.slot.key] = d.host_name
        if d.asset_tag:
            tags[d.slot.key] = d.asset_tag
    return DeviceNames(names, tags)


# --- CSV -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CsvIssue:
    """One refused cell: `field` is ``csv.line[3].host_name`` (the API's `loc`)."""

    field: str
    message: str
    code: str = "value_error"


class CsvRefused(DomainError):
    """Every refused cell of an upload; nothing of it is applied."""

    def __init__(self, issues: list[CsvIssue]) -> None:
        super().__init__(issues[0].field, issues[0].message)
        self.issues = issues


@dataclass(frozen=True, slots=True)
class CsvOverride:
    line: int
    device: str
    override: Override


def parse_overrides_csv(text: str, known: Iterable[str]) -> list[CsvOverride]:
    """Rows `device,host_name,asset_tag` (header first; `asset_tag` may be left out): an empty cell
    clears that override. Every bad cell is reported, naming its line (the header is line 1) and
    column; one bad cell refuses the whole file."""
    devices = set(known)
    issues: list[CsvIssue] = []

    def bad(line: int, column: str, reason: str) -> None:
        issues.append(CsvIssue(f"csv.line[{line}].{column}", f"line {line}, column {column}: {reason}"))

    try:
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    except csv.Error as err:  # a cell beyond the csv module's limit, a stray quote at the end
        raise CsvRefused([CsvIssue("csv", f"the file is not CSV the upload can read: {err}")]) from None
    if not rows:
        raise CsvRefused(
            [CsvIssue("csv", "the file is empty: the first line names the columns device,host_name,asset_tag")]
        )
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in CSV_COLUMNS[:2] if c not in header]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if missing or unknown:
        what = "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else [])
            + ([f"unknown {', '.join(unknown)}"] if unknown else [])
        )
        raise CsvRefused([CsvIssue("csv.line[1]", f"line 1: the columns are device,host_name[,asset_tag] ({what})")])
    at = {c: header.index(c) for c in CSV_COLUMNS if c in header}
    out: list[CsvOverride] = []
    seen: dict[str, int] = {}
    for line, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            bad(line, "device", f"{len(cells)} cells, the header has {len(header)} columns")
            continue
        cell = {c: (cells[i].strip() if i < len(cells) else "") for c, i in at.items()}
        device = cell["device"]
        if device not in devices:
            bad(line, "device", f"no device {device!r} in this hall (use the location names the export lists)")
            continue
        if device in seen:
            bad(line, "device", f"{device} is already on line {seen[device]}")
            continue
        seen[device] = line
        host = cell["host_name"] or None
        tag = cell.get("asset_tag") or None
        try:
            if host is not None:
                check_host_name(host, "host_name", device)
        except DomainError as err:
            bad(line, "host_name", err.reason)
        try:
            if tag is not None:
                check_asset_tag(tag, "asset_tag", device)
        except DomainError as err:
            bad(line, "asset_tag", err.reason)
        out.append(CsvOverride(line, device, Override(host, tag)))
    if issues:
        raise CsvRefused(issues)
    return out


def names_csv_rows(named: Iterable[NamedDevice]) -> Iterable[tuple[str, str, str, str]]:
    """The names as the upload takes them (device, host_name = the override, asset_tag, name = the
    name in effect): fill in host_name and send it back."""
    for d in named:
        yield d.slot.key, d.host_name if d.source == "override" else "", d.asset_tag or "", d.host_name
