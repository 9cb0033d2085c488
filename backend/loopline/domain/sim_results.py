"""A simulation result as tables: what pages and CSV downloads are cut from.

The engine's flow-mode result holds per-server throughput, per-link utilisation and per-size-bucket
completion times. Its per-flow records (`engine.flow_records`, asked for by the worker for runs of
up to `FLOW_RECORDS_MAX` flows, as the engine counts them: `loopline-sim validate --json`) are
stored apart, one row a flow; `FLOW_COLUMNS` is their shape.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from loopline.domain.errors import DomainError

TABLES: dict[str, tuple[str, ...]] = {
    "servers": ("id", "bytes_sent", "bytes_received", "tx_gbps", "rx_gbps"),
    "links": ("id", "from", "to", "gbps", "bytes", "mean_util", "peak_util"),
    "size-buckets": (
        "bucket", "min_bytes", "max_bytes", "flows", "fct_mean_s", "fct_p50_s", "fct_p99_s", "fct_max_s",
        "slowdown_mean", "slowdown_p50", "slowdown_p99", "slowdown_max",
    ),
}  # fmt: skip
"""Each table's columns, in order (the CSV header)."""


def table_rows(result: dict[str, Any], table: str) -> list[dict[str, Any]]:
    """The rows of `table` in the engine's order (servers and links: scenario order)."""
    if table == "servers":
        return [{c: s.get(c) for c in TABLES[table]} for s in result.get("servers") or []]
    if table == "links":
        return [{c: link.get(c) for c in TABLES[table]} for link in (result.get("links") or {}).get("links") or []]
    if table == "size-buckets":
        rows = []
        for b in (result.get("flows") or {}).get("by_size") or []:
            fct, slow = b.get("fct_s") or {}, b.get("slowdown") or {}
            rows.append(
                {
                    "bucket": b.get("bucket"), "min_bytes": b.get("min_bytes"), "max_bytes": b.get("max_bytes"),
                    "flows": fct.get("count"), "fct_mean_s": fct.get("mean"), "fct_p50_s": fct.get("p50"),
                    "fct_p99_s": fct.get("p99"), "fct_max_s": fct.get("max"), "slowdown_mean": slow.get("mean"),
                    "slowdown_p50": slow.get("p50"), "slowdown_p99": slow.get("p99"), "slowdown_max": slow.get("max"),
                }
            )  # fmt: skip
        return rows
    raise DomainError("table", f"unknown result table {table!r} (one of {', '.join(TABLES)})")


def as_cells(rows: Sequence[dict[str, Any]], table: str) -> list[list[object]]:
    """Rows as CSV cells (null -> empty)."""
    return [["" if r[c] is None else r[c] for c in TABLES[table]] for r in rows]


FLOW_RECORDS_MAX = 1_000_000
"""Runs of up to this many flows keep one record a flow (a few hundred bytes each, stored)."""

FLOW_COLUMNS: tuple[str, ...] = ("index", "src", "dst", "bytes", "start_s", "fct_s", "slowdown")
"""A per-flow record's fields, in order (the engine's names; the CSV header)."""

FlowSort = Literal["index", "fct_s", "slowdown"]
FlowStatus = Literal["all", "finished", "unfinished"]


def flow_cells(row: Sequence[object]) -> list[object]:
    """A per-flow row (in `FLOW_COLUMNS` order) as CSV cells: an unfinished flow's cells empty."""
    return ["" if v is None else v for v in row]


def sorted_float64(values: Iterable[float]) -> bytes:
    """Values sorted ascending as little-endian float64 (what the browser reads as a Float64Array)."""
    packed = array("d", sorted(values))
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()
