#!/usr/bin/env python3
"""Benchmark: wiring plan generation for a 100,000-server hall with p = 2 (not a timed test).

Each run is a fresh child process (so peak RSS is that run's own): it builds the abstract hall
(50 rows x 50 racks x b=2 logical racks x r=20 servers by default), generates the plan (server,
ToR and fabric cables with routing, media, labels and IDs), and reports the generation time and
its peak RSS (resource.getrusage). The parent prints the median time and the maximum peak RSS of
`--runs` runs, against the targets (10 s, 2 GB). Storing the plan is not measured here.

    .venv/bin/python scripts/bench_wiring.py [--runs 5] [--pattern side-to-side] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

TARGET_S = 10.0
TARGET_BYTES = 2 * 1024**3


def once(a: argparse.Namespace) -> dict[str, Any]:
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.routing import geometry_preset
    from loopline.domain.wiring import Pattern, WiringSpec, generate_plan, summarize

    t0 = time.perf_counter()
    hall = build_abstract_layout(
        AbstractLayoutSpec(
            rows=a.rows,
            racks_per_row=a.racks_per_row,
            logical_per_rack=a.logical_per_rack,
            servers_per_logical_rack=a.servers_per_logical_rack,
            ports=a.ports,
            geometry=a.geometry,
        )
    )
    t1 = time.perf_counter()
    plan = generate_plan(
        hall,
        WiringSpec(pattern=Pattern(a.pattern), ports=a.ports, loop=a.loop),
        geometry=geometry_preset(a.geometry),
    )
    t2 = time.perf_counter()
    summary = summarize(plan)
    t3 = time.perf_counter()
    # ru_maxrss is in KiB on Linux
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "layout_s": t1 - t0,
        "generate_s": t2 - t1,
        "summary_s": t3 - t2,
        "peak_rss_bytes": peak,
        "servers": summary.servers,
        "tors": summary.tors,
        "cables": summary.cables,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--rows", type=int, default=50)
    p.add_argument("--racks-per-row", type=int, default=50)
    p.add_argument("--logical-per-rack", type=int, default=2)
    p.add_argument("--servers-per-logical-rack", type=int, default=20)
    p.add_argument("--ports", type=int, default=2)
    p.add_argument("--pattern", default="side-to-side")
    p.add_argument("--loop", type=int, default=None)
    p.add_argument("--geometry", default="default")
    p.add_argument("--json", action="store_true")
    p.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.once:
        print(json.dumps(once(a)))
        return 0
    child = [sys.executable, __file__, "--once", *[x for x in sys.argv[1:] if x != "--json"]]
    runs = []
    for _ in range(a.runs):
        res = subprocess.run(child, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            sys.stderr.write(res.stderr)
            return 1
        runs.append(json.loads(res.stdout))
    gen = statistics.median(r["generate_s"] for r in runs)
    peak = max(r["peak_rss_bytes"] for r in runs)
    report = {
        "pattern": a.pattern,
        "ports": a.ports,
        "servers": runs[0]["servers"],
        "tors": runs[0]["tors"],
        "cables": runs[0]["cables"],
        "runs": a.runs,
        "generate_s_median": round(gen, 3),
        "generate_s_all": [round(r["generate_s"], 3) for r in runs],
        "layout_s_median": round(statistics.median(r["layout_s"] for r in runs), 3),
        "summary_s_median": round(statistics.median(r["summary_s"] for r in runs), 3),
        "peak_rss_mb": round(peak / 1024**2, 1),
        "within_targets": gen < TARGET_S and peak < TARGET_BYTES,
    }
    if a.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['servers']} servers, {report['tors']} ToRs, {report['cables']} cables "
            f"({a.pattern}, p={a.ports}): "
            f"generation median {report['generate_s_median']} s over {a.runs} runs {report['generate_s_all']}, "
            f"peak RSS {report['peak_rss_mb']} MB (targets: < {TARGET_S:g} s, < 2 GB: "
            f"{'met' if report['within_targets'] else 'MISSED'})"
        )
    return 0 if report["within_targets"] else 1


if __name__ == "__main__":
    sys.exit(main())
