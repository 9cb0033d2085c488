#!/usr/bin/env python3
"""Benchmark: read a 100,000-server p -> p+1 upgrade as the editor does (not a test).

Needs the local services (`python3 scripts/stack.py services`). Builds a scratch database with the
migrations; in a fresh child process per run, stores the plans of a 100,000-server hall (50 rows x
50 racks x b=2 x r=20, side-to-side) with p = 1 and p = 2 as `services.wiring_plans` does, then times
what the plan and upgrade screens ask: the priced summary, the BOM, the diff with the upgrade's
own BOM (`/diff`, computed: the first time a pair is asked for), and the first and last pages of
500 added cables (`/diff/cables`, which reuse it). Prints the median of each over the runs and the
peak RSS of the worst run.

    .venv/bin/python scripts/bench_plan_diff.py [--runs 3]
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

import stack
from bench_plan_store import prepare

ROOT = stack.ROOT
DB = "loopline_bench_diff"
STEPS = ("summary_s", "bom_s", "diff_s", "first_page_s", "last_page_s")


def once() -> dict[str, Any]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from loopline.db.models import Hall, Project
    from loopline.db.models.wiring import WiringPlanRow
    from loopline.db.session import get_engine
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.routing import DEFAULT_GEOMETRY
    from loopline.domain.wiring import DiffStatus, Pattern, WiringSpec, generate_plan, summarize
    from loopline.services import wiring_bom, wiring_compare, wiring_diff_cables
    from loopline.services.wiring_spec import route_level_mm
    from loopline.services.wiring_storage import store_plan

    hall = build_abstract_layout(
        AbstractLayoutSpec(rows=50, racks_per_row=50, logical_per_rack=2, servers_per_logical_rack=20, ports=2)
    )
    out: dict[str, Any] = {}
    with Session(get_engine()) as session:
        project_id = session.execute(select(Project.id)).scalar_one()
        hall_id = session.execute(select(Hall.id)).scalar_one()
        rows = []
        for p in (1, 2):
            plan = generate_plan(hall, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=p))
            row = WiringPlanRow(
                project_id=project_id, hall_id=hall_id, name=f"p={p}", spec={"name": "p", "pattern": "side-to-side"},
                summary=summarize(plan).to_json(), diff=None, loops=[],
                tray_z_mm=route_level_mm(DEFAULT_GEOMETRY, hall), via="tray",
            )  # fmt: skip
            session.add(row)
            session.flush()
            store_plan(session, row.id, hall, plan)
            out[f"cables_p{p}"] = len(plan.cables)
            rows.append(row)
            del plan
        session.commit()
        old, new = rows

        def timed(name: str, fn: Any) -> Any:
            t = time.perf_counter()
            result = fn()
            out[name] = time.perf_counter() - t
            return result

        timed("summary_s", lambda: wiring_bom.plan_view(session, new))
        timed("bom_s", lambda: wiring_bom.bill_of_materials(session, new))
        c = timed("diff_s", lambda: wiring_compare.compare_plans(session, old, new))
        out["added"], out["moved"] = len(c.diff.added), len(c.diff.moved)
        pages = (len(c.diff.added) + 499) // 500
        timed(
            "first_page_s",
            lambda: wiring_diff_cables.diff_cable_page(session, old, new, DiffStatus.ADDED, page=1, limit=500),
        )
        timed(
            "last_page_s",
            lambda: wiring_diff_cables.diff_cable_page(session, old, new, DiffStatus.ADDED, page=pages, limit=500),
        )
        for row in rows:
            session.delete(row)
        session.commit()
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(once()))
        return 0
    env = prepare(DB)
    results = []
    try:
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True
            )
            results.append(json.loads(out.stdout))
    finally:
        state = json.loads((ROOT / ".run" / "ports.json").read_text())
        stack.psql(state["postgres"], f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    r0 = results[0]
    med = {k: statistics.median(r[k] for r in results) for k in STEPS}
    peak = max(r["peak_rss_mb"] for r in results)
    print(
        f"p=1 -> p=2 upgrade of {r0['cables_p1']} -> {r0['cables_p2']} cables ({r0['added']} added, "
        f"{r0['moved']} moved), median of {len(results)} runs: priced summary {med['summary_s'] * 1000:.0f} ms, "
        f"BOM {med['bom_s'] * 1000:.0f} ms, diff + upgrade BOM {med['diff_s']:.2f} s, a page of 500 added "
        f"cables {med['first_page_s']:.2f} s (last page {med['last_page_s']:.2f} s), peak RSS {peak:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOOPLINE_ENV", "local")
    sys.exit(main())
