"""The objects an empty NetBox needs to import a plan's cables, in the order its bulk import takes them.

NetBox (4.x) imports cables only between interfaces it already holds, interfaces only on devices,
devices only in sites and racks with a device type and a role. So a plan is exported as eight CSV
files, each one NetBox's own import form for that object (`netbox/dcim/forms/bulk_import.py`), to
be imported in file order. Every value is checked against NetBox's model rules here, so a
refusal happens in Loopline with the name of what to change, not half-way through an import.
Pure: domain values in, rows out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from loopline.domain.errors import DomainError
from loopline.domain.exports import NETBOX_COLUMNS

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
    "rack": 100,  # dcim/models/racks.py Rack.name
    "device_type": 100,  # dcim/models/devices.py DeviceType.model
    "device": 64,  # dcim/models/devices.py Device.name
    "interface": 64,  # dcim/models/device_components.py ComponentModel.name
    "label": 100,  # dcim/models/cables.py Cable.label
    "description": 200,
}
SLUG_MAX = 100
RACK_U_MAX = 100
"""dcim/constants.py RACK_U_HEIGHT_MAX: Rack.u_height and Device.position validators."""

ROLE_NAMES = {"server": "Server", "tor": "ToR", "agg": "Aggregation", "spine": "Spine", "core": "Core"}
ROLE_COLOURS = {"server": "2196f3", "tor": "4caf50", "agg": "ff9800", "spine": "9c27b0", "core": "f44336"}

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
RACK_COLUMNS = (
    "site", "name", "status", "form_factor", "width", "u_height", "outer_width", "outer_depth", "outer_unit",
    "description",
)  # fmt: skip
MANUFACTURER_COLUMNS = ("name", "slug")
DEVICE_TYPE_COLUMNS = ("manufacturer", "model", "slug", "u_height", "is_full_depth")
DEVICE_ROLE_COLUMNS = ("name", "slug", "color")
DEVICE_COLUMNS = (
    "name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face", "description",
    "asset_tag",
)  # fmt: skip
INTERFACE_COLUMNS = ("device", "name", "type", "speed", "enabled")

FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("01-sites.csv", SITE_COLUMNS),
    ("02-racks.csv", RACK_COLUMNS),
    ("03-manufacturers.csv", MANUFACTURER_COLUMNS),
    ("04-device-types.csv", DEVICE_TYPE_COLUMNS),
    ("05-device-roles.csv", DEVICE_ROLE_COLUMNS),
    ("06-devices.csv", DEVICE_COLUMNS),
    ("07-interfaces.csv", INTERFACE_COLUMNS),
    ("08-cables.csv", NETBOX_COLUMNS),
)
"""NetBox's import order: each file refers only to objects of the files before it."""
NETBOX_IMPORT_PAGES = {
    "01-sites.csv": "DCIM > Sites > Import",
    "02-racks.csv": "DCIM > Racks > Import",
    "03-manufacturers.csv": "DCIM > Manufacturers > Import",
    "04-device-types.csv": "DCIM > Device Types > Import",
    "05-device-roles.csv": "DCIM > Device Roles > Import",
    "06-devices.csv": "DCIM > Devices > Import",
    "07-interfaces.csv": "DCIM > Interfaces > Import",
    "08-cables.csv": "DCIM > Cables > Import",
}


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
class NetboxDevice:
    name: str
    role: str
    rack: str
    u: int
    model: str
    face: str
    asset_tag: str = ""
    """Empty: none (NetBox's `asset_tag` is unique where set)."""


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


def rack_rows(site: str, racks: Iterable[NetboxRack]) -> Iterator[Sequence[object]]:
    for r in racks:
        check_length("rack", r.name)
        if not 1 <= r.height_u <= RACK_U_MAX:
            raise DomainError("rack_type.height_u", f"NetBox racks are 1 to {RACK_U_MAX} U; {r.name} is {r.height_u}")
        where = f"row {r.row}, floor position x {r.x_mm / 1000:.2f} m, y {r.y_mm / 1000:.2f} m"
        yield (
            site, r.name, STATUS, RACK_FORM_FACTOR, RACK_WIDTH_IN, r.height_u, r.width_mm, r.depth_mm, "mm",
            where[: NAME_LIMITS["description"]],
        )  # fmt: skip


def manufacturer_rows() -> Iterator[Sequence[object]]:
    yield (MANUFACTURER, slugify(MANUFACTURER))


def device_type_rows(heights: dict[str, int]) -> Iterator[Sequence[object]]:
    """One device type per catalog model (`model` -> height in U); slugs made unique."""
    seen: set[str] = set()
    for model in sorted(heights):
        check_length("device_type", model)
        slug = base = slugify(model)
        n = 1
        while slug in seen:
            n += 1
            slug = f"{base[: SLUG_MAX - 1 - len(str(n))]}-{n}"
        seen.add(slug)
        yield (MANUFACTURER, model, slug, heights[model], "true")


def device_role_rows(roles: Iterable[str]) -> Iterator[Sequence[object]]:
    for role in sorted(set(roles)):
        yield (ROLE_NAMES.get(role, role), slugify(role), ROLE_COLOURS.get(role, "9e9e9e"))


def role_name(role: str) -> str:
    return ROLE_NAMES.get(role, role)


def device_rows(site: str, devices: Iterable[NetboxDevice]) -> Iterator[Sequence[object]]:
    """Devices at their lowest U on the rack face their ports are on. A device that shares its U
    with one listed before it (the second ToR of a parallel port set is modelled at its twin's U)
    is put in the rack without a position, which NetBox accepts, and says so."""
    taken: set[tuple[str, int]] = set()
    for d in devices:
        check_length("device", d.name)
        placed = (d.rack, d.u) not in taken and 1 <= d.u <= RACK_U_MAX
        taken.add((d.rack, d.u))
        note = "" if placed else f"shares U{d.u} with another device in the plan"
        yield (
            d.name, role_name(d.role), MANUFACTURER, d.model, STATUS, site, d.rack,
            d.u if placed else "", d.face if placed else "", note, d.asset_tag,
        )  # fmt: skip


def interface_rows(ends: Iterable[tuple[str, str, float]]) -> Iterator[Sequence[object]]:
    """Cabled ports, (device, port, Gb/s); NetBox's interface speed is in kbit/s."""
    for device, port, gbps in ends:
        check_length("interface", port)
        yield (device, port, interface_type(gbps), round(gbps * 1_000_000), "true")


def check_cable_label(label: str) -> None:
    check_length("label", label)


def readme(plan: str, hall: str, counts: dict[str, int] | None = None) -> str:
    lines = [
        f"NetBox import of Loopline plan {plan} (hall {hall})",
        "",
        "Import the files in this order into an empty NetBox 4.x, each in its own bulk-import",
        "page (CSV format), so every object finds the ones it refers to:",
        "",
    ]
    for name, _ in FILES:
        lines.append(f"  {name:<22} {NETBOX_IMPORT_PAGES[name]}")
    lines += [
        "",
        "Every object is `planned`. Racks carry their full Loopline name (hall.row.rack) and their",
        "floor position in the description; devices sit at their lowest U on the rack face their",
        "ports are on. Device types belong to one manufacturer, `Generic`. Interfaces are the",
        "cabled ports. Cable lengths are the ordered lengths in metres with two decimals.",
        "Names starting with = + - @ are prefixed with ' in every file alike (spreadsheet safety).",
    ]
    if counts:
        lines += ["", *(f"  {name}: {n} rows" for name, n in counts.items())]
    return "\n".join(lines) + "\n"
