#!/usr/bin/env python3
"""Benchmark: a 100,000-server hall wired with structured cabling, generated, stored and exported
(issue 29; not a test).

1. Generate and store, in a fresh child process per run, as `services.wiring_plans.create_plan` does:
   the abstract hall of scripts/bench_plan_store.py (50 rows x 50 racks x b=2 x r=20 servers, a
   network rack at each row's end, three-tier fabric, 4 uplinks per ToR: 20,000 ToR uplinks),
   side-to-side p=2, structured cabling with row-end panels; the direct plan, its plant (panels,
   trunks, cords, chains, checks), the summary and bill, then one committed transaction of COPYs.
   Prints each phase's median and the worst run's peak RSS (targets: < 15 s, < 2 GB).
2. Exports: a stack of its own (fresh database, uvicorn and a worker on free ports), the same plan
   stored under a hall made through the API, and each structured export downloaded `--runs` times
   as the demo user: median time to the first byte and to the last, size, API peak RSS
   (target: first byte < 2 s).

    .venv/bin/python scripts/bench_structured.py [--runs 3] [--skip-exports] [--skip-store]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

import bench_exports
import bench_plan_store
import stack

ROOT = stack.ROOT
DB = "loopline_bench_structured"
REDIS_DB = 10
STORE_TARGET_S = 15.0
RSS_TARGET_MB = 2048.0
TTFB_TARGET_S = 2.0
EXPORTS = ("wiring-segments.csv", "trunk-pull-list.csv", "panel-map.pdf", "wiring-sheet.csv", "netbox.zip")


def generate_and_store(hall_id: int | None = None) -> dict[str, Any]:
    """Generate the bench hall's structured plan and store it (under `hall_id`, or the database's
    one hall), timing each phase."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from loopline.db.models import Hall
    from loopline.db.models.wiring import WiringPlanRow
    from loopline.db.session import get_engine
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.routing import DEFAULT_GEOMETRY
    from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
    from loopline.domain.wiring import Pattern, WiringSpec, generate_plan, summarize
    from loopline.services import wiring_plant
    from loopline.services.wiring_spec import route_level_mm, server_port_speeds
    from loopline.services.wiring_storage import store_plan

    t0 = time.perf_counter()
    hall = build_abstract_layout(
        AbstractLayoutSpec(rows=50, racks_per_row=50, logical_per_rack=2, servers_per_logical_rack=20, ports=2)
    )
    spec = WiringSpec(
        pattern=Pattern.SIDE_TO_SIDE,
        ports=2,
        cabling=Cabling.STRUCTURED,
        structured=StructuredSettings(panel_at=PanelPlacement.ROW_END),
    )
    plan = generate_plan(hall, spec)
    t1 = time.perf_counter()
    plant = wiring_plant.build_plant(hall, plan, DEFAULT_GEOMETRY)
    assert plant is not None
    t2 = time.perf_counter()
    summary = summarize(plan, server_port_speeds(hall), plant).to_json()
    t3 = time.perf_counter()
    with Session(get_engine()) as session:
        hall_id = hall_id if hall_id is not None else session.execute(select(Hall.id)).scalar_one()
        hall_row = session.get(Hall, hall_id)
        assert hall_row is not None
        row = WiringPlanRow(
            project_id=hall_row.project_id, hall_id=hall_id, name="bench structured",
            spec={"name": "bench structured", "pattern": "side-to-side", "ports": 2, "cabling": "structured",
                  "structured": {"panel_at": "row-end"}},
            summary=summary, diff=None, loops=[], tray_z_mm=route_level_mm(DEFAULT_GEOMETRY, hall), via="tray",
        )  # fmt: skip
        session.add(row)
        session.flush()
        store_plan(session, row.id, hall, plan)
        wiring_plant.store_plant(session, row.id, plant)
        plan_id = row.id
        session.commit()
        t4 = time.perf_counter()
    return {
        "plan_id": plan_id,
        "servers": sum(1 for d in plan.devices if d.role.value == "server"),
        "cables": len(plan.cables),
        "panels": len(plant.panels),
        "items": len(plant.items),
        "steps": len(plant.steps),
        "findings": len(plant.findings),
        "generate_s": t1 - t0,
        "plant_s": t2 - t1,
        "summary_s": t3 - t2,
        "store_s": t4 - t3,
        "total_s": t4 - t0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def bench_store(runs: int) -> bool:
    env = bench_plan_store.prepare(DB)
    results = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"the generate-and-store child failed:\n{out.stderr[-3000:]}")
        results.append(json.loads(out.stdout))
    stack.psql(stack.services()["postgres"], f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    r0 = results[0]
    phases = ("generate_s", "plant_s", "summary_s", "store_s", "total_s")
    med = {k: statistics.median(r[k] for r in results) for k in phases}
    peak = max(r["peak_rss_mb"] for r in results)
    ok = med["total_s"] < STORE_TARGET_S and peak < RSS_TARGET_MB
    print(
        f"{r0['servers']} servers, {r0['cables']} links, structured (row-end panels): {r0['panels']} panels, "
        f"{r0['items']} plant items, {r0['steps']} chain steps, {r0['findings']} findings kept\n"
        f"  generate {med['generate_s']:.2f} s + plant {med['plant_s']:.2f} s + summary/bill {med['summary_s']:.2f} s"
        f" + store {med['store_s']:.2f} s = {med['total_s']:.2f} s median of {len(results)} runs "
        f"{[round(r['total_s'], 2) for r in results]}, peak RSS {peak:.0f} MB "
        f"(targets < {STORE_TARGET_S:g} s, < 2 GB: {'met' if ok else 'NOT met'})",
        flush=True,
    )
    return ok


def bench_downloads(runs: int) -> bool:
    name = f"loopline_bench_structured_{os.getpid()}"
    met = True
    with stack.app_stack(name, redis_db=REDIS_DB) as (base, api_pid):
        client, hall_id = bench_exports.demo_client_and_hall(base)
        env = stack.service_env(stack.services(), db=name, redis_db=REDIS_DB)
        out = subprocess.run(
            [sys.executable, __file__, "--store-under", str(hall_id)],
            env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        plan = json.loads(out.stdout)["plan_id"]
        client.get(f"/api/v1/wiring-plans/{plan}/plant").raise_for_status()  # warm-up
        for export in EXPORTS:
            url = f"/api/v1/wiring-plans/{plan}/exports/{export}"
            got = [bench_exports.download(client, url, api_pid) for _ in range(runs)]
            med = {k: statistics.median(x[k] for x in got) for k in ("ttfb_s", "total_s", "mb")}
            peak = max(x["peak_rss_mb"] for x in got)
            ok = med["ttfb_s"] < TTFB_TARGET_S
            met = met and ok
            print(
                f"{export:22s} first byte {med['ttfb_s']:6.2f} s, all {med['total_s']:6.1f} s, {med['mb']:7.1f} MB, "
                f"API peak RSS {peak:5.0f} MB (median of {len(got)}: first byte "
                f"{[round(x['ttfb_s'], 2) for x in got]}) [target first byte < {TTFB_TARGET_S:g} s: "
                f"{'met' if ok else 'NOT met'}]",
                flush=True,
            )
        client.close()
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-store", action="store_true")
    parser.add_argument("--skip-exports", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--store-under", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(generate_and_store()))
        return 0
    if args.store_under is not None:
        print(json.dumps(generate_and_store(args.store_under)))
        return 0
    met = True
    if not args.skip_store:
        met = bench_store(args.runs) and met
    if not args.skip_exports:
        met = bench_downloads(args.runs) and met
    print("all targets met" if met else "some targets NOT met (see above)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOOPLINE_ENV", "local")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
