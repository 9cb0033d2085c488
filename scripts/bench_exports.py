#!/usr/bin/env python3
"""Benchmark: every export of a 200,000-cable plan, over HTTP from a real API process (not a test).

Starts a stack of its own (fresh database, migrated and seeded, uvicorn and a worker on free
ports). A child process stores a plan of ~220,000 cables in the demo project, as
`services.wiring_plans` stores one (the hall of scripts/bench_plan_store.py: 50 rows x 50 racks x b=2 x
r=20 servers, side-to-side, p=2; generating it in the API process would leave the generator's
memory in the figures below). The plan hangs off an empty hall made through the API: its layout
is not stored, so rack faces default to `front` and NetBox's racks file is empty; the cable,
device and interface streams, the bulk of every export, are complete.

Then, logged in as the demo user, it downloads each export `--runs` times and prints, per
export: the median time to the first byte of the body and to the last, the size, and the API
process's peak RSS during the download (the kernel's high-water mark, reset before each download
through /proc/<pid>/clear_refs). reportlab writes a PDF once it is complete, so the whole plan's
printable exports are ZIPs of bounded PDFs sent one by one: `wiring-sheet.pdf` a PDF per row,
`labels.pdf` (the whole plan, or a row of more than 400 cables) PDFs of at most 200 cables by
rack; `?row`: the first row's (~4,400 cables: its wiring sheet is one PDF, its labels a ZIP).
The whole plan's labels (440,000 labels with their QR codes) take many minutes: one run of them
is enough (`--runs` applies to the others).
Targets (issue 15): first byte within 2 s, API under 500 MB.

    .venv/bin/python scripts/bench_exports.py [--runs 3] [--only wiring-sheet.csv ...]
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

ROOT = stack.ROOT
REDIS_DB = 10
TTFB_TARGET_S = 2.0
RSS_TARGET_MB = 500.0
EXPORTS = (
    "wiring-sheet.csv",
    "pull-list.csv",
    "netbox-cables.csv",
    "netbox.zip",
    "wiring-sheet.xlsx",
    "labels.pdf?row",
    "wiring-sheet.pdf?row",
    "wiring-sheet.pdf",
    "labels.pdf",
)
SLOW = {"labels.pdf"}
"""Run once whatever `--runs` says."""
"""`?row`: one row's cables (the first row's, ~4,400). In order of the memory they need: Python
keeps what it freed, so an export's peak is never below the RSS the one before it left (the
API's RSS when a download starts is printed too)."""


def store_plan(hall_id: int, rows: int = 50, racks: int = 50) -> dict[str, Any]:
    """In a child process: generate the bench hall's plan (`rows` x `racks`) and store it under `hall_id`."""
    from sqlalchemy.orm import Session

    from loopline.db.models import Hall
    from loopline.db.models.wiring import WiringPlanRow
    from loopline.db.session import get_engine
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.routing import DEFAULT_GEOMETRY
    from loopline.domain.wiring import Pattern, WiringSpec, generate_plan, summarize
    from loopline.services.wiring_spec import route_level_mm
    from loopline.services.wiring_storage import store_plan

    hall = build_abstract_layout(
        AbstractLayoutSpec(rows=rows, racks_per_row=racks, logical_per_rack=2, servers_per_logical_rack=20, ports=2)
    )
    plan = generate_plan(hall, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2))
    with Session(get_engine()) as session:
        hall_row = session.get(Hall, hall_id)
        assert hall_row is not None
        row = WiringPlanRow(
            project_id=hall_row.project_id, hall_id=hall_id, name="bench exports", spec={},
            summary=summarize(plan).to_json(), diff=None, loops=[], tray_z_mm=route_level_mm(DEFAULT_GEOMETRY, hall),
            via="tray",
        )  # fmt: skip
        session.add(row)
        session.flush()
        store_plan(session, row.id, hall, plan)
        session.commit()
        first_row = hall.rows[0].name
        return {"plan_id": row.id, "cables": len(plan.cables), "first_row": first_row}


