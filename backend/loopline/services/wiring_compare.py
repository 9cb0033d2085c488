"""Two plans of a hall compared: the diff (`domain.wiring.diff_cables`), the bill of materials of
the change alone, priced, and what the change asks of the hall's plant (`plan_facility`). The
comparison, its cable pages, the work order and NetBox's upgrade files all read the same cached diff."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.domain import bom
from loopline.domain.errors import Conflict
from loopline.domain.facility.plan_change import FacilityChange
from loopline.domain.wiring import PlanDiff, UpgradeMaterials, diff_cables, upgrade_materials
from loopline.services import plan_facility, pricing, wiring_plant
from loopline.services.wiring_spec import hall_server_speeds

_DIFF_COLUMNS = (
    PlanCableRow.cable_id, PlanCableRow.a_device, PlanCableRow.a_port, PlanCableRow.b_device, PlanCableRow.b_port,
    PlanCableRow.part_number, PlanCableRow.ordered_mm, PlanCableRow.medium, PlanCableRow.transceiver,
    PlanCableRow.gbps,
)  # fmt: skip


def diff_cable_rows(session: Session, plan_id: int) -> Sequence[Any]:
    # Plain Core rows of the ten columns a diff reads: a 200,000-cable plan stays light.
    stmt = select(*_DIFF_COLUMNS).where(PlanCableRow.plan_id == plan_id).order_by(PlanCableRow.seq)
    return session.connection().execute(stmt).all()


def diff_device_rows(session: Session, plan_id: int) -> Sequence[Any]:
    stmt = select(PlanDeviceRow.name, PlanDeviceRow.role, PlanDeviceRow.model).where(PlanDeviceRow.plan_id == plan_id)
    return session.connection().execute(stmt.order_by(PlanDeviceRow.node_id)).all()


@dataclass(frozen=True, slots=True)
class Comparison:
    """`new` diffed against `old`, and the bill of materials of the change alone, priced."""

    old: WiringPlanRow
    new: WiringPlanRow
    diff: PlanDiff
    buy: bom.Bom
    freed: bom.Bom
    facility: FacilityChange
    """What `new` asks of the hall's plant beyond `old` (power, heat, weight, fullest tray)."""


def check_pair(old: WiringPlanRow, new: WiringPlanRow) -> None:
    if old.hall_id != new.hall_id:
        raise Conflict("against", f"plans {old.id} and {new.id} wire different halls")


def compare_plans(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> Comparison:
    check_pair(old, new)
    d, change = computed_diff(session, old, new)
    book = pricing.price_book(session, new.project_id)
    plant = plan_facility.plan_change(session, old, new)
    return Comparison(old, new, d, bom.price(change.buy, book), bom.price(change.freed, book), plant)


_DIFF_CACHE: OrderedDict[tuple[object, ...], tuple[PlanDiff, UpgradeMaterials]] = OrderedDict()
_DIFF_CACHE_SIZE = 4
_DIFF_CACHE_LOCK = threading.Lock()


def computed_diff(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> tuple[PlanDiff, UpgradeMaterials]:
    """The diff of two plans and the parts of the change, unpriced. A plan's cables and devices
    never change once generated, so neither does this: the pages of a 200,000-cable diff and the
    diff's own answer share it through a small per-process cache (the last few pairs, keyed by
    plan ids and the hall's server port speeds) instead of reading both plans again each time."""
    speeds = hall_server_speeds(session, new.hall_id)
    key = (old.id, new.id, tuple(sorted(speeds.items())))
    with _DIFF_CACHE_LOCK:
        found = _DIFF_CACHE.get(key)
        if found is not None:
            _DIFF_CACHE.move_to_end(key)
            return found
    old_cables, new_cables = diff_cable_rows(session, old.id), diff_cable_rows(session, new.id)
    old_devices, new_devices = diff_device_rows(session, old.id), diff_device_rows(session, new.id)
    d = diff_cables(
        old_cables, new_cables, {x.name: x.role for x in old_devices}, {x.name: x.role for x in new_devices}
    )
    # A structured plan's uplinks are bought as its plant's items, not as cables (None: direct).
    old_plant, new_plant = wiring_plant.load_plant(session, old), wiring_plant.load_plant(session, new)
    computed = (
        d,
        upgrade_materials(d, old_cables, new_cables, old_devices, new_devices, speeds, old_plant, new_plant),
    )
    with _DIFF_CACHE_LOCK:
        _DIFF_CACHE[key] = computed
        while len(_DIFF_CACHE) > _DIFF_CACHE_SIZE:
            _DIFF_CACHE.popitem(last=False)
    return computed


def plan_diff(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> PlanDiff:
    """`new` diffed against `old` (same hall), as the comparison and the work order read it."""
    check_pair(old, new)
    return computed_diff(session, old, new)[0]
