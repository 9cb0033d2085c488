#!/usr/bin/env python3
"""Benchmark: large documents that used to be handled inside the request (not a timed test; `make bench`).

Starts a stack of its own (fresh database, migrated and seeded, the API and a worker on free
ports, over HTTP) and measures, each as the median of `--runs`:

- a 1,000-hall project import (the demo hall copied 1,000 times: 52,000 racks, 96,000 logical
  racks): the request (outline check, store, queue: answered 202) and the job (until the worker
  has imported it all in one transaction and the job says `succeeded`);
- a 24 MB simulation scenario (a FatTree k=74 from `loopline-sim gen`, 1,000 flows): the submit
  request (outline check, store, queue) and the job (the worker's engine validates and runs it);
- registration of a new address and of a taken one (they must take about the same time).

Prints the times, the document sizes and the API's peak RSS. Before these changes the 1,000-hall
import ran past a 120 s client timeout inside its request, and the 24 MB submit took 22 s.

    .venv/bin/python scripts/bench_imports.py [--runs 3] [--halls 1000] [--k 74]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import stack

TIMEOUT_S = 1800.0


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _wait(client: httpx.Client, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        job = client.get(url).json()
        if job["status"] in {"succeeded", "failed", "cancelled"}:
            return dict(job)
        time.sleep(0.2)
    raise SystemExit(f"{url} did not finish in {TIMEOUT_S:g} s")


def _timed_job(client: httpx.Client, post: str, body: bytes, poll: str) -> tuple[float, float, dict[str, Any]]:
    """(request s, job s after the answer, final job)."""
    t0 = time.perf_counter()
    r = client.post(post, content=body, headers={"Content-Type": "application/json"})
    request_s = time.perf_counter() - t0
    if r.status_code != 202:
        raise SystemExit(f"POST {post}: {r.status_code} {r.text[:300]}")
    job = _wait(client, poll.format(id=r.json()["id"]))
    if job["status"] != "succeeded":
        raise SystemExit(f"job failed: {job.get('errors') or job.get('error')}")
    return request_s, time.perf_counter() - t0 - request_s, job


def _median(xs: list[float]) -> str:
    return f"median {statistics.median(xs):7.2f} s (min {min(xs):.2f}, max {max(xs):.2f})"


def bench(base: str, api_pid: int, runs: int, halls: int, k: int) -> None:
    engine = stack.ROOT / "sim-engine" / "target" / "release" / "loopline-sim"
    gen = subprocess.run([str(engine), "gen", "fattree", "--k", str(k), "--flows", "1000"], check=True,
                         capture_output=True)  # fmt: skip
    scenario = json.loads(gen.stdout)
    with httpx.Client(base_url=base, timeout=TIMEOUT_S) as client:
        client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
        demo = client.get("/api/v1/projects").json()["items"][0]["id"]
        one = client.get(f"/api/v1/projects/{demo}/export").json()
        doc = {**one, "halls": [{**one["halls"][0], "name": f"H{i:04d}"} for i in range(halls)]}
        racks = sum(len(r["racks"]) for h in doc["halls"] for r in h["rows"])

        import_request: list[float] = []
        import_job: list[float] = []
        for run in range(runs):
            doc["project"]["name"] = f"bench import {run}"
            body = json.dumps(doc, separators=(",", ":")).encode()
            req_s, job_s, job = _timed_job(client, "/api/v1/projects/import", body, "/api/v1/projects/imports/{id}")
            assert (job["halls_done"], job["racks_total"]) == (halls, racks)
            import_request.append(req_s)
            import_job.append(job_s)
            print(f"  import run {run + 1}: request {req_s:.2f} s, job {job_s:.1f} s", flush=True)

        project = client.get("/api/v1/projects").json()["items"][0]["id"]
        submit: list[float] = []
        simulate: list[float] = []
        sim_body = json.dumps({"name": "bench", "scenario": scenario}, separators=(",", ":")).encode()
        for run in range(runs):
            req_s, job_s, job = _timed_job(
                client, f"/api/v1/projects/{project}/simulations", sim_body, "/api/v1/simulations/{id}"
            )
            submit.append(req_s)
            simulate.append(job_s)
            print(f"  scenario run {run + 1}: request {req_s:.2f} s, job {job_s:.1f} s", flush=True)

        register: dict[str, list[float]] = {"new": [], "taken": []}
        for run in range(max(3, runs)):
            for kind in ("new", "taken"):
                email = f"bench-{run}@example.com" if kind == "new" else "demo@loopline.local"
                t0 = time.perf_counter()
                r = httpx.post(f"{base}/api/v1/auth/register", json={"email": email, "password": "a long bench pass"})
                register[kind].append(time.perf_counter() - t0)
                assert r.status_code == 202, r.text

    mb = 1024 * 1024
    print(
        f"imports bench: median of {runs} runs; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
        f"  import {halls:,} halls ({racks:,} racks, {len(body) / mb:.1f} MiB)  request {_median(import_request)}\n"
        f"  {'':>52} job     {_median(import_job)}\n"
        f"  submit a {len(sim_body) / mb:.1f} MiB scenario (FatTree k={k}){'':>14} request {_median(submit)}\n"
        f"  {'':>52} job     {_median(simulate)}\n"
        f"  register: new address {statistics.median(register['new']) * 1000:.0f} ms, "
        f"taken address {statistics.median(register['taken']) * 1000:.0f} ms (medians)\n"
        f"  API peak RSS {_peak_rss_mb(api_pid)} MB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--halls", type=int, default=1000)
    parser.add_argument("--k", type=int, default=74, help="FatTree k of the scenario (74: about 24 MB)")
    args = parser.parse_args()
    # Redis databases 14 and 15: the other stacks (run, tests, e2e, load and export benches, fuzz) use 0-13.
    with stack.app_stack(f"loopline_bench_imports_{os.getpid()}", redis_db=14) as (base, api_pid):
        bench(base, api_pid, args.runs, args.halls, args.k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
