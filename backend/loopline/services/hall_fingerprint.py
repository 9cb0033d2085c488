"""A digest of the stored rows a hall's derived output is read from, for caches that must never
send what a change to those rows would alter.

Nothing has to remember to invalidate: PostgreSQL hashes every row of the tables named, in one
query, so any change to one of them, however it is made, is a new digest. Whole rows as text (any
column's change counts), in a stable order, each table hashed on its own (md5 of NULL: none) so no
table's text can run into the next's; catalog entries only those the hall uses (a change to another
entry changes nothing derived). The code that derives is part of it too (`code_fingerprint`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from sqlalchemy import TextClause, text
from sqlalchemy.orm import Session

_SECTIONS: dict[str, str] = {
    "halls": "SELECT h::text FROM halls h WHERE h.id = :hall",
    "rows": "SELECT string_agg(r::text, ',' ORDER BY r.id) FROM rows r WHERE r.hall_id = :hall",
    "racks": "SELECT string_agg(k::text, ',' ORDER BY k.id) FROM racks k WHERE k.hall_id = :hall",
    "logical_racks": "SELECT string_agg(l::text, ',' ORDER BY l.id) FROM logical_racks l WHERE l.hall_id = :hall",
    "fabric_switches": "SELECT string_agg(f::text, ',' ORDER BY f.id) FROM fabric_switches f WHERE f.hall_id = :hall",
    "rack_feeds": "SELECT string_agg(p::text, ',' ORDER BY p.id) FROM rack_feeds p WHERE p.hall_id = :hall",
    "tray_runs": "SELECT string_agg(t::text, ',' ORDER BY t.id) FROM tray_runs t WHERE t.hall_id = :hall",
    "device_naming": "SELECT n::text FROM device_naming n WHERE n.hall_id = :hall",
    "device_overrides": (
        "SELECT string_agg(o::text, ',' ORDER BY o.id) FROM device_overrides o WHERE o.hall_id = :hall"
    ),
    "pdu_models": (
        "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM pdu_models m"
        " WHERE m.id IN (SELECT pdu_model_id FROM rack_feeds WHERE hall_id = :hall)"
    ),
    "server_models": (
        "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM server_models m"
        " WHERE m.id IN (SELECT server_model_id FROM logical_racks WHERE hall_id = :hall)"
    ),
    "switch_models": (
        "SELECT string_agg(m::text, ',' ORDER BY m.id) FROM switch_models m"
        " WHERE m.id IN (SELECT tor_model_id FROM logical_racks WHERE hall_id = :hall"
        " UNION SELECT switch_model_id FROM fabric_switches WHERE hall_id = :hall"
        # a rail plan's leaves are the plan's, of the model stored with it
        " UNION SELECT (w.spec->'rail'->>'leaf_model_id')::int FROM wiring_plans w WHERE w.hall_id = :hall)"
    ),
    "rack_types": (
        "SELECT string_agg(t::text, ',' ORDER BY t.id) FROM rack_types t"
        " WHERE t.id IN (SELECT rack_type_id FROM racks WHERE hall_id = :hall)"
    ),
}


def fingerprint_query(tables: Iterable[str]) -> TextClause:
    """One query (parameter `hall`) giving the md5 of `tables`' rows for that hall."""
    sections = [_SECTIONS[table] for table in sorted(tables)]
    return text("SELECT md5(" + " || ".join(f"coalesce(md5(({section})), '-')" for section in sections) + ")")


@cache
def code_fingerprint() -> str:
    """The loopline package's source: output derived by other code is never sent again (a deploy
    that changes a column, a default or a builtin fact invalidates every stored result)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def hall_digest(session: Session, query: TextClause, hall_id: int) -> str:
    """`query`'s digest of hall `hall_id` (from `fingerprint_query`) with the code's."""
    return f"{code_fingerprint()}:{session.execute(query, {'hall': hall_id}).scalar_one()}"
