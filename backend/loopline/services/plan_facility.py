"""What a plan asks of its hall's plant: the facility report's totals (IT power typical/max, heat,
weight, fullest tray) with the plan's cables, for plan summaries, comparisons and upgrades.

A plan never changes, but its hall's facility does (feeds, PDUs, trays, the catalog's facts), so
the totals are computed when read (`facility.facility_report`: the hall and the plan's routed
cables). A plan list or a comparison reads the same few plans again and again: a small per-process
cache keeps each plan's totals under a fingerprint of everything else the checks read (the stored
rows the hall's plant is loaded from, hashed by PostgreSQL, and the code), so any change to the
hall, its settings or the catalog computes them again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy import text
from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.facility.model import FacilityTotals
from loopline.domain.facility.plan_change import FacilityChange, facility_change
from loopline.services import facility
from loopline.services.export_cache import code_fingerprint

_CACHE: OrderedDict[tuple[int, str], FacilityTotals] = OrderedDict()
_CACHE_SIZE = 64
_LOCK = threading.Lock()


FINGERPRINTED_TABLES = frozenset(
    {
        "halls", "rows", "racks", "logical_racks", "fabric_switches", "rack_feeds", "tray_runs", "pdu_models",
        "server_models", "switch_models", "rack_types",
    }
)  # fmt: skip
"""Every table the hall's plant is loaded from (`facility.load_plant`); a test records the tables it
queries and fails if one is missing here."""

# Whole rows as text (any column's change counts), in a stable order, each table hashed on its own;
# catalog entries only those the hall uses. The builtin facts (`catalog_facts`) are code: in
# `export_cache.code_fingerprint`, the package's source.
_SECTIONS = (
    "SELECT h::text FROM halls h WHERE h.id = :hall",
    "SELECT string_agg(r::text, ',' ORDER BY r.id) FROM rows r WHERE r.hall_id = :hall",
    "SELECT string_agg(k::text, ',' ORDER BY k.id) FROM racks k WHERE k.hall_id = :hall",
    "SELECT string_agg(l::text, ',' ORDER BY l.id) FROM logical_racks l WHERE l.hall_id = :hall",
    "SELECT string_agg(f::text, ',' ORDER BY f.id) FROM fabric_switches f WHERE f.hall_id = :hall",
    "SELECT string_agg(p::text, ',' ORDER BY p.id) FROM rack_feeds p WHERE p.hall_id = :hall",
    "SELECT string_agg(t::text, ',' ORDER BY t.id) FROM tray_runs t WHERE t.hall_id = :hall",
    "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM pdu_models m"
    " WHERE m.id IN (SELECT pdu_model_id FROM rack_feeds WHERE hall_id = :hall)",
    "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM server_models m"
    " WHERE m.id IN (SELECT server_model_id FROM logical_racks WHERE hall_id = :hall)",
    "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM switch_models m"
    " WHERE m.id IN (SELECT tor_model_id FROM logical_racks WHERE hall_id = :hall"
    " UNION SELECT switch_model_id FROM fabric_switches WHERE hall_id = :hall)",
    "SELECT string_agg(t::text, ',' ORDER BY t.id) FROM rack_types t"
    " WHERE t.id IN (SELECT rack_type_id FROM racks WHERE hall_id = :hall)",
)
FINGERPRINT = text("SELECT md5(" + " || ".join(f"coalesce(md5(({section})), '-')" for section in _SECTIONS) + ")")


def hall_fingerprint(session: Session, hall_id: int) -> str:
    """A digest of everything the checks read besides a plan's cables: the hall's stored rows (layout,
    facility settings, feeds, tray runs), the catalog entries it uses, and the code (builtin facts and
    defaults). PostgreSQL hashes the rows in one query: no plant is built for a cache hit."""
    digest = session.execute(FINGERPRINT, {"hall": hall_id}).scalar_one()
    return f"{digest}:{code_fingerprint()}"


def plan_totals(session: Session, plan: WiringPlanRow, fingerprint: str | None = None) -> FacilityTotals:
    """`plan`'s facility totals; `fingerprint`: its hall's (`hall_fingerprint`), when already taken."""
    key = (plan.id, fingerprint or hall_fingerprint(session, plan.hall_id))
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    totals = facility.facility_report(session, plan.hall_id, plan.id).totals
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
        "words": c.words,
    }


def plan_change(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> FacilityChange:
    """`new` against `old` (plans of one hall)."""
    fingerprint = hall_fingerprint(session, new.hall_id)
    return facility_change(plan_totals(session, old, fingerprint), plan_totals(session, new, fingerprint))
