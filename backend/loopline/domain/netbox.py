"""The objects an empty NetBox needs to import a plan's cables, in the order its bulk import takes them,
and the changes that bring a NetBox holding one plan to an upgrade of it.

NetBox (4.x) imports cables only between interfaces it already holds, interfaces only on devices,
devices only in sites and racks with a device type and a role. So a plan is exported as files in
NetBox's own import forms (`netbox/dcim/forms/bulk_import.py`; device types as YAML with their
interface templates, `dcim/forms/object_import.py`, so every device is created with its ports),
to be imported in file order. Every value is checked against NetBox's model rules here, so a
refusal happens in Loopline with the name of what to change, not half-way through an import.

Re-importing the same files duplicates nothing: each object has a NetBox uniqueness rule that
fires (site, manufacturer, role names; location (site, name); rack (location, name), which is
why every rack has its row's location: NetBox's rack rule ignores racks without one; device type
(manufacturer, model); device (site, name) for devices without a tenant; interface (device,
name); a cable on an interface that already has one). NetBox imports a file in one transaction,
so such a file is refused whole, naming the first duplicate.
Pure: domain values in, rows out.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from loopline.domain.device_names import DeviceNames
from loopline.domain.errors import DomainError
from loopline.domain.exports import NETBOX_COLUMNS
from loopline.domain.layout import ServerModel, SwitchModel
from loopline.domain.wiring.generate import server_port, switch_port

MANUFACTURER = "Generic"
"""Loopline's catalog names models, not makers; NetBox requires a manufacturer per device type."""
STATUS = "planned"
"""Every object of a plan is `planned` (Site/Rack/Device status choices and the cable's LinkStatus)."""
RACK_WIDTH_IN = 19
RACK_FORM_FACTOR = "4-post-cabinet"
INTERFACE = "dcim.interface"

# NetBox model limits (max_length and DecimalField digits) the exported values must respect.
NAME_LIMITS = {
    "site": 100,  # dcim/models/sites.py Site.name
    "location": 100,  # dcim/models/sites.py Location.name
    "rack": 100,  # dcim/models/racks.py Rack.name
    "device_type": 100,  # dcim/models/devices.py DeviceType.model
    "device": 64,  # dcim/models/devices.py Device.name
    "interface": 64,  # dcim/models/device_components.py ComponentModel.name
    "label": 100,  # dcim/models/cables.py Cable.label
    "description": 200,
    "power_panel": 100,  # dcim/models/power.py PowerPanel.name
    "power_feed": 100,  # dcim/models/power.py PowerFeed.name
}
SLUG_MAX = 100
RACK_U_MAX = 100
"""dcim/constants.py RACK_U_HEIGHT_MAX: Rack.u_height and Device.position validators."""

PDU_ROLE = "pdu"
PANEL_ROLE = "patch-panel"
ROLE_NAMES = {
    "server": "Server", "tor": "ToR", "agg": "Aggregation", "spine": "Spine", "core": "Core", PDU_ROLE: "PDU",
    PANEL_ROLE: "Patch panel",
}  # fmt: skip
ROLE_COLOURS = {
    "server": "2196f3", "tor": "4caf50", "agg": "ff9800", "spine": "9c27b0", "core": "f44336", PDU_ROLE: "795548",
    PANEL_ROLE: "607d8b",
}  # fmt: skip

# Interface type by port speed (Gb/s): dcim/choices.py InterfaceTypeChoices, the pluggable forms
# the catalog's switches and NICs use (SFP+, SFP28, SFP56, QSFP+, QSFP28, QSFP56, QSFP-DD).
INTERFACE_TYPES: dict[float, str] = {
    1: "1000base-x-sfp",
    10: "10gbase-x-sfpp",
    25: "25gbase-x-sfp28",
    40: "40gbase-x-qsfpp",
    50: "50gbase-x-sfp56",
    100: "100gbase-x-qsfp28",
    200: "200gbase-x-qsfp56",
    400: "400gbase-x-qsfpdd",
    800: "800gbase-x-qsfpdd",
}
OTHER_INTERFACE = "other"

SITE_COLUMNS = ("name", "slug", "status", "description")
LOCATION_COLUMNS = ("site", "name", "slug", "status", "description")
RACK_COLUMNS = (
    "site", "location", "name", "status", "form_factor", "width", "u_height", "outer_width", "outer_depth",
    "outer_unit", "description",
)  # fmt: skip
MANUFACTURER_COLUMNS = ("name", "slug")
DEVICE_ROLE_COLUMNS = ("name", "slug", "color")
DEVICE_COLUMNS = (
    "name", "role", "manufacturer", "device_type", "status", "site", "location", "rack", "position", "face",
    "description", "asset_tag",
)  # fmt: skip
INTERFACE_COLUMNS = ("device", "name", "type", "speed", "enabled")
POWER_PANEL_COLUMNS = ("site", "location", "name", "description")
POWER_FEED_COLUMNS = (
    "site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase", "voltage", "amperage",
    "max_utilization", "description",
)  # fmt: skip
POWER_CABLE_COLUMNS = (
    "side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
    "side_b_site", "side_b_device", "side_b_type", "side_b_name", "type", "status", "label",
)  # fmt: skip
"""NetBox's `CableImportForm` again, with `side_a_power_panel`: a power feed is found by its panel and
name (`_clean_side`), a PDU outlet or a device's power port by device and name."""
DEVICE_TYPES_YAML = "05-device-types.yaml"

FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("01-sites.csv", SITE_COLUMNS),
    ("02-locations.csv", LOCATION_COLUMNS),
    ("03-racks.csv", RACK_COLUMNS),
    ("04-manufacturers.csv", MANUFACTURER_COLUMNS),
    (DEVICE_TYPES_YAML, ()),
    ("06-device-roles.csv", DEVICE_ROLE_COLUMNS),
    ("07-devices.csv", DEVICE_COLUMNS),
    ("08-cables.csv", NETBOX_COLUMNS),
    ("09-power-panels.csv", POWER_PANEL_COLUMNS),
    ("10-power-feeds.csv", POWER_FEED_COLUMNS),
    ("11-power-cables.csv", POWER_CABLE_COLUMNS),
)
"""NetBox's import order: each file refers only to objects of the files before it. No interfaces
file: the device types carry interface, power-port and power-outlet templates, so NetBox creates
every port with its device. The power files come last: panels (one per row, in the row's
location), feeds (one per rack feed, in its rack), then the power cables (feed -> PDU input, PDU
outlet -> device power supply)."""
IMPORT_PAGES = {
    "sites": "DCIM > Sites > Import",
    "locations": "DCIM > Locations > Import",
    "racks": "DCIM > Racks > Import",
    "manufacturers": "DCIM > Manufacturers > Import",
    "device-types": "DCIM > Device Types > Import (YAML)",
    "device-roles": "DCIM > Device Roles > Import",
    "devices": "DCIM > Devices > Import",
    "interfaces": "DCIM > Interfaces > Import",
    "cables": "DCIM > Cables > Import",
    "power-panels": "DCIM > Power Panels > Import",
    "power-feeds": "DCIM > Power Feeds > Import",
    "power-cables": "DCIM > Cables > Import",
}


def import_page(file_name: str) -> str:
    """`03-racks.csv` -> NetBox's import page for racks."""
    kind = file_name.split("-", 1)[1].rsplit(".", 1)[0]
    return IMPORT_PAGES[kind]


CABLE_COLOURS: dict[str, str] = {
    "dac-passive": "000000",  # copper twinax is sold black
    "dac-active": "607d8b",  # grey: active copper, told apart from passive at a glance
    "aoc": "ff9800",  # orange
    "mmf-om4": "00ffff",  # aqua: TIA-598 jacket colour of OM3/OM4 multimode fibre
    "smf-os2": "ffeb3b",  # yellow: TIA-598 jacket colour of single-mode fibre
}
"""Cable colour by the cable's NetBox type (its medium; fibre split by mode), as NetBox's
`Cable.color` takes it (six lower-case hex digits, `utilities/fields.py` ColorField). A download
overrides any of them with `?cable_colours=type:rrggbb,...`."""
COLOUR = re.compile(r"^[0-9a-f]{6}$")


@dataclass(frozen=True, slots=True)
class NetboxRack:
    name: str
    """Full name (`H1.R01.K03`): NetBox finds a device's rack by name within the site, so the
    short rack name (`K03`, repeated in every row) would be ambiguous."""
    height_u: int
    width_mm: int
    depth_mm: int
    row: str
    x_mm: int
    y_mm: int


@dataclass(frozen=True, slots=True)
class PowerPortTemplate:
    """A power inlet of a device type; draws in whole watts (NetBox's `PositiveIntegerField`s), None:
    not known."""

    name: str
    maximum_draw: int | None = None
    allocated_draw: int | None = None


@dataclass(frozen=True, slots=True)
class NetboxDeviceType:
    """A catalog model as a NetBox device type with an interface template per port (and its power
    inlets; a PDU's outlets, each fed by one of its inlets)."""

    model: str
    height_u: int
    interfaces: tuple[tuple[str, float], ...]
    """(port name, Gb/s) in port order."""
    power_ports: tuple[PowerPortTemplate, ...] = ()
    power_outlets: tuple[tuple[str, str], ...] = ()
    """(outlet name, the power port feeding it)."""
    full_depth: bool = True
    rear_ports: tuple[tuple[str, str, int], ...] = ()
    """A patch panel's rear ports: (name, NetBox port type, positions)."""
    front_ports: tuple[tuple[str, str, str, int], ...] = ()
    """A patch panel's front ports: (name, NetBox port type, rear port, its position)."""


