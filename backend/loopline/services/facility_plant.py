"""A hall's physical plant as the checks see it (`load_plant`: the stored hall, its settings with the
domain's defaults (`services.facility`), the catalog's facts and a plan's cables as routed; for a
structured plan, its plant's cords, trunks, panels and optics in place of the ToR uplinks they carry)
and its facility report."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from loopline.db.models import PduModel, PlanCableRow, PlanDeviceRow, SwitchModel, WiringPlanRow
from loopline.db.models.wiring import PlanChainStepRow, PlanItemRow, PlanOpticRow, PlanPanelRow
from loopline.domain import layout as dl
from loopline.domain.cable_routes import route_points
from loopline.domain.errors import NotFound
from loopline.domain.facility import catalog_facts, checks
from loopline.domain.facility import structured_plant as sp
from loopline.domain.facility.model import (
    CableFacts,
    DeviceFacts,
    FacilityReport,
    FittedOptic,
    MountedPanel,
    OpticFacts,
    Plant,
    RoutedCable,
)
from loopline.domain.facility.model import PduModel as DomainPdu
from loopline.domain.labels import rack_name
from loopline.domain.media import Medium
from loopline.domain.routing import Via, geometry_preset
from loopline.domain.structured.catalog import StructuredCatalog, builtin_catalog
from loopline.domain.structured.chain import CABLE_KINDS
from loopline.services import wiring_plant
from loopline.services.facility import hall_settings, rack_settings, tray_runs_of
from loopline.services.layout_snapshot import domain_hall, load_hall_data


def _device_facts(entry: Any) -> DeviceFacts:
    return DeviceFacts(entry.typical_w, entry.max_w, entry.weight_kg, entry.airflow, entry.source)


def _fetch_all(session: Session, stmt: Select[Any]) -> list[tuple[Any, ...]]:
    """All rows of a Core statement as plain tuples, fetched at once by the driver (a plan's
    100,000 cables: a third of the time SQLAlchemy's row-by-row iteration takes)."""
    compiled = stmt.compile(dialect=session.get_bind().dialect, compile_kwargs={"render_postcompile": True})
    driver = session.connection().connection.driver_connection
    assert driver is not None
    with driver.cursor() as cursor:
        cursor.execute(str(compiled), compiled.params)
        return list(cursor.fetchall())


@dataclass(frozen=True, slots=True)
class _PlanCabling:
    """What a plan adds to the plant: its cables as routed and, for a structured plan, the optics its
    plant fits per port, its panels and the structured catalog's facts of their parts."""

    routed: tuple[RoutedCable, ...]
    fitted_optics: tuple[FittedOptic, ...] = ()
    panels: tuple[MountedPanel, ...] = ()
    cables: dict[str, CableFacts] = field(default_factory=dict)
    optics: dict[str, OpticFacts] = field(default_factory=dict)


def _routed_cables(
    session: Session, plan: WiringPlanRow, hall: dl.Hall, structured_catalog: StructuredCatalog | None
) -> _PlanCabling:
    """The plan's cables along the polylines the 3D editor draws (`cable_routes.route_points`, as
    `wiring_cables` calls it), their racks by the layout's rack names. Two queries, each on its
    table's plan_id index (a join by device name would have none).

    A structured plan's ToR uplinks are its plant's cords and trunks instead (`facility.structured_plant`):
    the logical links with a chain are left out in the query, and the plant's panels, cables and optics
    are read as plain rows, only the columns the checks need (`wiring_plant.load_plant` would build its
    100,000 chain steps one by one: most of this load's time on a 100,000-server hall)."""
    rack_names = {rack_name(hall.name, row.name, rack.name): rack.name for row in hall.rows for rack in row.racks}
    structured = wiring_plant.is_structured(plan)
    devices = select(
        PlanDeviceRow.name, PlanDeviceRow.x_mm, PlanDeviceRow.y_mm, PlanDeviceRow.z_mm, PlanDeviceRow.rack
    ).where(PlanDeviceRow.plan_id == plan.id)
    stmt = select(
        PlanCableRow.label, PlanCableRow.part_number, PlanCableRow.medium, PlanCableRow.transceiver,
        PlanCableRow.a_device, PlanCableRow.b_device,
    ).where(PlanCableRow.plan_id == plan.id).order_by(PlanCableRow.seq)  # fmt: skip
    if structured:
        chained = select(PlanChainStepRow.cable_id).where(
            PlanChainStepRow.plan_id == plan.id,
            PlanChainStepRow.cable_id == PlanCableRow.cable_id,
            PlanChainStepRow.position == 0,
        )
        stmt = stmt.where(~chained.exists())
    with paused_cycle_collection():
        positions = {name: ((x, y, z), rack) for name, x, y, z, rack in _fetch_all(session, devices)}
        direct = _route_all(plan, _fetch_all(session, stmt), positions, rack_names)
        if not structured:
            return _PlanCabling(direct)
        catalog = structured_catalog or builtin_catalog()
        panels = _fetch_all(session, _PANELS.where(PlanPanelRow.plan_id == plan.id))
        ends = sp.panel_ends(panels, hall, geometry_preset(plan.spec.get("geometry", "default")), catalog)
        items = _fetch_all(session, _PLANT_CABLES.where(PlanItemRow.plan_id == plan.id))
        plant_cables = sp.plant_cables(items, ends, positions, Via(plan.via), plan.tray_z_mm, rack_names)
        optics = _fetch_all(session, _OPTICS.where(PlanOpticRow.plan_id == plan.id))
        return _PlanCabling(
            routed=(*direct, *plant_cables),
            fitted_optics=sp.fitted_optics(optics, positions, rack_names),
            panels=sp.mounted_panels(panels, rack_names),
            cables=sp.cable_facts(catalog),
            optics=sp.optic_facts(catalog),
        )


_PANELS = select(
    PlanPanelRow.panel_id, PlanPanelRow.rack, PlanPanelRow.u, PlanPanelRow.model, PlanPanelRow.cassette,
    PlanPanelRow.cassettes,
).order_by(PlanPanelRow.seq)  # fmt: skip
"""`structured_plant.PanelAt` rows."""
_PLANT_CABLES = (
    select(PlanItemRow.label, PlanItemRow.part, PlanItemRow.a_end, PlanItemRow.b_end)
    .where(PlanItemRow.kind.in_(sorted(k.value for k in CABLE_KINDS)))
    .order_by(PlanItemRow.seq)
)
"""`structured_plant.PlantCableEnds` rows: cords, trunks, breakout cables (not panel ports)."""
_OPTICS = select(PlanOpticRow.device, PlanOpticRow.part).order_by(PlanOpticRow.seq)


@contextmanager
def paused_cycle_collection() -> Iterator[None]:
    """Hundreds of thousands of new objects and no cycles among them (a plan's routed cables): the
    cyclic collector would only walk them again and again (about half of load_plant's CPU time).
    Process-wide while it lasts; a nested or concurrent pause leaves re-enabling to the first."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _route_all(
    plan: WiringPlanRow,
    cables: list[tuple[Any, ...]],
    positions: dict[str, tuple[tuple[int, int, int], str]],
    rack_names: dict[str, str],
) -> tuple[RoutedCable, ...]:
    via, level = Via(plan.via), plan.tray_z_mm
    out: list[RoutedCable] = []
    append = out.append
    for label, part, medium, transceiver, a_dev, b_dev in cables:
        (a, a_rack), (b, b_rack) = positions[a_dev], positions[b_dev]
        # Each end draws its optic: a fibre link's transceiver, or an active cable's own ends.
        optic = transceiver if transceiver is not None else (part if medium in _ACTIVE_CABLES else None)
        points = tuple(route_points(via, level, a_rack == b_rack, a, b))
        append(RoutedCable(label, part, points, rack_names.get(a_rack, a_rack), rack_names.get(b_rack, b_rack), optic))
    return tuple(out)


_ACTIVE_CABLES = frozenset({Medium.AOC.value, Medium.ACC.value, Medium.AEC.value})


def load_plant(
    session: Session, hall_id: int, plan_id: int | None, *, structured_catalog: StructuredCatalog | None = None
) -> Plant:
    """The hall as the facility checks see it: the layout (`layout_snapshot.domain_hall`), every
    setting with the domain's defaults filled in, the catalog's facts, and with a plan its cables
    as routed. A dozen queries whatever the hall's size (a structured plan's plant: three more).
    `structured_catalog`: where a structured plan's parts' facts come from (the builtin one, which
    its plant was built from, unless told)."""
    data = load_hall_data(session, hall_id)
    plan: WiringPlanRow | None = None
    if plan_id is not None:
        plan = session.get(WiringPlanRow, plan_id)
        if plan is None or plan.hall_id != hall_id:
            raise NotFound("plan_id", f"wiring plan {plan_id} not found in hall {hall_id}")
    hall = domain_hall(data)
    rows = {row.id: row for row in data.rows}
    settings = hall_settings(
        data.hall,
        {row.name: row.cooling_kw for row in data.rows if row.cooling_kw is not None},
        tray_runs_of(session, hall_id),
    )
    pdu_ids = {f.pdu_model_id for fs in data.feeds_by_rack.values() for f in fs if f.pdu_model_id is not None}
    pdu_rows = session.execute(select(PduModel).where(PduModel.id.in_(pdu_ids))).scalars() if pdu_ids else ()
    pdus = {p.id: DomainPdu(p.name, p.outlets, p.weight_kg, p.source) for p in pdu_rows}
    pdu_names = {i: p.name for i, p in pdus.items()}
    racks = {
        rack.name: rack_settings(rack, data.feeds_by_rack.get(rack.id, ())).domain(pdu_names)
        for row_id in rows
        for rack in data.racks_by_row.get(row_id, ())
    }
    cabling = _PlanCabling(()) if plan is None else _routed_cables(session, plan, hall, structured_catalog)
    switches = {s.name: _device_facts(s) for s in data.switch_models.values()}
    plan_switches: dict[str, tuple[dl.FabricSwitch, ...]] = {}
    if plan is not None and (leaf := _rail_leaf_model(session, plan)) is not None:
        switches.setdefault(leaf.name, _device_facts(leaf))
        plan_switches = _rail_leaves(session, plan.id, leaf, hall)
    return Plant(
        hall=hall,
        facility=settings.facility,
        racks=racks,
        servers={s.name: _device_facts(s) for s in data.server_models.values()},
        switches=switches,
        rack_types={t.name: DeviceFacts(weight_kg=t.weight_kg, source=t.source) for t in data.rack_types.values()},
        rack_static_load_kg={
            t.name: t.static_load_kg for t in data.rack_types.values() if t.static_load_kg is not None
        },
        pdus={p.name: p for p in pdus.values()},
        cables={**catalog_facts.CABLE_FACTS, **cabling.cables},
        optics={**catalog_facts.OPTIC_FACTS, **cabling.optics},
        routed=cabling.routed,
        fitted_optics=cabling.fitted_optics,
        panels=cabling.panels,
        panel_models=dict(catalog_facts.PANEL_FACTS),
        cassette_models=dict(catalog_facts.CASSETTE_FACTS),
        plan_switches=plan_switches,
    )


def _rail_leaf_model(session: Session, plan: WiringPlanRow) -> SwitchModel | None:
    """A rail plan's leaf model, as stored with the plan (None: not a rail plan)."""
    rail = plan.spec.get("rail")
    return None if not rail else session.get(SwitchModel, rail["leaf_model_id"])