def demo_client_and_hall(base: str) -> tuple[httpx.Client, int]:
    """A client logged in as the demo user and the id of an empty 200 x 200 m hall made in its project."""
    client = httpx.Client(base_url=base, timeout=1800)
    login = {"email": "demo@loopline.local", "password": "loopline-demo"}
    client.post("/api/v1/auth/login", json=login).raise_for_status()
    project = client.get("/api/v1/projects").json()["items"][0]["id"]
    r = client.post(f"/api/v1/projects/{project}/halls", json={"name": "Bench", "width_m": 200, "depth_m": 200})
    r.raise_for_status()
    return client, int(r.json()["id"])


def _reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # 5: reset the peak RSS (VmHWM) to the current RSS


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def download(client: httpx.Client, url: str, pid: int) -> dict[str, float]:
    _reset_peak(pid)
    start_rss = _rss_mb(pid)
    t0 = time.perf_counter()
    first = None
    size = 0
    with client.stream("GET", url) as r:
        if r.status_code != 200:
            raise SystemExit(f"{url}: {r.status_code} {r.read()[:300]!r}")
        chunked = "content-length" not in r.headers
        for chunk in r.iter_bytes():
            if first is None and chunk:
                first = time.perf_counter() - t0
            size += len(chunk)
    return {
        "ttfb_s": first if first is not None else float("nan"),
        "total_s": time.perf_counter() - t0,
        "mb": size / 1e6,
        "peak_rss_mb": _peak_rss_mb(pid),
        "start_rss_mb": start_rss,
        "streamed": float(chunked),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(EXPORTS), choices=EXPORTS)
    parser.add_argument("--store-plan", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.store_plan is not None:
        print(json.dumps(store_plan(args.store_plan)))
        return 0

    name = f"loopline_bench_exports_{os.getpid()}"
    with stack.app_stack(name, redis_db=REDIS_DB) as (base, api_pid):
        client, hall_id = demo_client_and_hall(base)
        env = stack.service_env(stack.services(), db=name, redis_db=REDIS_DB)
        t0 = time.perf_counter()
        out = subprocess.run(
            [sys.executable, __file__, "--store-plan", str(hall_id)],
            env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        stored = json.loads(out.stdout)
        print(f"plan of {stored['cables']} cables stored in {time.perf_counter() - t0:.1f} s", flush=True)
        plan = stored["plan_id"]
        client.get(f"/api/v1/wiring-plans/{plan}/exports/pull-list.csv").raise_for_status()  # warm-up
        met = True
        for export in args.only:
            name, _, per_row = export.partition("?")
            url = f"/api/v1/wiring-plans/{plan}/exports/{name}"
            what = name
            if per_row:
                url += f"?row={stored['first_row']}"
                what = f"{name} (row {stored['first_row']})"
            runs = [download(client, url, api_pid) for _ in range(1 if export in SLOW else args.runs)]
            med = {k: statistics.median(x[k] for x in runs) for k in ("ttfb_s", "total_s", "mb")}
            peak = max(x["peak_rss_mb"] for x in runs)
            ok = med["ttfb_s"] < TTFB_TARGET_S and peak < RSS_TARGET_MB
            met = met and ok
            print(
                f"{what:32s} first byte {med['ttfb_s']:6.2f} s, all {med['total_s']:6.1f} s, {med['mb']:7.1f} MB, "
                f"API peak RSS {peak:5.0f} MB (from {min(x['start_rss_mb'] for x in runs):.0f}), "
                f"{'chunked' if all(x['streamed'] for x in runs) else 'NOT chunked'} "
                f"(median of {len(runs)}: first byte {[round(x['ttfb_s'], 2) for x in runs]}) "
                f"[targets < {TTFB_TARGET_S:g} s, < {RSS_TARGET_MB:g} MB: {'met' if ok else 'NOT met'}]",
                flush=True,
            )
        client.close()
    print("all targets met" if met else "some targets NOT met (see above)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOOPLINE_ENV", "local")
    sys.exit(main())
