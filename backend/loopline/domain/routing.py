"""Cable routing through the hall (DESIGN §3.3) and the two geometry presets.

A port is a point: the centre of its rack's port face (front or rear, from the layout) along the
row, at the vertical centre of its device. All lengths are integer millimetres.

``default`` (realistic):
- same rack: a vertical run along the rack from one port height to the other (plus the rack
  depth when the two ports are on opposite faces);
- different racks: up to the overhead tray (``hall.tray_height_mm`` above the tallest rack),
  along the tray grid Manhattan (along the row, across aisles, between rows and to network
  racks, no diagonals), and back down: ``(T - za) + |dx| + |dy| + (T - zb)``;
- lengths: raw routed length, + a service allowance per end (150 mm) and 5 % slack, then rounded
  up to the chosen part's next sold length.
- ``default.with_route(Via.FLOOR)`` routes between racks under a raised floor instead: down to half
  the void's depth, along, back up: ``za + floor/2 + |dx| + |dy| + floor/2 + zb``.

``paper`` (exactly DESIGN §3.3): each rack is scaled to 2.0 m high (its U count spread over 2 m),
racks 0.5 m wide and touching (the abstract layout builds them so), ports on the cold-aisle
face, wires run along the rack faces parallel to the floor: the length is the 3D Manhattan
distance ``|dx| + |dy| + |dz|`` between the two ports, with no tray offset, no service allowance,
no slack and no rounding.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from loopline.domain.errors import DomainError
from loopline.domain.layout import U_MM, Face, Hall, Rack, Row, Side


class Via(StrEnum):
    TRAY = "tray"
    """Between racks: up to the overhead tray, along it, back down."""
    FLOOR = "floor"
    """Between racks: down into the raised floor (to half its depth), along it, back up."""
    FACES = "faces"
    """Along the rack faces, parallel to the floor: 3D Manhattan distance (paper)."""


@dataclass(frozen=True, slots=True)
class GeometryPreset:
    name: str
    via: Via
    """How a cable gets from one rack to another."""
    rack_height_mm: int | None
    """None: devices sit at their U height (44.45 mm per U); else every rack is scaled to this."""
    service_allowance_mm: int
    """Added once per cable end."""
    slack_permille: int
    """Slack in thousandths of (raw + allowances): 50 = 5 %."""
    round_to_sold: bool
    """Ordered length = next sold length of the part (else the length with slack)."""
    cold_aisle_ports: bool = False
    """True: every server and ToR port is on the rack front (the cold-aisle face), whatever the
    rack's `port_face` (paper); False: the face the layout gives."""

    def with_lengths(
        self, *, service_allowance_mm: int | None = None, slack_pct: float | None = None
    ) -> GeometryPreset:
        """A copy with a project's own service allowance and slack."""
        allowance = self.service_allowance_mm if service_allowance_mm is None else service_allowance_mm
        slack = self.slack_permille if slack_pct is None else round(slack_pct * 10)
        if allowance < 0:
            raise DomainError("service_allowance_mm", "must be >= 0")
        if slack < 0:
            raise DomainError("slack_pct", "must be >= 0")
        return replace(self, service_allowance_mm=allowance, slack_permille=slack)

    def with_route(self, via: Via) -> GeometryPreset:
        """A copy routing between racks another way (e.g. under a raised floor)."""
        return replace(self, via=via)

    def with_slack_mm(self, raw_mm: int) -> int:
        """Raw routed length + service allowance at both ends + percentage slack (rounded up)."""
        total = raw_mm + 2 * self.service_allowance_mm
        return (total * (1000 + self.slack_permille) + 999) // 1000


DEFAULT_GEOMETRY = GeometryPreset(
    name="default",
    via=Via.TRAY,
    rack_height_mm=None,
    service_allowance_mm=150,
    slack_permille=50,
    round_to_sold=True,
)
PAPER_GEOMETRY = GeometryPreset(
    name="paper",
    via=Via.FACES,
    rack_height_mm=2000,
    service_allowance_mm=0,
    slack_permille=0,
    round_to_sold=False,
    cold_aisle_ports=True,
)
PRESETS: dict[str, GeometryPreset] = {"default": DEFAULT_GEOMETRY, "paper": PAPER_GEOMETRY}


def geometry_preset(name: str) -> GeometryPreset:
    try:
        return PRESETS[name]
    except KeyError:
        raise DomainError("geometry", f"unknown geometry {name!r}; use one of {sorted(PRESETS)}") from None


@dataclass(frozen=True, slots=True)
class PortPoint:
    """Where a device's ports are: floor position of the rack's port face and height."""

    x_mm: int
    y_mm: int
    z_mm: int
    rack: int
    """Any key unique per physical rack (same rack -> vertical run only)."""


def face_xy(row: Row, rack: Rack, face: Face | None = None) -> tuple[int, int]:
    """Floor point at the centre of a rack's `face` (its port face by default)."""
    face = rack.port_face if face is None else face
    ux, uy = row.unit
    nx, ny = row.normal
    along = rack.position_mm + rack.rack_type.width_mm // 2
    front_off = rack.rack_type.depth_mm if row.front is Side.LEFT else 0
    off = front_off if face is Face.FRONT else rack.rack_type.depth_mm - front_off
    return (row.origin.x_mm + ux * along + nx * off, row.origin.y_mm + uy * along + ny * off)


def ports_xy(preset: GeometryPreset, row: Row, rack: Rack) -> tuple[int, int]:
    """Floor point of a rack's ports in `preset`: its port face, or the front where the geometry puts
    every port on the cold aisle. Devices and patch panels alike (the generator, the plant builder
    and the facility checks place ports by this one rule)."""
    return face_xy(row, rack, Face.FRONT if preset.cold_aisle_ports else None)


def device_z_mm(preset: GeometryPreset, rack: Rack, u: int, height_u: int = 1) -> int:
    """Height above the rack floor of the centre of a device occupying `height_u` from `u`."""
    if preset.rack_height_mm is None:
        return round((u - 1 + height_u / 2) * U_MM)
    # (u - 1 + h/2) / H_u of the scaled rack height, in exact integer arithmetic.
    return ((2 * (u - 1) + height_u) * preset.rack_height_mm) // (2 * rack.rack_type.height_u)


def tray_z_mm(preset: GeometryPreset, hall: Hall) -> int:
    """Height of the overhead tray (default preset): tallest rack top + the hall's tray offset."""
    tallest = max(
        ((preset.rack_height_mm or round(rk.rack_type.height_u * U_MM)) for row in hall.rows for rk in row.racks),
        default=0,
    )
    return tallest + hall.tray_height_mm


def route_mm(preset: GeometryPreset, tray_z: int, a: PortPoint, b: PortPoint, floor_mm: int = 0) -> int:
    """Raw routed length of a cable between two ports (see the module docstring).

    `tray_z`: height of the overhead tray (Via.TRAY); `floor_mm`: depth of the raised floor void
    (Via.FLOOR: cables run at half its depth, so each end drops z + floor_mm / 2).
    """
    dxy = abs(a.x_mm - b.x_mm) + abs(a.y_mm - b.y_mm)
    if a.rack == b.rack or preset.via is Via.FACES:
        return dxy + abs(a.z_mm - b.z_mm)
    if preset.via is Via.FLOOR:
        return a.z_mm + b.z_mm + dxy + 2 * (floor_mm // 2)
    return (tray_z - a.z_mm) + dxy + (tray_z - b.z_mm)
