"""Rendered exports kept in PostgreSQL and sent again while what they were rendered from is unchanged.

A plan never changes once generated, but its wiring sheet also prints the hall as it is now (site,
hall, rack faces) and the device names in effect (template and overrides, numbered along the
layout, servers placed by their catalog model's height). Rendering the demo plan's 3,264-cable
sheet is ~150 ms of Python per download, under the interpreter's lock: 256 clients downloading it
kept the API's interpreter busy and `/auth/me` waited behind them (issue 25 item 6). The first
download now renders and stores the bytes; later ones send them while the fingerprint of those
inputs still matches (`hall_fingerprint`: PostgreSQL hashes every stored row the export reads,
`FINGERPRINTED_TABLES`, in one query, and the code that renders is part of it).

The bytes are kept gzip-compressed: most clients take gzip, and compressing the 700 KB sheet again
for every download (the API's GZip middleware, ~11 ms in the event loop, in front of every other
request) cost more than rendering it from storage.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from loopline.db.models.exports import ExportCacheRow
from loopline.db.models.wiring import WiringPlanRow
from loopline.services.hall_fingerprint import fingerprint_query, hall_digest

MAX_CACHED_CABLES = 20_000
"""A plan of more cables is streamed as before, rendered as it is sent (its sheet is megabytes and
its first byte must not wait for its last): the cache is for the plans many people download at
once, and keeps the table's rows to a few MB each."""

FINGERPRINTED_TABLES = frozenset(
    {
        "halls", "rows", "racks", "logical_racks", "fabric_switches", "server_models", "switch_models",
        "rack_types", "device_naming", "device_overrides", "rack_feeds",
    }
)  # fmt: skip
"""Every table an export's context is read from besides the plan's own (immutable) rows; a test
records the tables the context queries and fails if one is missing here."""

FINGERPRINT = fingerprint_query(FINGERPRINTED_TABLES)


def inputs_fingerprint(session: Session, hall_id: int) -> str:
    return hall_digest(session, FINGERPRINT, hall_id)


MAX_OPTIONS_CHARS = 600
"""The stored key's limit (`ExportCacheRow.options`): real row and rack names fit well within it;
longer options are sent without being stored."""


def _options(options: Mapping[str, object]) -> str:
    return "&".join(f"{k}={'' if v is None else v}" for k, v in sorted(options.items()))


@dataclass(frozen=True, slots=True)
class StoredExport:
    """An export's whole body, gzip-compressed."""

    gzipped: bytes

    def plain(self) -> bytes:
        return gzip.decompress(self.gzipped)


def cached(
    session: Session,
    plan: WiringPlanRow,
    export: str,
    options: Mapping[str, object],
    render: Callable[[], Iterator[bytes]],
    keep: Callable[[bytes], bool] = lambda body: True,
) -> StoredExport | Iterator[bytes]:
    """The stored body of `export` with `options` while its inputs are unchanged; else `render()`
    joined, compressed, stored (in the request's transaction, if `keep(body)`) and returned. A plan
    above `MAX_CACHED_CABLES`: `render()` itself, streamed."""
    key = _options(options)
    if int(plan.summary.get("cables", 0)) > MAX_CACHED_CABLES or len(key) > MAX_OPTIONS_CHARS:
        return render()
    inputs = inputs_fingerprint(session, plan.hall_id)
    stored = session.execute(
        text(
            "SELECT body FROM export_cache WHERE plan_id = :plan AND export = :export AND options = :options "
            "AND inputs = :inputs"
        ),
        {"plan": plan.id, "export": export, "options": key, "inputs": inputs},
    ).scalar()
    if stored is not None:
        return StoredExport(bytes(stored))
    plain = b"".join(render())
    # mtime 0: the same bytes give the same file, whenever they were rendered.
    body = gzip.compress(plain, compresslevel=6, mtime=0)
    if not keep(plain):
        return StoredExport(body)
    values = {"plan_id": plan.id, "export": export, "options": key, "inputs": inputs, "body": body}
    session.execute(
        pg_insert(ExportCacheRow)
        .values(**values)
        .on_conflict_do_update(
            index_elements=[ExportCacheRow.plan_id, ExportCacheRow.export, ExportCacheRow.options],
            set_={"inputs": inputs, "body": body, "created_at": text("now()")},
        )
    )
    return StoredExport(body)
