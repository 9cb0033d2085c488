#!/usr/bin/env python3
"""Benchmark GPU cluster wiring (issue 31): generate and store the rail-optimized wiring of a
32,768-GPU hall (4,096 servers x 8 rails) and of a 4,096-GPU hall (512 servers).

    .venv/bin/python scripts/bench_gpu_wiring.py [--runs 3] [--sizes 512,4096]

Needs the local services (`python3 scripts/stack.py services`). Works on a scratch database of its
own (created, migrated and dropped). Each hall is made by one `POST /projects/{id}/halls` with a
`gpu_cluster` (DGX SuperPOD's shape: SUs of 32 servers, 4 to a rack, the builtin 8x400G GPU server,
32x400G+32x400G rail leaves, 64x400G spines in 8 planes, one per rail, at 1:1: 32 uplinks per leaf,
leaves x 32 / 64 spines), then wired by `POST /halls/{id}/wiring-plans` (generate, route, media,
store by COPY: one request, one transaction), through the real FastAPI app in-process. The time is
the median of `--runs` requests; memory is the peak of Python allocations during one more request
(under tracemalloc, not timed) and the process's peak RSS at the end.

Target: the 32,768-GPU hall's wiring generated and stored in under 20 s.
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
SU = 32
PER_RACK = 4
RAILS = 8
SPINE_PORTS = 64
TARGET_S = {4096: 20.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="512,4096", help="servers per hall (8 GPUs each), comma-separated")
    args = parser.parse_args()
    with bench_app.scratch_database():
        return bench(args.runs, [int(s) for s in args.sizes.split(",")])


def bench(runs: int, sizes: list[int]) -> int:
    client = bench_app.migrated_app()
    project = bench_app.signed_in(client)
    ids = {m["name"]: m["id"] for m in client.get("/api/v1/catalog/server-models?limit=200").json()["items"]}
    ids |= {m["name"]: m["id"] for m in client.get("/api/v1/catalog/switch-models?limit=200").json()["items"]}
    load = os.getloadavg()[0]
    print(f"GPU wiring bench: rail-optimized 1:1, SU {SU}, median of {runs} runs; load average {load:.1f} on "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    failed = False
    for servers in sizes:
        sus = servers // SU
        leaves = sus * RAILS
        spines = leaves * SU // SPINE_PORTS  # 1:1: each leaf's 32 uplinks, 64 ports a spine
        cluster = {
            "scalable_units": sus, "servers_per_su": SU, "server_model_id": ids["8x400G GPU server"],
            "servers_per_rack": PER_RACK, "rail_leaf_model_id": ids["32x400G+32x400G leaf"],
            "spine_model_id": ids["64x400G 1U spine"], "spines": spines,
        }  # fmt: skip
        r = client.post(
            f"/api/v1/projects/{project}/halls",
            json={"name": f"G{servers}", "width_m": 60, "depth_m": 1000, "gpu_cluster": cluster},
        )
        if r.status_code != 201:
            print(f"  hall of {servers} servers refused: {r.text}", file=sys.stderr)
            return 1
        hall = r.json()["id"]
        rail = {"su_size": SU, "leaf_model_id": ids["32x400G+32x400G leaf"], "oversubscription": 1,
                "spine_planes": RAILS}  # fmt: skip

        def wire(name: str, hall: int = hall, rail: dict[str, object] = rail) -> dict[str, object]:
            r = client.post(
                f"/api/v1/halls/{hall}/wiring-plans", json={"name": name, "pattern": "rail-optimized", "rail": rail}
            )
            if r.status_code != 201:
                raise SystemExit(f"plan refused: {r.text[:500]}")
            return dict(r.json())

        times: list[float] = []
        body: dict[str, object] = {}
        for i in range(runs):
            t0 = time.perf_counter()
            body = wire(f"run {i}")
            times.append(time.perf_counter() - t0)
        tracemalloc.start()
        wire("memory")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        summary = body["summary"]
        assert isinstance(summary, dict)
        median = statistics.median(times)
        target = TARGET_S.get(servers)
        verdict = "" if target is None else f"   target < {target:g} s: {'met' if median < target else 'MISSED'}"
        failed |= target is not None and median >= target
        print(
            f"  {servers * RAILS:>6,} GPUs ({servers:,} servers, {leaves:,} leaves, {spines} spines): "
            f"{summary['cables']:,} cables; generate + store median {median:.2f} s "
            f"(min {min(times):.2f}, max {max(times):.2f}); peak Python allocations {peak / 2**20:.0f} MiB{verdict}"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  process peak RSS {rss:.0f} MiB (app, client, every plan in one process)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
