"""What a plan asks of its hall's plant: the facility report's totals (IT power typical/max, heat,
weight, fullest tray) with the plan's cables, for plan summaries, comparisons and upgrades.

A plan never changes, but its hall's facility does (feeds, PDUs, trays, the catalog's facts), so
the totals are computed when read (`facility_plant.facility_report`: the hall and the plan's routed
cables; a structured plan's plant, its cords, trunks, panels and per-port optics, in place of the
ToR uplinks it carries). A plan list or a comparison reads the same few plans again and again: a
small per-process cache keeps each plan's totals under a fingerprint of everything else the checks read (the stored
rows the hall's plant is loaded from, hashed by PostgreSQL, and the code), so any change to the
hall, its settings or the catalog computes them again. A plan's own rows (cables, devices, its
plant) are never rewritten, so the plan's id stands for them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.facility.model import FacilityTotals
from loopline.domain.facility.plan_change import FacilityChange, facility_change
from loopline.services import facility_plant
from loopline.services.hall_fingerprint import fingerprint_query, hall_digest

_CACHE: OrderedDict[tuple[int, str], FacilityTotals] = OrderedDict()
_CACHE_SIZE = 64
_LOCK = threading.Lock()


FINGERPRINTED_TABLES = frozenset(
    {
        "halls", "rows", "racks", "logical_racks", "fabric_switches", "rack_feeds", "tray_runs", "pdu_models",
        "server_models", "switch_models", "rack_types",
    }
)  # fmt: skip
"""Every table the hall's plant is loaded from (`facility_plant.load_plant`); a test records the tables it
queries and fails if one is missing here."""

FINGERPRINT = fingerprint_query(FINGERPRINTED_TABLES)


def hall_fingerprint(session: Session, hall_id: int) -> str:
    """A digest of everything the checks read besides a plan's cables: the hall's stored rows (layout,
    facility settings, feeds, tray runs), the catalog entries it uses, and the code (builtin facts and
    defaults). PostgreSQL hashes the rows in one query: no plant is built for a cache hit."""
    return hall_digest(session, FINGERPRINT, hall_id)


def plan_totals(session: Session, plan: WiringPlanRow, fingerprint: str | None = None) -> FacilityTotals:
    """`plan`'s facility totals; `fingerprint`: its hall's (`hall_fingerprint`), when already taken."""
    key = (plan.id, fingerprint or hall_fingerprint(session, plan.hall_id))
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    totals = facility_plant.facility_report(session, plan.hall_id, plan.id).totals
    with _LOCK:
        _CACHE[key] = totals
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return totals


def totals_json(t: FacilityTotals) -> dict[str, object]:
    return {
        "typical_w": round(t.typical_w, 1),
        "max_w": round(t.max_w, 1),
        "heat_w": round(t.heat_w, 1),
        "weight_kg": round(t.weight_kg, 1),
        "fullest_tray": t.fullest_tray,
        "fullest_tray_pct": round(t.fullest_tray_pct, 1),
        "incomplete": list(t.incomplete),
    }


def change_json(c: FacilityChange) -> dict[str, object]:
    return {
        "typical_w": round(c.typical_w, 1),
        "max_w": round(c.max_w, 1),
        "heat_w": round(c.heat_w, 1),
        "weight_kg": round(c.weight_kg, 1),
        "fullest_tray": c.fullest_tray,
        "fullest_tray_pct": round(c.fullest_tray_pct, 1),
        "was_fullest_tray": c.was_fullest_tray,
        "was_fullest_tray_pct": round(c.was_fullest_tray_pct, 1),
        "incomplete": list(c.incomplete),
        "words": c.words,
    }


def plan_change(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> FacilityChange:
    """`new` against `old` (plans of one hall)."""
    fingerprint = hall_fingerprint(session, new.hall_id)
    return facility_change(plan_totals(session, old, fingerprint), plan_totals(session, new, fingerprint))