@dataclass(frozen=True, slots=True)
class NetboxDevice:
    name: str
    role: str
    rack: str
    u: int
    model: str
    face: str
    asset_tag: str = ""
    """Empty: none (NetBox's `asset_tag` is unique where set)."""


def server_type(m: ServerModel) -> NetboxDeviceType:
    """Ports `p1..p<nic_ports>`, named by the wiring."""
    return NetboxDeviceType(m.name, m.height_u, tuple((server_port(n), m.port_gbps) for n in range(1, m.nic_ports + 1)))


def switch_type(m: SwitchModel) -> NetboxDeviceType:
    """Ports `e1..e<server_ports>` (server-facing or downlinks), then the uplinks, named by the
    wiring."""
    down = [(switch_port(n), m.server_port_gbps) for n in range(1, m.server_ports + 1)]
    up = [(switch_port(m.server_ports + n), m.uplink_gbps) for n in range(1, m.uplink_ports + 1)]
    return NetboxDeviceType(m.name, m.height_u, tuple(down + up))


def _port_key(port: str) -> tuple[str, int, str]:
    m = re.fullmatch(r"([a-z]*)(\d+)", port)
    return (m.group(1), int(m.group(2)), "") if m else (port, 0, port)


def cabled_type(model: str, height_u: int, ports: Iterable[tuple[str, float]]) -> NetboxDeviceType:
    """A model outside the catalog (the second ToR of a parallel port set, which the wiring makes
    up): its cabled ports, in port order, the fastest speed seen on each."""
    speeds: dict[str, float] = {}
    for port, gbps in ports:
        speeds[port] = max(gbps, speeds.get(port, 0.0))
    return NetboxDeviceType(model, height_u, tuple((p, speeds[p]) for p in sorted(speeds, key=_port_key)))


def cable_colours(overrides: str | None) -> dict[str, str]:
    """CABLE_COLOURS with `type:rrggbb,...` applied (the `cable_colours` query parameter)."""
    colours = dict(CABLE_COLOURS)
    for item in (overrides or "").split(","):
        if not item.strip():
            continue
        kind, sep, colour = item.strip().partition(":")
        kind, colour = kind.strip(), colour.strip().lower().removeprefix("#")
        if not sep or kind not in CABLE_COLOURS:
            raise DomainError(
                "cable_colours",
                f"`{item.strip()}`: write type:rrggbb with a type among {', '.join(CABLE_COLOURS)}",
            )
        if not COLOUR.match(colour):
            raise DomainError("cable_colours", f"`{item.strip()}`: a colour is six hex digits (rrggbb)")
        colours[kind] = colour
    return colours


def slugify(text: str) -> str:
    """Django's `validate_slug` (`^[-a-zA-Z0-9_]+$`), lower case, at most 100 characters."""
    slug = re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-")[:SLUG_MAX].strip("-")
    return slug or "x"


def interface_type(gbps: float) -> str:
    return INTERFACE_TYPES.get(gbps, OTHER_INTERFACE)


WHAT = {"label": "cable label", "description": "description"}


def check_length(kind: str, value: str) -> None:
    limit = NAME_LIMITS[kind]
    if len(value) > limit:
        what = WHAT.get(kind, f"{kind.replace('_', ' ')} name")
        raise DomainError(
            kind,
            f"NetBox takes a {what} of at most {limit} characters; `{value}` has {len(value)}: "
            "shorten the hall, row or rack names",
        )


def site_rows(site: str, hall: str) -> Iterator[Sequence[object]]:
    check_length("site", site)
    yield (site, slugify(site), STATUS, f"Loopline hall {hall}"[: NAME_LIMITS["description"]])


def location_name(hall: str, row: str) -> str:
    """A row's location (`H1.R01`): named after its hall too, so two halls' rows in one site differ."""
    return f"{hall}.{row}"


def location_rows(site: str, hall: str, rows: Iterable[str]) -> Iterator[Sequence[object]]:
    """One location per row, under the site (NetBox: a location's name and slug are unique in its site)."""
    for row in rows:
        name = location_name(hall, row)
        check_length("location", name)
        yield (site, name, slugify(name), STATUS, f"Loopline row {row} of hall {hall}"[: NAME_LIMITS["description"]])


def rack_rows(site: str, hall: str, racks: Iterable[NetboxRack]) -> Iterator[Sequence[object]]:
    """Each rack in its row's location, where NetBox's (location, name) rule keeps it unique."""
    for r in racks:
        check_length("rack", r.name)
        if not 1 <= r.height_u <= RACK_U_MAX:
            raise DomainError("rack_type.height_u", f"NetBox racks are 1 to {RACK_U_MAX} U; {r.name} is {r.height_u}")
        where = f"row {r.row}, floor position x {r.x_mm / 1000:.2f} m, y {r.y_mm / 1000:.2f} m"
        yield (
            site, location_name(hall, r.row), r.name, STATUS, RACK_FORM_FACTOR, RACK_WIDTH_IN, r.height_u,
            r.width_mm, r.depth_mm, "mm",
            where[: NAME_LIMITS["description"]],
        )  # fmt: skip


