"""The physical layout as the domain sees it: halls, rows, racks, logical racks, devices.

Pure, immutable dataclasses in integer millimetres and whole rack units. The database layer
builds these from its rows; the wiring generator and the validators read only these.

Coordinates: x along the hall's width, y along its depth, z up from the (structural) floor.
A row is a rectangle of racks. It starts at `origin` and runs along `direction` (0, 90, 180 or
270 degrees from +x, counter-clockwise); its racks extend `depth_mm` to the left of that line
(the left-hand normal). `front` says which long side of the row the rack fronts face, seen
walking along `direction`: ``left`` is the far side (origin + depth along the normal),
``right`` is the origin line. Two rows whose fronts face each other share a cold aisle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

U_MM = 44.45
"""One rack unit (EIA-310), in millimetres."""


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class Face(StrEnum):
    FRONT = "front"
    REAR = "rear"


class TorPosition(StrEnum):
    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"


class RackRole(StrEnum):
    COMPUTE = "compute"
    NETWORK = "network"


@dataclass(frozen=True, slots=True)
class Point:
    x_mm: int
    y_mm: int


@dataclass(frozen=True, slots=True)
class RackType:
    name: str = "42U 600x1200"
    width_mm: int = 600
    depth_mm: int = 1200
    height_u: int = 42


@dataclass(frozen=True, slots=True)
class ServerModel:
    name: str = "2x25G server"
    nic_ports: int = 2
    """NIC ports the wiring cables (a GPU server's compute NICs: one per rail)."""
    port_gbps: float = 25.0
    height_u: int = 1
    gpus: int = 0
    """GPUs per server (0: not a GPU server)."""
    gpu_interconnect_gbps: float | None = None
    """Intra-server GPU interconnect, Gb/s per GPU each direction (None: not known / no GPUs)."""
    frontend_nic_ports: int = 0
    """Front-end (storage, in-band management) NIC ports, apart from the compute NICs."""
    frontend_port_gbps: float | None = None


@dataclass(frozen=True, slots=True)
class SwitchModel:
    name: str = "48x25G+8x100G ToR"
    server_ports: int = 48
    server_port_gbps: float = 25.0
    uplink_ports: int = 8
    uplink_gbps: float = 100.0
    height_u: int = 1
    breakout_links: int | None = None
    """The most links one port breaks out into (None: not known)."""


@dataclass(frozen=True, slots=True)
class LogicalRack:
    """`servers` servers wired identically plus the ToR they call their own.

    Occupies `height_u` rack units from `base_u` (1 = the lowest U of the rack) upwards.
    `ports_used` is `p`: how many NIC ports of each server are cabled (<= nic_ports).
    """

    servers: int
    server_model: ServerModel = field(default_factory=ServerModel)
    tor_model: SwitchModel = field(default_factory=SwitchModel)
    tor_position: TorPosition = TorPosition.TOP
    base_u: int = 1
    ports_used: int = 1

    @property
    def height_u(self) -> int:
        return self.servers * self.server_model.height_u + self.tor_model.height_u

    @property
    def top_u(self) -> int:
        return self.base_u + self.height_u - 1

    def tor_u(self) -> int:
        """Lowest U of the ToR inside this logical rack."""
        below = {
            TorPosition.BOTTOM: 0,
            TorPosition.MIDDLE: self.servers // 2,
            TorPosition.TOP: self.servers,
        }[self.tor_position]
        return self.base_u + below * self.server_model.height_u

    def server_us(self) -> list[int]:
        """Lowest U of each server, bottom to top."""
        tor = self.tor_u()
        step = self.server_model.height_u
        units: list[int] = []
        u = self.base_u
        while len(units) < self.servers:
            if u == tor:
                u += self.tor_model.height_u
                continue
            units.append(u)
            u += step
        return units


@dataclass(frozen=True, slots=True)
class FabricSwitch:
    """A switch above the ToRs (aggregation, spine or core) mounted in a network rack."""

    name: str
    role: str  # "agg" | "spine" | "core"
    model: SwitchModel
    u: int
    cluster: int | None = None
    network: str = "compute"
    """The network it switches: `compute`, or a GPU cluster's `front_end` (`wiring.frontend`)."""


@dataclass(frozen=True, slots=True)
class Rack:
    name: str
    rack_type: RackType = field(default_factory=RackType)
    position_mm: int = 0
    """Offset of the rack's start edge along its row, from the row origin."""
    logical_racks: tuple[LogicalRack, ...] = ()
    role: RackRole = RackRole.COMPUTE
    port_face: Face = Face.FRONT
    """Face the server and ToR ports are on (the cold aisle unless the rack says otherwise)."""
    fabric_switches: tuple[FabricSwitch, ...] = ()


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    origin: Point
    direction: int = 0
    """Degrees from +x, counter-clockwise: 0, 90, 180 or 270."""
    front: Side = Side.LEFT
    racks: tuple[Rack, ...] = ()

    @property
    def unit(self) -> tuple[int, int]:
        """Unit vector along the row."""
        return _UNIT[self.direction]

    @property
    def normal(self) -> tuple[int, int]:
        """Left-hand unit normal: the side the racks extend to from the row line."""
        ux, uy = self.unit
        return (-uy, ux)

    @property
    def depth_mm(self) -> int:
        return max((r.rack_type.depth_mm for r in self.racks), default=RackType().depth_mm)

    @property
    def length_mm(self) -> int:
        return max((r.position_mm + r.rack_type.width_mm for r in self.racks), default=0)

    def front_offset_mm(self) -> int:
        """Distance of the front face from the row line along the normal."""
        return self.depth_mm if self.front is Side.LEFT else 0

    def facing(self) -> tuple[int, int]:
        """Unit vector pointing out of the rack fronts, into the front aisle."""
        nx, ny = self.normal
        return (nx, ny) if self.front is Side.LEFT else (-nx, -ny)

    def footprint(self, rack: Rack) -> tuple[int, int, int, int]:
        """Axis-aligned bounding box (x0, y0, x1, y1) of a rack of this row."""
        ux, uy = self.unit
        nx, ny = self.normal
        ax = self.origin.x_mm + ux * rack.position_mm
        ay = self.origin.y_mm + uy * rack.position_mm
        bx = ax + ux * rack.rack_type.width_mm + nx * rack.rack_type.depth_mm
        by = ay + uy * rack.rack_type.width_mm + ny * rack.rack_type.depth_mm
        return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))

    def row_footprint(self) -> tuple[int, int, int, int]:
        ux, uy = self.unit
        nx, ny = self.normal
        ax, ay = self.origin.x_mm, self.origin.y_mm
        bx = ax + ux * self.length_mm + nx * self.depth_mm
        by = ay + uy * self.length_mm + ny * self.depth_mm
        return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


