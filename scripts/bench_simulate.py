#!/usr/bin/env python3
"""Benchmark "submit a simulation": POST /wiring-plans/{id}/simulations on the demo hall's plan
(1,440 servers, 96 logical racks), the request as the editor sends it. Not a timed test.

    .venv/bin/python scripts/bench_simulate.py [--runs 15] [--body both|raw|preset]

`raw`: the workload section built in the browser (how the editor asked before the backend built
scenarios: the servers listed); `preset`: `{preset, params}`, the workload built by the server.
Two workloads each: a shuffle of 2 logical racks (the form's default) and rack to rack, 48 racks to
the other 48 (every server listed in the raw body). With `both` the two bodies alternate request by
request (interleaved, so load on the machine affects both alike). To compare with an older build,
run `--body raw` with PYTHONPATH pointing at that build's backend/ (its own scratch database).

Needs the local services (`python3 scripts/stack.py services`); works on a scratch database of its
own (created, migrated, seeded, dropped); requests go through the real app in-process (Starlette's
TestClient), including the engine's validation of the scenario; the job is queued on a Redis
database no worker listens to (purged at the end). Prints the median, min and max per body and workload.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import bench_app  # (scripts/ is on the path: the script's own folder)
import stack

ROOT = Path(__file__).resolve().parents[1]
PORTS = json.loads((ROOT / ".run" / "ports.json").read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--body", choices=["both", "raw", "preset"], default="both")
    args = parser.parse_args()
    # A Redis pair no running session holds (`stack.claim_redis_pair`): no worker listens there, and
    # the queue is purged after. The bench queues many jobs that never run: no quota on queued work.
    pair = stack.claim_redis_pair(PORTS["redis"], 12)
    broker = {
        "LOOPLINE_BROKER_URL": f"redis://127.0.0.1:{PORTS['redis']}/{pair}",
        "LOOPLINE_RESULT_BACKEND": "cache+memory://",
        "LOOPLINE_QUEUED_WORK_PER_USER_S": "1e12",
        "LOOPLINE_QUEUED_WORK_PER_PROJECT_S": "1e12",
    }
    try:
        with bench_app.scratch_database(**broker):
            try:
                return bench(args.runs, args.body)
            finally:
                from loopline.queue import make_celery

                make_celery().control.purge()
    finally:
        stack.release_redis_pair(PORTS["redis"], pair)


def bench(runs: int, which: str) -> int:
    from alembic import command
    from alembic.config import Config
    from fastapi.testclient import TestClient

    import loopline
    from loopline.api.app import create_app
    from loopline.db.session import session_scope
    from loopline.seed import seed

    command.upgrade(Config(str(ROOT / "alembic.ini")), "head")
    with session_scope() as session:
        seed(session)
    client = TestClient(create_app())
    r = client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
    assert r.status_code == 200, r.text
    project = client.get("/api/v1/projects").json()["items"][0]["id"]
    hall = client.get(f"/api/v1/projects/{project}/halls").json()["items"][0]["id"]
    r = client.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "bench", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    plan = r.json()["id"]
    racks: dict[str, list[str]] = {}
    for n in client.get(f"/api/v1/wiring-plans/{plan}/scenario").json()["network"]["nodes"]:
        if n["role"] == "server":
            racks.setdefault(n["logical_rack"], []).append(n["id"])
    lists = list(racks.values())
    half = len(lists) // 2
    mb = 1_000_000
    bodies: dict[str, dict[str, dict[str, Any]]] = {
        "shuffle 2 racks": {
            "raw": {"workload": {"type": "shuffle", "servers": lists[0] + lists[1], "bytes_per_pair": mb}},
            "preset": {"preset": "shuffle", "params": {"job_racks": 2, "placement": "contiguous", "bytes": mb}},
        },
        f"rack to rack {half}->{len(lists) - half}": {
            "raw": {
                "workload": {
                    "type": "many_to_many", "bytes": mb, "flows_per_pair": 1,
                    "senders": [s for ss in lists[:half] for s in ss],
                    "receivers": [s for ss in lists[half:] for s in ss],
                }
            },
            "preset": {
                "preset": "many-to-many",
                "params": {"sender_racks": half, "receiver_racks": len(lists) - half, "bytes": mb},
            },
        },
    }  # fmt: skip
    kinds = ["raw", "preset"] if which == "both" else [which]
    times: dict[tuple[str, str], list[float]] = {(w, k): [] for w in bodies for k in kinds}
    sizes: dict[tuple[str, str], int] = {}

    def submit(workload: str, kind: str, i: int) -> float:
        body = {"name": f"bench {i}", "routing": {"type": "ecmp"}, "engine": {"seed": 1}, **bodies[workload][kind]}
        raw = json.dumps(body).encode()
        sizes[workload, kind] = len(raw)
        t0 = time.perf_counter()
        r = client.post(
            f"/api/v1/wiring-plans/{plan}/simulations", content=raw, headers={"Content-Type": "application/json"}
        )
        elapsed = time.perf_counter() - t0
        if r.status_code != 202:
            raise SystemExit(f"{workload} {kind}: {r.status_code} {r.text[:300]}")
        return elapsed

    for workload in bodies:  # warm-up: imports, pool, the engine's schema
        for kind in kinds:
            submit(workload, kind, -1)
    for i in range(runs):
        for workload in bodies:
            order = kinds if i % 2 == 0 else kinds[::-1]
            for kind in order:
                times[workload, kind].append(submit(workload, kind, i))
    print(
        f"submit bench ({Path(loopline.__file__).parents[1]}): demo hall plan, {sum(map(len, lists))} servers, "
        f"{len(lists)} logical racks; median of {runs}, interleaved; load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    for (workload, kind), xs in times.items():
        ms = sorted(x * 1000 for x in xs)
        print(
            f"  {workload:<22} {kind:<6} body {sizes[workload, kind] / 1000:7.1f} kB  "
            f"median {statistics.median(ms):6.1f} ms (min {ms[0]:.1f}, max {ms[-1]:.1f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
