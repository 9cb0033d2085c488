"""Read a whole hall in a few queries: as the pure domain `Hall`, or as raw rows grouped by parent.

`load_hall(session, hall_id)` is what the wiring generator, the validators and the simulations
read; `load_fabric(session, project_id)` gives the project's fabric settings as plain values.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, exists, or_, select
from sqlalchemy.engine import Row as SqlRow
from sqlalchemy.orm import Session

from loopline.db.models import (
    FabricSettingsRow,
    FabricSwitch,
    Hall,
    LogicalRack,
    Membership,
    PduModel,
    Rack,
    RackFeed,
    RackType,
    Row,
    ServerModel,
    SwitchModel,
)
from loopline.domain import layout as dl
from loopline.domain.errors import NotFound
from loopline.domain.rack_planning import Catalog


@dataclass
class HallData:
    """The rows of one hall, grouped for building documents: one query per table."""

    hall: Hall
    rows: list[SqlRow[Any]]
    racks_by_row: dict[int, list[SqlRow[Any]]] = field(default_factory=dict)
    lrs_by_rack: dict[int, list[SqlRow[Any]]] = field(default_factory=dict)
    switches_by_rack: dict[int, list[SqlRow[Any]]] = field(default_factory=dict)
    feeds_by_rack: dict[int, list[SqlRow[Any]]] = field(default_factory=dict)
    server_models: dict[int, ServerModel] = field(default_factory=dict)
    switch_models: dict[int, SwitchModel] = field(default_factory=dict)
    rack_types: dict[int, RackType] = field(default_factory=dict)


ROW_COLS = (Row.id, Row.hall_id, Row.name, Row.x_mm, Row.y_mm, Row.direction, Row.front, Row.version, Row.cooling_kw)
RACK_COLS = (
    Rack.id,
    Rack.row_id,
    Rack.hall_id,
    Rack.name,
    Rack.rack_type_id,
    Rack.position_mm,
    Rack.role,
    Rack.port_face,
    Rack.version,
    Rack.power_budget_kw,
    Rack.cooling_kw,
    Rack.cooling_kind,
    Rack.static_load_kg,
)
LR_COLS = (
    LogicalRack.rack_id,
    LogicalRack.ordinal,
    LogicalRack.servers,
    LogicalRack.server_model_id,
    LogicalRack.ports_used,
    LogicalRack.tor_model_id,
    LogicalRack.tor_position,
    LogicalRack.base_u,
)
FEED_COLS = (
    RackFeed.rack_id,
    RackFeed.name,
    RackFeed.voltage_v,
    RackFeed.phases,
    RackFeed.breaker_a,
    RackFeed.pdu_model_id,
)
FS_COLS = (
    FabricSwitch.rack_id,
    FabricSwitch.name,
    FabricSwitch.role,
    FabricSwitch.switch_model_id,
    FabricSwitch.u,
    FabricSwitch.cluster,
    FabricSwitch.network,
)


def get_hall_or_404(session: Session, hall_id: int) -> Hall:
    hall = session.get(Hall, hall_id)
    if hall is None:
        raise NotFound("hall_id", f"hall {hall_id} not found")
    return hall


def get_row_or_404(session: Session, row_id: int) -> Row:
    row = session.get(Row, row_id)
    if row is None:
        raise NotFound("row_id", f"row {row_id} not found")
    return row


def usable_in_project(
    model: type[ServerModel | SwitchModel | RackType | PduModel], project_id: int
) -> ColumnElement[bool]:
    """Catalog entries a layout of the project may reference: the global ones, those of the
    project's members, and those it already uses (an entry of a member who left stays valid).
    The last test is an EXISTS on the reference's index, reached only for other users' entries."""

    def used(column: Any, table: Any) -> ColumnElement[bool]:
        in_project = select(1).select_from(table).join(Hall, Hall.id == table.hall_id)
        return exists(in_project.where(column == model.id, Hall.project_id == project_id))

    uses: list[ColumnElement[bool]]
    if model is ServerModel:
        uses = [used(LogicalRack.server_model_id, LogicalRack)]
    elif model is SwitchModel:
        uses = [used(LogicalRack.tor_model_id, LogicalRack), used(FabricSwitch.switch_model_id, FabricSwitch)]
    elif model is PduModel:
        uses = [used(RackFeed.pdu_model_id, RackFeed)]
    else:
        uses = [used(Rack.rack_type_id, Rack)]
    return or_(
        model.owner_id.is_(None),
        model.owner_id.in_(select(Membership.user_id).where(Membership.project_id == project_id)),
        *uses,
    )


def load_catalog(
    session: Session, usable_in: int | None = None
) -> tuple[dict[int, ServerModel], dict[int, SwitchModel], dict[int, RackType]]:
    """The whole catalog (small: tens to hundreds of entries); with `usable_in` (a project id), only
    the entries its layouts may reference, so a reference to anything else is unknown."""

    def entries(model: Any) -> dict[int, Any]:
        stmt = select(model).order_by(model.id)
        if usable_in is not None:
            stmt = stmt.where(usable_in_project(model, usable_in))
        return {e.id: e for e in session.execute(stmt).scalars()}

    return entries(ServerModel), entries(SwitchModel), entries(RackType)


def load_hall_data(session: Session, hall_id: int) -> HallData:
    hall = get_hall_or_404(session, hall_id)
    # Core statements on the session's connection: no ORM machinery per row.
    conn = session.connection()
    data = HallData(
        hall=hall, rows=list(conn.execute(select(*ROW_COLS).where(Row.hall_id == hall_id).order_by(Row.name)))
    )
    racks: dict[int, list[SqlRow[Any]]] = defaultdict(list)
    for r in conn.execute(
        select(*RACK_COLS).where(Rack.hall_id == hall_id).order_by(Rack.row_id, Rack.position_mm, Rack.id)
    ):
        racks[r[1]].append(r)
    lrs: dict[int, list[SqlRow[Any]]] = defaultdict(list)
    for lr in conn.execute(
        select(*LR_COLS).where(LogicalRack.hall_id == hall_id).order_by(LogicalRack.rack_id, LogicalRack.ordinal)
    ):
        lrs[lr[0]].append(lr)
    switches: dict[int, list[SqlRow[Any]]] = defaultdict(list)
    for sw in conn.execute(
        select(*FS_COLS).where(FabricSwitch.hall_id == hall_id).order_by(FabricSwitch.rack_id, FabricSwitch.u)
    ):
        switches[sw[0]].append(sw)
    feeds: dict[int, list[SqlRow[Any]]] = defaultdict(list)
    for f in conn.execute(
        select(*FEED_COLS).where(RackFeed.hall_id == hall_id).order_by(RackFeed.rack_id, RackFeed.name)
    ):
        feeds[f[0]].append(f)
    data.racks_by_row, data.lrs_by_rack, data.switches_by_rack, data.feeds_by_rack = racks, lrs, switches, feeds
    data.server_models, data.switch_models, data.rack_types = load_catalog(session)
    return data


def domain_catalog(
    server_models: dict[int, ServerModel], switch_models: dict[int, SwitchModel], rack_types: dict[int, RackType]
) -> Catalog:
    """Catalog rows turned into domain value objects, by id."""
    return Catalog(
        servers={
            i: dl.ServerModel(
                name=s.name,
                nic_ports=s.nic_ports,
                port_gbps=s.port_gbps,
                height_u=s.height_u,
                gpus=s.gpus,
                gpu_interconnect_gbps=s.gpu_interconnect_gbps,
                frontend_nic_ports=s.frontend_nic_ports,
                frontend_port_gbps=s.frontend_port_gbps,
            )
            for i, s in server_models.items()
        },
        switches={
            i: dl.SwitchModel(
                name=s.name,
                server_ports=s.server_ports,
                server_port_gbps=s.server_port_gbps,
                uplink_ports=s.uplink_ports,
                uplink_gbps=s.uplink_gbps,
                height_u=s.height_u,
                breakout_links=s.breakout_links,
            )
            for i, s in switch_models.items()
        },
        rack_types={
            i: dl.RackType(name=t.name, width_mm=t.width_mm, depth_mm=t.depth_mm, height_u=t.height_u)
            for i, t in rack_types.items()
        },
    )


def load_domain_catalog(session: Session, usable_in: int | None = None) -> Catalog:
    return domain_catalog(*load_catalog(session, usable_in))


def domain_hall(data: HallData) -> dl.Hall:
    cat = domain_catalog(data.server_models, data.switch_models, data.rack_types)
    # Racks of a row usually hold identical logical racks: build each distinct one once.
    lr_cache: dict[tuple[Any, ...], dl.LogicalRack] = {}

    def logical_rack(lr: Any) -> dl.LogicalRack:
        key = tuple(lr[1:])
        found = lr_cache.get(key)
        if found is None:
            found = lr_cache[key] = cat.logical_rack(lr)
        return found

    rows: list[dl.Row] = []
    for row in data.rows:
        racks = tuple(
            dl.Rack(
                name=rack.name,
                rack_type=cat.rack_types[rack.rack_type_id],
                position_mm=rack.position_mm,
                logical_racks=tuple(logical_rack(lr) for lr in data.lrs_by_rack.get(rack.id, ())),
                role=rack.role,
                port_face=rack.port_face,
                fabric_switches=tuple(
                    dl.FabricSwitch(
                        name=sw.name,
                        role=sw.role,
                        model=cat.switches[sw.switch_model_id],
                        u=sw.u,
                        cluster=sw.cluster,
                        network=sw.network,
                    )
                    for sw in data.switches_by_rack.get(rack.id, ())
                ),
            )
            for rack in data.racks_by_row.get(row.id, ())
        )
        rows.append(
            dl.Row(
                name=row.name,
                origin=dl.Point(row.x_mm, row.y_mm),
                direction=row.direction,
                front=row.front,
                racks=racks,
            )
        )
    h = data.hall
    return dl.Hall(
        name=h.name,
        width_mm=h.width_mm,
        depth_mm=h.depth_mm,
        rows=tuple(rows),
        raised_floor_mm=h.raised_floor_mm if h.raised_floor else 0,
        tray_height_mm=h.tray_height_mm,
        tile_mm=h.tile_mm,
        site=h.site,
    )


def load_hall(session: Session, hall_id: int) -> dl.Hall:
    """The hall as the pure domain sees it: rows (by name), racks (along the row), contents. 9 queries."""
    return domain_hall(load_hall_data(session, hall_id))


def fabric_settings(row: FabricSettingsRow | None) -> dl.FabricSettings:
    if row is None:
        return dl.FabricSettings()
    return dl.FabricSettings(
        fabric_type=row.fabric_type,
        tor_uplinks=row.tor_uplinks,
        tor_uplink_gbps=row.tor_uplink_gbps,
        aggs_per_cluster=row.aggs_per_cluster,
        agg_uplinks=row.agg_uplinks,
        agg_uplink_gbps=row.agg_uplink_gbps,
        spines=row.spines,
        cores=row.cores,
        rows_per_cluster=row.rows_per_cluster,
        network_rack_placement=row.network_rack_placement,
    )


def load_fabric(session: Session, project_id: int) -> dl.FabricSettings:
    """The project's fabric settings as plain values (defaults if none were stored)."""
    return fabric_settings(session.get(FabricSettingsRow, project_id))
