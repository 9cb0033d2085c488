#!/usr/bin/env python3
"""Benchmark the layout API: bulk-create a 2,000-rack hall, then fetch its whole layout.

    .venv/bin/python scripts/bench_layout.py [--runs 5] [--rows 40] [--racks 50]

Needs the local services (`python3 scripts/stack.py services`). Works on a scratch database of its
own (created, migrated and dropped). Requests go through the real FastAPI app in-process
(Starlette's TestClient: routing, validation, auth, one transaction per request, JSON encoding),
not over a socket. Each figure is the median of `--runs` runs; memory is the peak of Python
allocations during the request (tracemalloc) and the process's peak RSS at the end.

Targets: bulk create < 2 s, whole-layout fetch < 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import bench_app  # (scripts/ is on the path: the script's own folder)

ROOT = Path(__file__).resolve().parents[1]
PORTS = json.loads((ROOT / ".run" / "ports.json").read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--racks", type=int, default=50, help="racks per row")
    parser.add_argument(
        "--facility", action="store_true", help="every rack created with facility settings and A/B feeds"
    )
    args = parser.parse_args()

    with bench_app.scratch_database():
        return bench(args.runs, args.rows, args.racks, args.facility)


def bench(runs: int, n_rows: int, n_racks: int, with_facility: bool = False) -> int:
    client = bench_app.migrated_app()
    project = bench_app.signed_in(client)
    ids = {m["name"]: m["id"] for m in client.get("/api/v1/catalog/server-models").json()["items"]}
    ids |= {m["name"]: m["id"] for m in client.get("/api/v1/catalog/switch-models").json()["items"]}
    lr = {
        "servers": 15,
        "server_model_id": ids["2x25G server"],
        "ports_used": 2,
        "tor_model_id": ids["48x25G+8x100G ToR"],
    }
    template: dict[str, object] = {"logical_racks": [lr, lr]}
    if with_facility:
        feeds = [{"name": n, "voltage_v": 230, "phases": 3, "breaker_a": 16} for n in "AB"]
        template["facility"] = {"power_budget_kw": 12, "cooling_kind": "rear-door", "feeds": feeds}
    rows = [
        {
            "name": f"R{i:03d}",
            "x_m": 1,
            "y_m": 1 + 2.4 * i,
            "front": "left" if i % 2 == 0 else "right",
            "rack_count": n_racks,
            "rack_template": template,
        }
        for i in range(n_rows)
    ]
    width, depth = n_racks * 0.6 + 2, n_rows * 2.4 + 2
    total = n_rows * n_racks
    create_s: list[float] = []
    fetch_s: list[float] = []
    halls: list[int] = []

    def new_hall(name: str) -> int:
        r = client.post(f"/api/v1/projects/{project}/halls", json={"name": name, "width_m": width, "depth_m": depth})
        return int(r.json()["id"])

    def create(hall: int) -> float:
        t0 = time.perf_counter()
        r = client.post(f"/api/v1/halls/{hall}/rows/bulk", json={"rows": rows})
        elapsed = time.perf_counter() - t0
        if r.status_code != 201 or r.json()["racks_created"] != total:
            raise SystemExit(f"bulk create failed: {r.status_code} {r.text[:500]}")
        return elapsed

    def fetch(hall: int) -> tuple[float, int]:
        t0 = time.perf_counter()
        r = client.get(f"/api/v1/halls/{hall}/layout")
        elapsed = time.perf_counter() - t0
        assert r.status_code == 200 and sum(len(x["racks"]) for x in r.json()["rows"]) == total
        return elapsed, len(r.content)

    warm = new_hall("warm-up")  # imports, connection pool, caches; not counted
    create(warm)
    fetch(warm)
    size = 0
    for run in range(runs):
        hall = new_hall(f"H{run}")
        halls.append(hall)
        create_s.append(create(hall))
        elapsed, size = fetch(hall)
        fetch_s.append(elapsed)
    # Memory: one more run of each under tracemalloc (which slows allocation-heavy code, so not timed).
    tracemalloc.start()
    create(new_hall("mem"))
    create_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    fetch(halls[-1])
    fetch_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    mb = 1024 * 1024
    load = os.getloadavg()[0]
    print(
        f"layout bench: {n_rows} rows x {n_racks} racks = {total} racks, {2 * total} logical racks; "
        f"median of {runs} runs; load average {load:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"  bulk create  POST /halls/{{id}}/rows/bulk  median {statistics.median(create_s) * 1000:6.0f} ms "
        f"(min {min(create_s) * 1000:.0f}, max {max(create_s) * 1000:.0f}); "
        f"peak Python allocations {create_peak / mb:.1f} MiB   target < 2000 ms"
    )
    print(
        f"  whole layout GET  /halls/{{id}}/layout     median {statistics.median(fetch_s) * 1000:6.0f} ms "
        f"(min {min(fetch_s) * 1000:.0f}, max {max(fetch_s) * 1000:.0f}); {size / 1e6:.1f} MB JSON; "
        f"peak Python allocations {fetch_peak / mb:.1f} MiB   target < 300 ms"
    )
    print(f"  process peak RSS {rss_mb:.0f} MiB (app, client and both documents in one process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
