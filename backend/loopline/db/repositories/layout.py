"""Bulk writes of planned racks and their contents: ids from the sequence, rows sent with COPY.

A row of a thousand racks with two logical racks each is three COPY statements, not three
thousand ORM objects. Everything runs on the session's connection, inside the request's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, insert
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, LogicalRack
from loopline.db.repositories.bulk import allocate_ids, copy_rows
from loopline.domain.rack_planning import PlannedLogicalRack, PlannedSwitch, RackFacilitySetting, RackPlan

_NO_SETTINGS = RackFacilitySetting()

RACK_COPY_COLUMNS = (
    "id", "hall_id", "row_id", "name", "rack_type_id", "position_mm", "role", "port_face", "version",
    "power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg",
)  # fmt: skip
FEED_COPY_COLUMNS = ("hall_id", "rack_id", "name", "voltage_v", "phases", "breaker_a", "pdu_model_id")
LR_COPY_COLUMNS = (
    "hall_id",
    "rack_id",
    "ordinal",
    "servers",
    "server_model_id",
    "ports_used",
    "tor_model_id",
    "tor_position",
    "base_u",
)
FS_COPY_COLUMNS = ("hall_id", "rack_id", "name", "role", "switch_model_id", "u", "cluster", "network")


def _lr_values(lr: PlannedLogicalRack) -> tuple[object, ...]:
    return (lr.ordinal, lr.servers, lr.server_model_id, lr.ports_used, lr.tor_model_id, lr.tor_position, lr.base_u)


def _switch_values(sw: PlannedSwitch) -> tuple[object, ...]:
    return (sw.name, sw.role, sw.switch_model_id, sw.u, sw.cluster, sw.network)


def insert_racks(session: Session, hall_id: int, plans: Sequence[tuple[int, RackPlan]]) -> tuple[list[int], int]:
    """Write racks (row id, plan), their facility settings and feeds, and their contents with COPY;
    returns (rack ids, logical racks written)."""
    if not plans:
        return [], 0
    ids = allocate_ids(session, "racks", len(plans))
    copy_rows(
        session,
        "racks",
        RACK_COPY_COLUMNS,
        (
            (
                rack_id, hall_id, row_id, p.name, p.rack_type_id, p.position_mm, p.role, p.port_face, 1,
                f.power_budget_kw, f.cooling_kw, f.cooling_kind, f.static_load_kg,
            )
            for rack_id, (row_id, p) in zip(ids, plans, strict=True)
            for f in (p.facility or _NO_SETTINGS,)
        ),
    )  # fmt: skip
    feed_rows = [
        (hall_id, rack_id, f.name, f.voltage_v, f.phases, f.breaker_a, f.pdu_model_id)
        for rack_id, (_, p) in zip(ids, plans, strict=True)
        if p.facility is not None
        for f in p.facility.feeds
    ]
    if feed_rows:
        copy_rows(session, "rack_feeds", FEED_COPY_COLUMNS, feed_rows)
    lr_rows = [
        (hall_id, rack_id, *_lr_values(lr))
        for rack_id, (_, p) in zip(ids, plans, strict=True)
        for lr in p.logical_racks
    ]
    if lr_rows:
        copy_rows(session, "logical_racks", LR_COPY_COLUMNS, lr_rows)
    sw_rows = [
        (hall_id, rack_id, *_switch_values(sw)) for rack_id, (_, p) in zip(ids, plans, strict=True) for sw in p.switches
    ]
    if sw_rows:
        copy_rows(session, "fabric_switches", FS_COPY_COLUMNS, sw_rows)
    return ids, len(lr_rows)


def replace_logical_racks(session: Session, hall_id: int, rack_id: int, lrs: Sequence[PlannedLogicalRack]) -> None:
    session.execute(delete(LogicalRack).where(LogicalRack.rack_id == rack_id))
    if lrs:
        session.execute(
            insert(LogicalRack),
            [dict(zip(LR_COPY_COLUMNS, (hall_id, rack_id, *_lr_values(lr)), strict=True)) for lr in lrs],
        )


def delete_fabric_switches(session: Session, rack_id: int) -> None:
    session.execute(delete(FabricSwitch).where(FabricSwitch.rack_id == rack_id))


def insert_fabric_switches(session: Session, hall_id: int, rack_id: int, switches: Sequence[PlannedSwitch]) -> None:
    if switches:
        session.execute(
            insert(FabricSwitch),
            [dict(zip(FS_COPY_COLUMNS, (hall_id, rack_id, *_switch_values(sw)), strict=True)) for sw in switches],
        )
