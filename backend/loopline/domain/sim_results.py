"""A simulation result as tables: what pages and CSV downloads are cut from.

The engine's flow-mode result holds per-server throughput, per-link utilisation and per-size-bucket
completion times. Its per-flow records (`engine.flow_records`, asked for by the worker for runs of
up to `FLOW_RECORDS_MAX` flows) are stored apart, one row a flow; `FLOW_COLUMNS` and
`workload_flows` are their shape and the count that decides whether a run keeps them.
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


def workload_flows(scenario: dict[str, Any]) -> int | None:
    """How many flows the scenario's workload generates, counted as the engine counts them
    (sim-engine `Scenario::workload_flows`); None when the workload is not one it knows."""
    workload = scenario.get("workload") or {}
    nodes = (scenario.get("network") or {}).get("nodes") or []

    def count(ids: object) -> int:
        if isinstance(ids, list):
            return len(ids)
        return sum(1 for n in nodes if isinstance(n, dict) and n.get("role") == "server")

    def number(key: str, default: int | None = None) -> int | None:
        value = workload.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    kind = workload.get("type")
    if kind in ("shuffle", "all_to_all"):
        n = count(workload.get("servers"))
        return n * max(n - 1, 0)
    if kind == "permutation":
        return count(workload.get("servers"))
    if kind in ("random", "poisson"):
        return number("flows")
    if kind == "many_to_many":
        senders, receivers = workload.get("senders") or [], workload.get("receivers") or []
        per_pair = number("flows_per_pair", 1)
        both = sum(1 for s in senders if s in receivers)
        return None if per_pair is None else max(len(senders) * len(receivers) - both, 0) * per_pair
    if kind in ("incast", "query"):
        senders = workload.get("senders")
        per = len(senders) if isinstance(senders, list) else number("fan_in", 8)
        queries = number("queries", 1 if kind == "incast" else 100)
        return None if per is None or queries is None else per * queries
    if kind == "memcache":
        requests = number("requests")
        return None if requests is None else 2 * requests
    return None


def wants_flow_records(scenario: dict[str, Any]) -> bool:
    """Whether a run of this scenario keeps its per-flow records: at most `FLOW_RECORDS_MAX` flows."""
    flows = workload_flows(scenario)
    return flows is not None and flows <= FLOW_RECORDS_MAX


def flow_cells(row: Sequence[object]) -> list[object]:
    """A per-flow row (in `FLOW_COLUMNS` order) as CSV cells: an unfinished flow's cells empty."""
    return ["" if v is None else v for v in row]


def sorted_float64(values: Iterable[float]) -> bytes:
    """Values sorted ascending as little-endian float64 (what the browser reads as a Float64Array)."""
    packed = array("d", sorted(values))
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()
