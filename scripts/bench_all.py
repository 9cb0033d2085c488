#!/usr/bin/env python3
"""Run every benchmark in turn (none of them is a pass/fail test): `make bench`.

Each prints medians of several runs and peak memory against the targets its issue names.
"""

from __future__ import annotations

import subprocess
import sys

import stack

ROOT = stack.ROOT
PY = str(ROOT / ".venv" / "bin" / "python")

BENCHES: list[tuple[str, list[str], str]] = [
    ("layout: 2,000-rack bulk create and whole-hall fetch", [PY, "scripts/bench_layout.py"], "."),
    ("wiring: generate a 100,000-server plan", [PY, "scripts/bench_wiring.py", "--runs", "3"], "."),
    ("wiring: generate and store a 100,000-server plan", [PY, "scripts/bench_plan_store.py", "--runs", "3"], "."),
    ("wiring: a 100,000-server p -> p+1 upgrade: summary, BOM, diff, pages", [PY, "scripts/bench_plan_diff.py"], "."),
    (
        "wiring: a 100,000-server hall with structured cabling, generated and stored; its structured exports",
        [PY, "scripts/bench_structured.py", "--runs", "3"],
        ".",
    ),
    ("API under load: layout and cable page at 1-256 concurrent clients", [PY, "scripts/bench_load.py"], "."),
    ("exports of a 220,000-cable plan: first byte, total, API peak RSS", [PY, "scripts/bench_exports.py"], "."),
    ("labels: one streamed PDF and the ZIP, demo hall and 17,680 cables", [PY, "scripts/bench_labels.py"], "."),
    (
        "imports: a 1,000-hall project import and a 24 MB scenario submit (request and job)",
        [PY, "scripts/bench_imports.py"],
        ".",
    ),
    (
        "facility checks: the demo hall and a 2,000-rack hall with 100,000 cables",
        [PY, "scripts/bench_facility.py"],
        ".",
    ),
    (
        "facility from the database: load_plant and GET /halls/{id}/facility, 2,000 racks, 100,000 cables",
        [PY, "scripts/bench_facility_load.py"],
        ".",
    ),
    ("sweeps: a 24-point sweep of the demo hall with 1 and 2 workers", [PY, "scripts/bench_sweep.py"], "."),
    ("browser: open a result with 100,000 flows (CDF and flows table)", [PY, "scripts/bench_flows.py"], "."),
    (
        "browser: open the 2,000-rack hall; orbit the demo and the big hall; the 10,000-rack hall",
        [PY, "scripts/bench_editor.py"],
        ".",
    ),
    (
        "simulation estimate: estimated vs measured events, wall time and memory, flow and packet mode",
        [PY, "scripts/calibrate_sim_estimate.py"],
        ".",
    ),
    (
        "engine: detours against least-work alone on the issue-26 shuffles, 1-12 racks, seeds 1-5",
        [PY, "sim-engine/compare/detour_shuffles.py"],
        ".",
    ),
    (
        "engine: decomposed mode, k=16 fat-tree with 100,000 web-search flows on 1 and 2 workers; "
        "k=32 with 1,000,000 flows on 2",
        [PY, "scripts/bench_decomposed.py", "--k32"],
        ".",
    ),
    (
        "engine: FatTree k=16 web search; Subways shuffle of 180 servers",
        ["cargo", "bench", "--bench", "flow_engine"],
        "sim-engine",
    ),
    (
        "engine: a GPU training step, 4,096 GPUs with a 1 GB gradient, 32,768 GPUs with 4 GB (issue 31)",
        ["env", "LOOPLINE_BENCH_CASES=lm", "LOOPLINE_BENCH_RUNS=3", "cargo", "bench", "--bench", "flow_engine"],
        "sim-engine",
    ),
    (
        "wiring: generate and store a 4,096- and a 32,768-GPU hall's rail wiring",
        [PY, "scripts/bench_gpu_wiring.py"],
        ".",
    ),
]


def main() -> int:
    stack.services()
    failed = []
    for title, cmd, cwd in BENCHES:
        print(f"\n=== {title}\n$ {' '.join(cmd)}", flush=True)
        if subprocess.run(cmd, cwd=ROOT / cwd).returncode != 0:
            failed.append(title)
    if failed:
        print(f"benchmarks that did not run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
