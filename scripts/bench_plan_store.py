#!/usr/bin/env python3
"""Benchmark: generate AND store the wiring plan of a 100,000-server hall with p = 2 (not a test).

Needs the local services (`python3 scripts/stack.py services`). Builds a scratch database with
the migrations, then, in a fresh child process per run: builds the abstract hall (50 rows x 50
racks x b=2 x r=20 servers), generates the plan and stores it as `services.wiring_plans` does (plan row
+ COPY of devices and cables) in one committed transaction. Prints the median over the runs and
the peak RSS of the worst run (targets: < 10 s, < 2 GB).

    .venv/bin/python scripts/bench_plan_store.py [--runs 3]
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

ROOT = stack.ROOT

DB = "loopline_bench_plan"


def once() -> dict[str, Any]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from loopline.db.models import Hall, Project
    from loopline.db.models.wiring import WiringPlanRow
    from loopline.db.session import get_engine
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.routing import DEFAULT_GEOMETRY
    from loopline.domain.wiring import Pattern, WiringSpec, generate_plan, summarize
    from loopline.services.wiring_spec import route_level_mm
    from loopline.services.wiring_storage import store_plan

    t0 = time.perf_counter()
    hall = build_abstract_layout(
        AbstractLayoutSpec(rows=50, racks_per_row=50, logical_per_rack=2, servers_per_logical_rack=20, ports=2)
    )
    plan = generate_plan(hall, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2))
    t1 = time.perf_counter()
    with Session(get_engine()) as session:
        project_id = session.execute(select(Project.id)).scalar_one()
        hall_id = session.execute(select(Hall.id)).scalar_one()
        row = WiringPlanRow(
            project_id=project_id, hall_id=hall_id, name="bench", spec={}, summary=summarize(plan).to_json(),
            diff=None, loops=[], tray_z_mm=route_level_mm(DEFAULT_GEOMETRY, hall), via="tray",
        )  # fmt: skip
        session.add(row)
        session.flush()
        store_plan(session, row.id, hall, plan)
        session.commit()
        t2 = time.perf_counter()
        session.delete(row)
        session.commit()
    return {
        "servers": sum(1 for d in plan.devices if d.role.value == "server"),
        "cables": len(plan.cables),
        "generate_s": t1 - t0,
        "store_s": t2 - t1,
        "total_s": t2 - t0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def prepare(db: str = DB) -> dict[str, str]:
    """A fresh, migrated database `db` holding one empty 200 x 200 m hall (H1)."""
    state = stack.services()
    stack.psql(state["postgres"], f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    stack.ensure_database(state["postgres"], db)
    env = stack.service_env(state, db=db)
    subprocess.run([str(ROOT / ".venv/bin/alembic"), "upgrade", "head"], env=env, cwd=ROOT, check=True)
    code = (
        "from loopline.db.session import session_scope\n"
        "from loopline.db.models import Hall, Project\n"
        "with session_scope() as s:\n"
        "    p = Project(name='bench'); s.add(p); s.flush()\n"
        "    s.add(Hall(project_id=p.id, name='H1', width_mm=200000, depth_mm=200000))\n"
    )
    subprocess.run([str(ROOT / ".venv/bin/python"), "-c", code], env=env, check=True)
    return env


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(once()))
        return 0
    env = prepare()
    results = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True)
        results.append(json.loads(out.stdout))
    state = json.loads((ROOT / ".run" / "ports.json").read_text())
    stack.psql(state["postgres"], f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    r0 = results[0]
    med = {k: statistics.median(r[k] for r in results) for k in ("generate_s", "store_s", "total_s")}
    peak = max(r["peak_rss_mb"] for r in results)
    ok = med["total_s"] < 10 and peak < 2048
    print(
        f"{r0['servers']} servers, {r0['cables']} cables (side-to-side, p=2): generate {med['generate_s']:.2f} s + "
        f"store {med['store_s']:.2f} s = {med['total_s']:.2f} s median of {len(results)} runs "
        f"{[round(r['total_s'], 2) for r in results]}, peak RSS {peak:.0f} MB "
        f"(targets < 10 s, < 2 GB: {'met' if ok else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOOPLINE_ENV", "local")
    sys.exit(main())