def manufacturer_rows() -> Iterator[Sequence[object]]:
    yield (MANUFACTURER, slugify(MANUFACTURER))


def device_type_slugs(models: Iterable[str]) -> dict[str, str]:
    """A slug per model, made unique in model order (so the same models always get the same slugs)."""
    seen: set[str] = set()
    slugs: dict[str, str] = {}
    for model in sorted(set(models)):
        check_length("device_type", model)
        slug = base = slugify(model)
        n = 1
        while slug in seen:
            n += 1
            slug = f"{base[: SLUG_MAX - 1 - len(str(n))]}-{n}"
        seen.add(slug)
        slugs[model] = slug
    return slugs


def _yaml_text(value: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(value, ensure_ascii=False)


def device_types_yaml(types: Iterable[NetboxDeviceType], slugs: Mapping[str, str]) -> Iterator[str]:
    """NetBox's device type import (YAML, one document per type) with an interface template per
    port, so every device NetBox creates from a type comes with its interfaces."""
    for t in sorted(types, key=lambda t: t.model):
        check_length("device_type", t.model)
        lines = [
            "---",
            f"manufacturer: {_yaml_text(MANUFACTURER)}",
            f"model: {_yaml_text(t.model)}",
            f"slug: {_yaml_text(slugs[t.model])}",
            f"u_height: {t.height_u}",
            f"is_full_depth: {'true' if t.full_depth else 'false'}",
        ]
        if t.interfaces:
            lines.append("interfaces:")
        for port, gbps in t.interfaces:
            check_length("interface", port)
            lines += [f"  - name: {_yaml_text(port)}", f"    type: {interface_type(gbps)}"]
        if t.power_ports:
            lines.append("power-ports:")
        for pp in t.power_ports:
            lines.append(f"  - name: {_yaml_text(pp.name)}")
            draws = (("maximum_draw", pp.maximum_draw), ("allocated_draw", pp.allocated_draw))
            lines += [f"    {k}: {v}" for k, v in draws if v is not None]
        if t.power_outlets:
            lines.append("power-outlets:")
        for outlet, inlet in t.power_outlets:
            lines += [f"  - name: {_yaml_text(outlet)}", f"    power_port: {_yaml_text(inlet)}"]
        if t.rear_ports:  # before the front ports, which name them
            lines.append("rear-ports:")
        for name, kind, positions in t.rear_ports:
            check_length("interface", name)
            lines += [f"  - name: {_yaml_text(name)}", f"    type: {kind}", f"    positions: {positions}"]
        if t.front_ports:
            lines.append("front-ports:")
        for name, kind, rear, position in t.front_ports:
            check_length("interface", name)
            lines += [
                f"  - name: {_yaml_text(name)}",
                f"    type: {kind}",
                f"    rear_port: {_yaml_text(rear)}",
                f"    rear_port_position: {position}",
            ]
        yield "\n".join(lines) + "\n"


def device_role_rows(roles: Iterable[str]) -> Iterator[Sequence[object]]:
    for role in sorted(set(roles)):
        yield (ROLE_NAMES.get(role, role), slugify(role), ROLE_COLOURS.get(role, "9e9e9e"))


def role_name(role: str) -> str:
    return ROLE_NAMES.get(role, role)


def device_rows(
    site: str, devices: Iterable[NetboxDevice], locations: Mapping[str, str], taken: Iterable[tuple[str, int]] = ()
) -> Iterator[Sequence[object]]:
    """Devices at their lowest U on the rack face their ports are on, in their rack's location
    (`locations`: rack -> location). A device that shares its U with one listed before it, or with
    one of `taken` (rack, U) already in NetBox (the second ToR of a parallel port set is modelled at
    its twin's U) is put in the rack without a position, which NetBox accepts, and says so."""
    occupied: set[tuple[str, int]] = set(taken)
    for d in devices:
        check_length("device", d.name)
        placed = (d.rack, d.u) not in occupied and 1 <= d.u <= RACK_U_MAX
        occupied.add((d.rack, d.u))
        note = "" if placed else f"shares U{d.u} with another device in the plan"
        yield (
            d.name, role_name(d.role), MANUFACTURER, d.model, STATUS, site, locations.get(d.rack, ""), d.rack,
            d.u if placed else "", d.face if placed else "", note, d.asset_tag,
        )  # fmt: skip


def interface_rows(ends: Iterable[tuple[str, str, float]]) -> Iterator[Sequence[object]]:
    """Cabled ports, (device, port, Gb/s); NetBox's interface speed is in kbit/s."""
    for device, port, gbps in ends:
        check_length("interface", port)
        yield (device, port, interface_type(gbps), round(gbps * 1_000_000), "true")


# --- power: panels, feeds, PDUs and what plugs into them -------------------------------------------

POWER_SUPPLIES = ("PSU1", "PSU2")
"""Every server and switch is given two power supplies (the redundant pair the catalog's models
ship with): on a rack with A and B feeds PSU1 plugs into PDU A and PSU2 into PDU B, so either feed
alone keeps the device up (N+N); on a rack with one feed both plug into its PDU."""
PDU_INLET = "input"
POWER_CABLE = "power"
"""dcim/choices.py CableTypeChoices.TYPE_POWER."""
FEED_TYPES = {"A": "primary", "B": "redundant"}
"""dcim/choices.py PowerFeedTypeChoices."""
SUPPLY_AC = "ac"
PHASES = {1: "single-phase", 3: "three-phase"}
"""dcim/choices.py PowerFeedPhaseChoices."""


@dataclass(frozen=True, slots=True)
class NetboxFeed:
    """One power feed of a rack (`facility.model.Feed` with the rack it feeds)."""

    rack: str
    """Full rack name (`H1.R01.K03`), as in 03-racks.csv."""
    row: str
    feed: str
    """"A" or "B"."""
    voltage_v: float
    """Line-to-neutral."""
    phases: int
    breaker_a: float
    pdu: str | None


def psu_templates(max_w: float | None, typical_w: float | None) -> tuple[PowerPortTemplate, ...]:
    """A server's or switch's two supplies. Each may have to carry the whole device (its partner's
    feed down), so each one's maximum draw is the device's maximum; in normal running they share
    it, so each is allocated half the typical draw. Whole watts, rounded up; unknown stays unknown."""
    most = math.ceil(max_w) if max_w is not None and max_w >= 1 else None
    share = math.ceil(typical_w / 2) if typical_w is not None and typical_w >= 2 else None
    if most is not None and share is not None:
        share = min(share, most)
    return tuple(PowerPortTemplate(name, most, share) for name in POWER_SUPPLIES)


def outlet_name(n: int) -> str:
    return f"outlet{n}"


def pdu_type(model: str, outlets: int) -> NetboxDeviceType:
    """A rack PDU: zero-U (mounted in the rack's side channel), one inlet feeding every outlet."""
    sockets = tuple((outlet_name(n), PDU_INLET) for n in range(1, outlets + 1))
    return NetboxDeviceType(model, 0, (), (PowerPortTemplate(PDU_INLET),), sockets, full_depth=False)


def power_panel_name(hall: str, row: str) -> str:
    """One panel per row (the row's remote power panel), named after its location: `H1.R01.PP`."""
    return f"{location_name(hall, row)}.PP"


def power_feed_name(f: NetboxFeed) -> str:
    return f"{f.rack}-{f.feed}"


def pdu_name(f: NetboxFeed) -> str:
    return f"{f.rack}-PDU-{f.feed}"


def power_panel_rows(site: str, hall: str, rows: Iterable[str]) -> Iterator[Sequence[object]]:
    for row in rows:
        name = power_panel_name(hall, row)
        check_length("power_panel", name)
        description = f"Loopline: the feeds of row {row} of hall {hall}"[: NAME_LIMITS["description"]]
        yield (site, location_name(hall, row), name, description)


def _whole(value: float, field: str, what: str) -> int:
    if not float(value).is_integer():
        raise DomainError(field, f"NetBox stores a feed's {what} as a whole number; {value:g} is not one")
    return int(value)


def netbox_voltage(f: NetboxFeed) -> int:
    """NetBox reckons a three-phase feed's power as voltage x amperage x 1.732: its voltage is
    line-to-line (230 V line-to-neutral -> 398 V); a single-phase feed's is the one it has."""
    if f.phases == 3:
        return round(f.voltage_v * math.sqrt(3))
    return _whole(f.voltage_v, f"racks.{f.rack}.feeds.{f.feed}.voltage_v", "voltage")


def power_feed_rows(
    site: str, hall: str, feeds: Iterable[NetboxFeed], continuous_fraction: float
) -> Iterator[Sequence[object]]:
    """A feed per rack feed, from its row's panel into its rack (in the rack's location, where
    NetBox's import looks the rack up), planned, AC; `max_utilization` is the hall's continuous
    limit (80 %)."""
    utilisation = round(continuous_fraction * 100)
    if not 1 <= utilisation <= 100:
        raise DomainError("continuous_fraction", f"NetBox's max utilisation is 1 to 100 %; {utilisation} % is not")
    for f in feeds:
        name = power_feed_name(f)
        check_length("power_feed", name)
        if f.phases not in PHASES:
            raise DomainError(
                f"racks.{f.rack}.feeds.{f.feed}.phases", f"a feed is single- or three-phase, not {f.phases}"
            )
        amperage = _whole(f.breaker_a, f"racks.{f.rack}.feeds.{f.feed}.breaker_a", "breaker amperage")
        yield (
            site, power_panel_name(hall, f.row), location_name(hall, f.row), f.rack, name, STATUS,
            FEED_TYPES.get(f.feed, "primary"), SUPPLY_AC, PHASES[f.phases], netbox_voltage(f), amperage, utilisation,
            f"{f.voltage_v:g} V {PHASES[f.phases]}, {f.breaker_a:g} A breaker",
        )  # fmt: skip


def pdu_device_rows(site: str, feeds: Iterable[NetboxFeed], locations: Mapping[str, str]) -> Iterator[Sequence[object]]:
    """A PDU per feed that names a model, in its rack without a position (zero-U)."""
    for f in feeds:
        if f.pdu is None:
            continue
        name = pdu_name(f)
        check_length("device", name)
        yield (
            name, role_name(PDU_ROLE), MANUFACTURER, f.pdu, STATUS, site, locations.get(f.rack, ""), f.rack, "", "",
            f"feed {f.feed} PDU", "",
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Plugged:
    """Where a device's supply plugs in: `pdu`'s outlet number `outlet`."""

    device: str
    supply: str
    pdu: str
    outlet: int


def plugging(rack_feeds: Sequence[NetboxFeed], devices: Sequence[str], outlets: Mapping[str, int]) -> list[Plugged]:
    """A rack's devices (in U order, bottom up) onto its PDUs' outlets in order: with A and B feeds,
    PSU1 on PDU A's outlet k and PSU2 on PDU B's for the k-th device; with one feed, PSU1 and PSU2
    on its outlets 2k-1 and 2k. A supply with no outlet left, or no PDU on its feed, is not plugged."""
    with_pdu = [f for f in sorted(rack_feeds, key=lambda f: f.feed) if f.pdu is not None]
    out: list[Plugged] = []
    if len(rack_feeds) >= 2:
        for f, supply in zip(sorted(rack_feeds, key=lambda f: f.feed), POWER_SUPPLIES, strict=False):
            if f.pdu is None:
                continue
            most = outlets.get(f.pdu, 0)
            out += [Plugged(d, supply, pdu_name(f), k) for k, d in enumerate(devices, 1) if k <= most]
    elif with_pdu:
        (f,) = with_pdu
        most = outlets.get(f.pdu or "", 0)
        k = 0
        for d in devices:
            for supply in POWER_SUPPLIES:
                k += 1
                if k <= most:
                    out.append(Plugged(d, supply, pdu_name(f), k))
    return out


def unplugged(feeds: Iterable[NetboxFeed], devices_per_rack: Mapping[str, int], outlets: Mapping[str, int]) -> int:
    """Supplies `plugging` leaves without an outlet (too few outlets, or a feed without a PDU)."""
    by_rack: dict[str, list[NetboxFeed]] = {}
    for f in feeds:
        by_rack.setdefault(f.rack, []).append(f)
    left = 0
    for rack, n in devices_per_rack.items():
        fs = by_rack.get(rack, [])
        names = [str(i) for i in range(n)]
        left += n * len(POWER_SUPPLIES) - len(plugging(fs, names, outlets)) if fs else n * len(POWER_SUPPLIES)
    return left


def power_cable_rows(
    site: str,
    hall: str,
    feeds: Sequence[NetboxFeed],
    racks: Iterable[tuple[str, Sequence[str]]],
    outlets: Mapping[str, int],
) -> Iterator[Sequence[object]]:
    """Each feed to its PDU's inlet, then (rack by rack, `racks`: rack -> its devices' host names in
    `power_order`) each device's supplies to PDU outlets (`plugging`). NetBox finds a feed by its panel
    and name, an outlet or supply by its device and name; a cable on a port that has one is refused
    (a second import adds nothing). Labels: the feed's name, or the PDU and outlet (`<pdu>:outlet3`),
    which an upgrade's delete file names."""
    by_rack: dict[str, list[NetboxFeed]] = {}
    for f in feeds:
        by_rack.setdefault(f.rack, []).append(f)
        if f.pdu is not None:
            yield (
                site, "", power_panel_name(hall, f.row), "dcim.powerfeed", power_feed_name(f),
                site, pdu_name(f), "dcim.powerport", PDU_INLET, POWER_CABLE, STATUS, power_feed_name(f),
            )  # fmt: skip
    for rack, devices in racks:
        for p in plugging(by_rack.get(rack, []), devices, outlets):
            label = f"{p.pdu}:{outlet_name(p.outlet)}"
            check_length("label", label)
            yield (
                site, p.pdu, "", "dcim.poweroutlet", outlet_name(p.outlet),
                site, p.device, "dcim.powerport", p.supply, POWER_CABLE, STATUS, label,
            )  # fmt: skip


def power_order(devices: Sequence[tuple[str, int]]) -> list[str]:
    """A rack's devices (host name, U), in U order, as they take the PDUs' outlets: every device that
    is first at its U, bottom up, then those that share a U with one before (the second ToR of a
    parallel port set, which an upgrade adds), so an upgrade's new devices take the next free outlets
    and no device of the plan before is re-plugged."""
    seen: set[int] = set()
    first: list[str] = []
    after: list[str] = []
    for name, u in devices:
        (after if u in seen else first).append(name)
        seen.add(u)
    return first + after


def _wrapped(text: str, width: int = 96) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def readme(
    plan: str,
    hall: str,
    cable_colours: Mapping[str, str] | None = None,
    unplugged_supplies: int = 0,
    plant_note: str | None = None,
) -> str:
    lines = [
        f"NetBox import of Loopline plan {plan} (hall {hall})",
        "",
        "Import the files in this order into an empty NetBox 4.x, each in its own bulk-import",
        "page (CSV, or YAML for the device types), so every object finds the ones it refers to:",
        "",
    ]
    for name, _ in FILES:
        lines.append(f"  {name:<22} {import_page(name)}")
    lines += [
        "",
        "Every object is `planned`. Each row is a location of the site (hall.row); racks carry their",
        "full Loopline name (hall.row.rack), their row's location and their floor position in the",
        "description; devices sit at their lowest U on the rack face their ports are on. Device types",
        "belong to one manufacturer, `Generic`, and carry an interface template per port, so NetBox",
        "creates each device with its interfaces. Cable lengths are the ordered lengths in metres",
        "with two decimals; cable colours go by type:",
        *(f"  {kind:<12} #{colour}" for kind, colour in (cable_colours or CABLE_COLOURS).items()),
        "Names starting with = + - @ are prefixed with ' in every file alike (spreadsheet safety).",
        "",
        "Power: a power panel per row (hall.row.PP, in the row's location) and a power feed per rack",
        "feed (rack-A primary, rack-B redundant), planned, AC, with the breaker's amperage; a three-",
        "phase feed's voltage is line-to-line (NetBox multiplies by 1.732), its max utilisation the",
        "hall's continuous limit. A PDU per feed that names a PDU model is a zero-U device in its rack",
        "(no position), with an input and its outlets; servers and switches have two supplies, PSU1",
        "and PSU2, with their maximum draw and half their typical draw each (either may carry the",
        "device alone). The power cables join each feed to its PDU's input and, in U order, PSU1 to",
        "PDU A and PSU2 to PDU B (both to the one PDU of a single-feed rack); a device that shares its",
        "U with another (a parallel ToR) takes its outlets after the rack's other devices.",
        *(
            [f"{unplugged_supplies} supplies are left unplugged: their feed has no PDU or its PDU no outlet left."]
            if unplugged_supplies
            else []
        ),
        "",
        *([*_wrapped(plant_note), ""] if plant_note else []),
        "Importing the files again adds nothing: NetBox refuses each file whole at its first object",
        "that already exists (names of sites, locations in a site, racks in a location, devices in",
        "a site; interfaces already cabled).",
        "",
        "To apply an upgrade of this plan later, download the upgrade's NetBox changes",
        "(netbox-upgrade.zip) and apply them to the NetBox holding this import.",
    ]
    return "\n".join(lines) + "\n"


# --- an upgrade: the changes from the plan NetBox holds to its upgrade ----------------------------

DELETE_CABLE_COLUMNS = ("label", "side_a_device", "side_a_name", "side_b_device", "side_b_name")
DELETE_INTERFACE_COLUMNS = ("device", "name")
DELETE_DEVICE_COLUMNS = ("name",)
UPGRADE_FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("1-delete-cables.csv", DELETE_CABLE_COLUMNS),
    ("2-delete-interfaces.csv", DELETE_INTERFACE_COLUMNS),
    ("3-delete-devices.csv", DELETE_DEVICE_COLUMNS),
    ("4-device-types.yaml", ()),
    ("5-device-roles.csv", DEVICE_ROLE_COLUMNS),
    ("6-devices.csv", DEVICE_COLUMNS),
    ("7-interfaces.csv", INTERFACE_COLUMNS),
    ("8-cables.csv", NETBOX_COLUMNS),
    ("9-power-cables.csv", POWER_CABLE_COLUMNS),
)
"""Removals first (a cable frees its interfaces, an interface or device goes once no cable holds
it), then additions in NetBox's import order. A file with nothing to do is left out."""
IMPORT_PAGES |= {
    "delete-cables": "DCIM > Cables: filter by these labels, select all, Delete selected",
    "delete-interfaces": "DCIM > Interfaces: filter by device and name, select all, Delete selected",
    "delete-devices": "DCIM > Devices: filter by these names, select all, Delete selected",
}


@dataclass(frozen=True, slots=True)
class PlanDevice:
    """A device of a stored plan, by its location name (`H1.R01.R01-01.U05`)."""

    name: str
    role: str
    rack: str
    u: int
    model: str


@dataclass(frozen=True, slots=True)
class NetboxUpgrade:
    """What changes in NetBox from a plan to its upgrade, devices by host name."""

    delete_interfaces: list[tuple[str, str]]
    delete_devices: list[str]
    device_types: list[NetboxDeviceType]
    roles: list[str]
    devices: list[NetboxDevice]
    interfaces: list[tuple[str, str, float]]
    taken: set[tuple[str, int]]
    """(rack, U) of the devices NetBox keeps: a new device there goes without a position."""
    retyped: list[tuple[str, str, str]]
    """(device, old model, new model) of devices both plans hold as different models."""


def upgrade_changes(
    hardware_added: Iterable[str],
    hardware_removed: Iterable[str],
    old_devices: Mapping[str, PlanDevice],
    new_devices: Mapping[str, PlanDevice],
    old_types: Mapping[str, NetboxDeviceType],
    new_types: Mapping[str, NetboxDeviceType],
    faces: Mapping[str, str],
    names: DeviceNames,
) -> NetboxUpgrade:
    """The devices, device types, roles and interfaces to add and remove, from the plan diff's
    hardware (`diff_plans`: devices by name in only one plan) and both plans' devices. A device
    both plans hold keeps its NetBox interfaces (its old model's ports): the ports only its new
    model has are added, the ones only the old had removed. Types and roles are those the new
    devices need that the old plan did not use."""
    added = sorted(hardware_added, key=lambda n: (new_devices[n].rack, new_devices[n].u, n))
    removed = sorted(hardware_removed)
    kept = sorted(n for n in new_devices if n in old_devices)
    delete_interfaces: list[tuple[str, str]] = []
    interfaces: list[tuple[str, str, float]] = []
    retyped: list[tuple[str, str, str]] = []
    for n in kept:
        before, after = old_devices[n].model, new_devices[n].model
        if before != after:
            retyped.append((names.host(n), before, after))
        old_ports = dict(old_types[before].interfaces)
        new_ports = new_types[after].interfaces
        interfaces += [(names.host(n), p, gbps) for p, gbps in new_ports if p not in old_ports]
        gone = dict(new_ports)
        delete_interfaces += [(names.host(n), p) for p, _ in old_types[before].interfaces if p not in gone]
    old_models = {d.model for d in old_devices.values()}
    wanted = {new_devices[n].model for n in added} | {after for _, _, after in retyped}
    old_roles = {d.role for d in old_devices.values()}
    devices = [
        NetboxDevice(names.host(n), d.role, d.rack, d.u, d.model, faces.get(d.rack, "front"), names.asset_tag(n))
        for n in added
        for d in (new_devices[n],)
    ]
    return NetboxUpgrade(
        delete_interfaces=delete_interfaces,
        delete_devices=[names.host(n) for n in removed],
        device_types=[new_types[m] for m in sorted(wanted - old_models)],
        roles=sorted({new_devices[n].role for n in added} - old_roles),
        devices=devices,
        interfaces=interfaces,
        taken={(old_devices[n].rack, old_devices[n].u) for n in kept},
        retyped=retyped,
    )


def upgrade_readme(
    old: str, new: str, hall: str, counts: Mapping[str, int], retyped: Sequence[tuple[str, str, str]]
) -> str:
    lines = [
        f"NetBox changes from Loopline plan {old} to its upgrade {new} (hall {hall})",
        "",
        f"For a NetBox that holds plan {old} (imported from its netbox.zip). Apply the files in this",
        "order; a file is left out when it has nothing to do:",
        "",
    ]
    for name, _ in UPGRADE_FILES:
        if counts.get(name):
            lines.append(f"  {name:<26} {counts[name]:>6}  {import_page(name)}")
    lines += [
        "",
        "NetBox deletes only objects picked in a list (or by id through its REST API): the delete",
        "files name each object as NetBox's list filters find it (cables by label, interfaces by",
        "device and name, devices by name). scripts/netbox_check.py in Loopline applies a whole",
        "upgrade through the REST API that way. The other files are bulk imports (CSV; YAML for",
        "device types). Removed cables include each moved cable's old run and each kept cable whose",
        "part or length changed; their new runs are in 8-cables.csv.",
        "",
        "Power: new devices come with their two power supplies (from their types); 9-power-cables.csv",
        "plugs them into the next free outlets of their rack's PDUs, and the plugs of removed devices",
        "are in 1-delete-cables.csv (by label, `<pdu>:outlet<n>`). No kept device is re-plugged.",
    ]
    if retyped:
        lines += ["", "Devices the upgrade gives another model (edit each device's type in NetBox):"]
        lines += [f"  {device}: {old_model} -> {new_model}" for device, old_model, new_model in retyped[:50]]
        if len(retyped) > 50:
            lines.append(f"  ... and {len(retyped) - 50} more")
    return "\n".join(lines) + "\n"
