#!/usr/bin/env python3
"""Benchmark: a 24-point sweep on the demo hall with 1 and with 2 workers (not a timed test; `make bench`).

Starts a stack of its own (fresh database, migrated and seeded, the API and one worker, over
HTTP), submits a sweep of `--points` points (pattern single-homed and paired-row x seeds; each
point generates the demo hall's plan, prices it and simulates a poisson workload of `--flows`
flows) and times it from the request to the last point, `--runs` times; then starts a second
worker and does the same. Prints the medians and their ratio (the speed-up the second worker
gives; on a machine with fewer free cores than workers it cannot reach 2).

    .venv/bin/python scripts/bench_sweep.py [--runs 2] [--points 24] [--flows 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections import Counter

import httpx
import stack

REDIS_DB = 12
TIMEOUT_S = 1800.0


def one_sweep(client: httpx.Client, hall: int, points: int, flows: int) -> tuple[float, Counter[str]]:
    grid = {"pattern": ["single-homed", "paired-row"], "seed": list(range(1, points // 2 + 1))}
    base = {"workload": "poisson", "flows": flows, "load": 0.5}
    t0 = time.perf_counter()
    r = client.post(f"/api/v1/halls/{hall}/sweeps", json={"name": "bench", "base": base, "grid": grid})
    if r.status_code != 202:
        raise SystemExit(f"sweep refused: {r.status_code} {r.text[:300]}")
    url = f"/api/v1/sweeps/{r.json()['id']}"
    deadline = time.monotonic() + TIMEOUT_S
    while (s := client.get(url).json())["status"] not in {"succeeded", "cancelled"}:
        if time.monotonic() > deadline:
            raise SystemExit(f"sweep not done in {TIMEOUT_S:g} s: {s['points_by_status']}")
        time.sleep(0.1)
    elapsed = time.perf_counter() - t0
    bad = [p for p in s["points"] if p["status"] != "succeeded"]
    if bad:
        raise SystemExit(f"{len(bad)} points did not succeed: {bad[0]['error']}")
    return elapsed, Counter(p["worker"].split("@")[0] for p in s["points"])


def start_worker(env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
    log = stack.RUN / "logs" / f"bench-sweep-{name}.log"
    return subprocess.Popen(
        [str(stack.VENV_BIN / "celery"), "-A", "loopline_worker.app", "worker", "-n", f"{name}@%h", "--loglevel",
         "INFO", "--concurrency", "1", "--without-gossip", "--without-mingle", "--logfile", str(log)],
        env=env, cwd=stack.ROOT / "worker", start_new_session=True,
    )  # fmt: skip


def wait_for_workers(env: dict[str, str], n: int) -> None:
    os.environ.update({k: v for k, v in env.items() if k.startswith("LOOPLINE_")})
    from loopline.queue import make_celery

    app = make_celery()
    deadline = time.monotonic() + 60
    while len(answered := app.control.ping(timeout=2)) < n:
        if time.monotonic() > deadline:
            raise SystemExit(f"fewer than {n} workers answered")
    if len(answered) > n:  # another stack's worker on this broker would take (and skip) our points
        raise SystemExit(f"{len(answered)} workers on redis db {REDIS_DB}, expected {n}: {answered}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--points", type=int, default=24)
    parser.add_argument("--flows", type=int, default=20_000)
    args = parser.parse_args()
    name = f"loopline_bench_sweep_{os.getpid()}"
    times: dict[int, list[float]] = {1: [], 2: []}
    with stack.app_stack(name, redis_db=REDIS_DB) as (base, _api_pid):
        env = stack.service_env(stack.services(), db=name, redis_db=REDIS_DB)
        with httpx.Client(base_url=base, timeout=120) as client:
            client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
            project = client.get("/api/v1/projects").json()["items"][0]["id"]
            hall = client.get(f"/api/v1/projects/{project}/halls").json()["items"][0]["id"]
            extra: subprocess.Popen[bytes] | None = None
            try:
                for workers in (1, 2):
                    if workers == 2:
                        extra = start_worker(env, "second")
                    wait_for_workers(env, workers)
                    for _ in range(args.runs):
                        elapsed, by_worker = one_sweep(client, hall, args.points, args.flows)
                        times[workers].append(elapsed)
                        print(f"  {workers} worker(s): {elapsed:6.1f} s  points per worker {dict(by_worker)}")
            finally:
                if extra is not None:
                    stack.stop_processes([extra])
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(
        f"{args.points}-point sweep on the demo hall ({args.flows} poisson flows a point), median of {args.runs}: "
        f"1 worker {one:.1f} s, 2 workers {two:.1f} s, ratio {one / two:.2f}x (cores: {os.cpu_count()})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
