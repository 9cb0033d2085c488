"""Small `Plant`s for the facility checks' tests: one model of each kind, racks 600 x 1200 mm, 42U.

Geometry of `row(...)`: a row along +x from `origin`, racks 600 mm wide touching from position 0;
with `front=LEFT` the fronts (ports) are at y = origin.y + 1200. A rack's port face centre is at
x = origin.x + 600 k + 300 for its k-th rack (k from 0). The tray is at 42U (1,867 mm) + 300 mm =
2,167 mm (`routing.tray_z_mm`).
"""

from __future__ import annotations

from dataclasses import replace

from loopline.domain.cable_routes import route_points
from loopline.domain.facility.model import (
    Airflow,
    CableFacts,
    DeviceFacts,
    Feed,
    HallFacility,
    OpticFacts,
    PduModel,
    Plant,
    RackFacility,
    RoutedCable,
    TrayLevel,
    TraySpec,
)
from loopline.domain.layout import U_MM, Hall, LogicalRack, Point, Rack, Row, ServerModel, Side, SwitchModel
from loopline.domain.routing import DEFAULT_GEOMETRY, Via, device_z_mm, face_xy, tray_z_mm

SERVER = ServerModel("S1", nic_ports=2, port_gbps=25.0, height_u=1)
TOR = SwitchModel("T1")
OK_SERVER = DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=0.0, airflow=Airflow.FRONT_TO_REAR, source="test")
OK_SWITCH = DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=0.0, airflow=Airflow.FRONT_TO_REAR, source="test")
"""Known facts that add nothing: a test sets only the figures it is about."""
FREE_RACK = DeviceFacts(weight_kg=0.0, source="test")
RACK_TYPE = "42U 600x1200"


def lr(servers: int, base_u: int = 1, server: ServerModel = SERVER, tor: SwitchModel = TOR) -> LogicalRack:
    return LogicalRack(servers=servers, server_model=server, tor_model=tor, base_u=base_u, ports_used=1)


def row(name: str, y_mm: int, racks: list[tuple[LogicalRack, ...]], *, front: Side = Side.LEFT, x_mm: int = 600) -> Row:
    return Row(
        name,
        Point(x_mm, y_mm),
        0,
        front,
        tuple(Rack(f"{name}-{k + 1:02d}", position_mm=600 * k, logical_racks=lrs) for k, lrs in enumerate(racks)),
    )


def hall(*rows: Row, tile_mm: int = 600) -> Hall:
    return Hall("H1", 20_000, 20_000, rows=rows, tile_mm=tile_mm)


TEST_FACILITY = HallFacility(floor_load_kg_m2=1_200.0, trays=dict.fromkeys(TrayLevel, TraySpec(300, 100, 75.0)))
"""Round figures for hand-derived tests (the hall defaults are sourced catalog figures: 1,223.7 kg/m², 305 x 102 mm)."""


def hall_facility(**changes: object) -> HallFacility:
    """`TEST_FACILITY` with the settings a test is about."""
    return replace(TEST_FACILITY, **changes)  # type: ignore[arg-type]


def plant(
    h: Hall,
    *,
    facility: HallFacility | None = None,
    racks: dict[str, RackFacility] | None = None,
    servers: dict[str, DeviceFacts] | None = None,
    switches: dict[str, DeviceFacts] | None = None,
    rack_types: dict[str, DeviceFacts] | None = None,
    static_load_kg: float | None = 10_000.0,
    pdus: dict[str, PduModel] | None = None,
    cables: dict[str, CableFacts] | None = None,
    optics: dict[str, OpticFacts] | None = None,
    routed: tuple[RoutedCable, ...] = (),
) -> Plant:
    """A plant where every fact not given is known and adds nothing (no fact_missing noise)."""
    return Plant(
        hall=h,
        facility=facility or TEST_FACILITY,
        racks=racks if racks is not None else {rk.name: RackFacility() for r in h.rows for rk in r.racks},
        servers=servers if servers is not None else {SERVER.name: OK_SERVER},
        switches=switches if switches is not None else {TOR.name: OK_SWITCH},
        rack_types=rack_types if rack_types is not None else {RACK_TYPE: FREE_RACK},
        rack_static_load_kg={} if static_load_kg is None else {RACK_TYPE: static_load_kg},
        pdus=pdus or {},
        cables=cables or {},
        optics=optics or {},
        routed=routed,
    )


def feeds(*specs: tuple[str, float, int, float]) -> tuple[Feed, ...]:
    """(name, volts, phases, amps) each."""
    return tuple(Feed(name, voltage_v=v, phases=ph, breaker_a=a) for name, v, ph, a in specs)


def cable(
    h: Hall,
    a: tuple[str, int],
    b: tuple[str, int],
    part: str,
    *,
    label: str | None = None,
    optic: str | None = None,
    via: Via = Via.TRAY,
) -> RoutedCable:
    """A cable from (rack name, U) to (rack name, U), routed as the plans route it."""
    where = {rk.name: (r, rk) for r in h.rows for rk in r.racks}
    ra, ka = where[a[0]]
    rb, kb = where[b[0]]
    pa = (*face_xy(ra, ka), device_z_mm(DEFAULT_GEOMETRY, ka, a[1]))
    pb = (*face_xy(rb, kb), device_z_mm(DEFAULT_GEOMETRY, kb, b[1]))
    level = tray_z_mm(DEFAULT_GEOMETRY, h) if via is Via.TRAY else -h.raised_floor_mm // 2
    points = tuple(route_points(via, level, a[0] == b[0], pa, pb))
    name = label or f"{a[0]}.U{a[1]}/{b[0]}.U{b[1]}"
    return RoutedCable(name, part, points, a[0], b[0], optic)


TRAY_Z = round(42 * U_MM) + 300
