"""The generated plan: flat lists of slotted records, cheap to build, summarise and bulk-insert."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from enum import StrEnum

from loopline.domain.layout import ServerModel
from loopline.domain.media import Medium
from loopline.domain.routing import GeometryPreset
from loopline.domain.wiring.spec import WiringSpec


class Role(StrEnum):
    SERVER = "server"
    TOR = "tor"
    AGG = "agg"
    SPINE = "spine"
    CORE = "core"


LAYER: dict[Role, int] = {Role.SERVER: 0, Role.TOR: 1, Role.AGG: 2, Role.SPINE: 2, Role.CORE: 3}


class LinkClass(StrEnum):
    SERVER_TOR = "server_tor"
    SERVER_SERVER = "server_server"
    TOR_FABRIC = "tor_fabric"
    AGG_CORE = "agg_core"


@dataclass(slots=True)
class Device:
    name: str
    """Label name ``H1.R03.K07.U22`` (rack + lowest U)."""
    node_id: str
    """Scenario node id (``H1.R01.K01.L1.S01``, ``...L1.TOR1``, ``H1.C0.AGG1``, ``H1.CORE1``)."""
    role: Role
    rack: str
    """``H1.R03.K07``."""
    u: int
    model: str
    logical_rack: str | None = None
    """``H1.R03.K07.L1`` (servers and ToRs)."""
    cluster: int | None = None
    loop: int | None = None
    loop_position: int | None = None
    x_mm: int = 0
    y_mm: int = 0
    z_mm: int = 0


@dataclass(slots=True)
class Cable:
    cable_id: str
    label: str
    link_class: LinkClass
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    gbps: float
    raw_mm: int
    slack_mm: int
    """Raw + service allowance per end + % slack."""
    ordered_mm: int
    """Rounded up to the chosen part's sold lengths."""
    medium: Medium
    part_number: str
    transceiver: str | None
    latency_ns: int
    unit_price: float

    def as_tuple(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in CABLE_COLUMNS)


CABLE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Cable))
DEVICE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Device))


@dataclass(frozen=True, slots=True)
class Loop:
    id: int
    logical_racks: tuple[str, ...]
    """Logical rack names in loop order (position 0 .. l-1, clockwise)."""
    subways_type: int


@dataclass(frozen=True, slots=True)
class GpuServer:
    """What the scenario needs of a GPU server model to split a server into its GPU ranks."""

    gpus: int
    interconnect_gbps: float
    """The catalog's `gpu_interconnect_gbps`: per GPU, each direction."""


def gpu_servers_of(models: Iterable[ServerModel]) -> dict[str, GpuServer]:
    """The GPU server models among `models` by name (those with GPUs and a known interconnect)."""
    return {
        m.name: GpuServer(m.gpus, m.gpu_interconnect_gbps)
        for m in models
        if m.gpus > 0 and m.gpu_interconnect_gbps is not None
    }


@dataclass(slots=True)
class WiringPlan:
    hall: str
    spec: WiringSpec
    geometry: GeometryPreset
    devices: list[Device]
    cables: list[Cable]
    loops: list[Loop]
    warnings: list[str]
    gpu_servers: dict[str, GpuServer] = field(default_factory=dict)
    """Server model name -> its GPUs, for the models with GPUs and a known interconnect: the scenario
    turns each such server into its GPU ranks (`domain.scenario.network_from_plan`)."""

    def cable_rows(self) -> Iterator[tuple[object, ...]]:
        """Columnar tuples in `CABLE_COLUMNS` order, for bulk inserts / COPY."""
        for c in self.cables:
            yield c.as_tuple()

    def device_rows(self) -> Iterator[tuple[object, ...]]:
        """Columnar tuples in `DEVICE_COLUMNS` order."""
        for d in self.devices:
            yield tuple(getattr(d, f) for f in DEVICE_COLUMNS)

    def devices_by_role(self, role: Role) -> list[Device]:
        return [d for d in self.devices if d.role is role]