def _rail_leaves(
    session: Session, plan_id: int, leaf: SwitchModel, hall: dl.Hall
) -> dict[str, tuple[dl.FabricSwitch, ...]]:
    """Rack name -> the rail leaves the plan mounted there (its switches outside any logical rack and
    not the layout's: the layout holds no rail leaf)."""
    racks = {rack_name(hall.name, row.name, rack.name): rack.name for row in hall.rows for rack in row.racks}
    model = dl.SwitchModel(
        leaf.name, leaf.server_ports, leaf.server_port_gbps, leaf.uplink_ports, leaf.uplink_gbps, leaf.height_u
    )
    out: dict[str, list[dl.FabricSwitch]] = {}
    rows = session.execute(
        select(PlanDeviceRow.rack, PlanDeviceRow.name, PlanDeviceRow.u)
        .where(PlanDeviceRow.plan_id == plan_id, PlanDeviceRow.role == "tor", PlanDeviceRow.logical_rack.is_(None))
        .order_by(PlanDeviceRow.rack, PlanDeviceRow.u)
    )
    for rack, name, u in rows:
        out.setdefault(racks.get(rack, rack), []).append(dl.FabricSwitch(name, "leaf", model, u))
    return {rack: tuple(sws) for rack, sws in out.items()}


def facility_report(
    session: Session, hall_id: int, plan_id: int | None, *, structured_catalog: StructuredCatalog | None = None
) -> FacilityReport:
    """What the facility checks (`domain.facility.checks`) find in the hall, with a plan's cables."""
    return checks.facility_report(load_plant(session, hall_id, plan_id, structured_catalog=structured_catalog))