_UNIT: dict[int, tuple[int, int]] = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}


@dataclass(frozen=True, slots=True)
class Hall:
    name: str
    width_mm: int
    depth_mm: int
    rows: tuple[Row, ...] = ()
    raised_floor_mm: int = 0
    """Height of the raised floor void; 0 when the hall has none."""
    tray_height_mm: int = 300
    """Height of the overhead cable tray above the tallest rack top."""
    tile_mm: int = 600
    site: str = "S1"


class FabricType(StrEnum):
    FAT_TREE = "fat_tree"
    """3-tier FatTree/Clos: ToR -> aggregation (per cluster) -> core."""
    LEAF_SPINE = "leaf_spine"
    """2-tier: every ToR (leaf) connects to every spine."""
    VL2 = "vl2"
    """VL2 Clos: ToR -> aggregation -> intermediate (core) switches, traffic bounced via VLB."""


class NetworkRackPlacement(StrEnum):
    END_OF_ROW = "end_of_row"
    MIDDLE_OF_ROW = "middle_of_row"
    DEDICATED_ROW = "dedicated_row"


@dataclass(frozen=True, slots=True)
class FabricSettings:
    """Everything above the ToRs for one project, as plain values.

    `aggs_per_cluster`/`agg_uplinks`/`agg_uplink_gbps` apply to fat_tree and vl2; `spines` to
    leaf_spine; `cores` to fat_tree and vl2 (VL2's intermediate switches). A cluster is
    `rows_per_cluster` consecutive compute rows of a hall (ordered by name).
    """

    fabric_type: FabricType = FabricType.LEAF_SPINE
    tor_uplinks: int = 4
    tor_uplink_gbps: float = 100.0
    aggs_per_cluster: int = 4
    agg_uplinks: int = 16
    agg_uplink_gbps: float = 100.0
    spines: int = 4
    cores: int = 4
    rows_per_cluster: int = 2
    network_rack_placement: NetworkRackPlacement = NetworkRackPlacement.END_OF_ROW
