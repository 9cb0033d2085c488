#!/usr/bin/env python3
"""The editor's benchmarks in Chromium, on a stack of its own (fresh database, API, a real worker):
`e2e/bench/hall.bench.ts` (open the 2,000-rack, 104,000-cable hall: first render, draw calls, JS
heap; prints `BENCH {...}`) and `e2e/bench/orbit.bench.ts` (orbit frame times on the demo hall and
the same big hall; prints `BENCH_ORBIT {...}`) and `e2e/bench/campus.bench.ts` (the 10,000-rack,
500,000-cable hall: opens it, picks a far rack with a click and moves it, checked through the API;
prints `BENCH_CAMPUS {...}`) and `e2e/bench/facility.bench.ts` (the facility heat map switched on over the
same 2,000-rack hall: median and worst time to its first painted frame, the report's API time, JS heap
peak; prints `BENCH_FACILITY {...}`) and `e2e/bench/edits.bench.ts` (the demo hall and the same 2,000-rack
hall: a row duplicated with Ctrl+D and a switch between two plans in the Plans tab, each from the input event
to the frame drawn; median, min-max, JS heap peak; prints `BENCH_EDITS {...}`). Needs the built frontend
(`make frontend`) and the e2e packages (`make e2e-deps`). Exits non-zero when a benchmark cannot run (a
refused hall or plan fails its spec), so `make bench` names it instead of printing nothing for it.

    .venv/bin/python scripts/bench_editor.py [hall|orbit|campus|facility|edits ...]
    .venv/bin/python scripts/bench_editor.py --compare OLD_DIST [--runs N] [hall|orbit ...]

`--compare OLD_DIST` measures two builds side by side on one stack: a second API process on the same
database serves the frontend build in OLD_DIST (`npx vite build` in a worktree of the old commit), and
the runs alternate old, new, old, new... (the machine is shared: interleaving spreads the load over
both). The big hall is built once and reused; the medians of the runs are printed per build.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import stack

REDIS_DB = 11  # (benchmarks run one at a time; the test suites use 2-9, bench_flows 10)
SPECS = {
    "hall": "hall.bench.ts",
    "orbit": "orbit.bench.ts",
    "campus": "campus.bench.ts",
    "facility": "facility.bench.ts",
    "edits": "edits.bench.ts",
}


def playwright(specs: list[str], url: str, extra: dict[str, str] | None = None, tee: list[str] | None = None) -> int:
    """One playwright run of the specs against `url`; its output echoed (and kept in `tee`)."""
    cmd = ["npx", "playwright", "test", "-c", "bench/playwright.bench.config.ts", "--workers", "1", *specs]
    env = dict(os.environ, LOOPLINE_E2E_URL=url, **(extra or {}))
    if tee is None:
        return subprocess.run(cmd, cwd=stack.ROOT / "e2e", env=env).returncode
    proc = subprocess.run(cmd, cwd=stack.ROOT / "e2e", env=env, capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    tee.extend(proc.stdout.splitlines())
    return proc.returncode


# The figures compared per build: (line prefix, key in the report, path inside it).
COMPARED = [
    ("BENCH ", "first render ms", ("time_to_first_render_ms",)),
    ("BENCH ", "first hall render ms", ("time_to_first_hall_render_ms",)),
    ("BENCH ", "draw calls", ("draw_calls",)),
    ("BENCH ", "JS heap MB", ("js_heap_mb",)),
    ("BENCH ", "row nudge to frame ms", ("edit_to_frame_ms",)),
    ("BENCH ", "rack move to frame ms", ("rack_move_to_frame_ms",)),
    ("BENCH ", "redraw frame ms", ("redraw_frame_ms",)),
]


def summarise(lines_by_build: dict[str, list[str]]) -> None:
    """Medians over the runs, per build, of the hall benchmark's figures and each orbit's median/p90."""
    for build, lines in lines_by_build.items():
        halls = [json.loads(x.split("BENCH ", 1)[1]) for x in lines if x.startswith("BENCH {")]
        orbits = [json.loads(x.split("BENCH_ORBIT ", 1)[1]) for x in lines if x.startswith("BENCH_ORBIT ")]
        row: dict[str, object] = {"build": build, "runs": len(halls) or len(orbits)}
        for _prefix, label, path in COMPARED:
            values = [h.get(path[0]) for h in halls if isinstance(h.get(path[0]), int | float)]
            if values:
                row[label] = statistics.median(values)
        if halls:
            row["renderer"] = halls[0].get("renderer")
        for name in sorted({o["hall"] for o in orbits}):
            of = [o for o in orbits if o["hall"] == name]
            for kind in ("orbit", "drag"):
                row[f"{name} {kind} median/p90 ms"] = (
                    statistics.median(o[kind]["median_ms"] for o in of),
                    statistics.median(o[kind]["p90_ms"] for o in of),
                )
        print(f"BENCH_EDITOR_COMPARE {json.dumps(row)}", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="The editor's benchmarks in Chromium.")
    parser.add_argument("benchmarks", nargs="*", help=f"from {', '.join(SPECS)} (default: all)")
    parser.add_argument("--compare", type=Path, help="an older frontend build (its dist folder) to measure beside")
    parser.add_argument("--runs", type=int, default=3, help="runs of each build with --compare (default 3)")
    args = parser.parse_args(argv)
    unknown = [a for a in args.benchmarks if a not in SPECS]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(SPECS)}", file=sys.stderr)
        return 2
    if args.compare and not (args.compare / "index.html").is_file():
        print(f"--compare: {args.compare} holds no frontend build (no index.html)", file=sys.stderr)
        return 2
    specs = [SPECS[a] for a in args.benchmarks] or list(SPECS.values())
    name = f"loopline_bench_editor_{os.getpid()}"
    with stack.app_stack(name, redis_db=REDIS_DB) as (url, _pid):
        if not args.compare:
            # One playwright run: the orbit benchmark reuses the big hall the hall benchmark built.
            return playwright(specs, url)
        # The same database and broker, the old build's pages.
        env = stack.service_env(stack.services(), db=name, redis_db=REDIS_DB)
        env["LOOPLINE_FRONTEND_DIST"] = str(args.compare.resolve())
        old_port = stack.free_port()
        old_api = stack.start_api(env, old_port)
        try:
            old_url = f"http://127.0.0.1:{old_port}"
            if not stack.wait_http(f"{old_url}/api/health/ready", timeout_s=90):
                raise RuntimeError("the API serving the old build did not come up (logs under .run/logs)")
            lines: dict[str, list[str]] = {"old": [], "new": []}
            failed = 0
            for run in range(args.runs):
                for build, at in (("old", old_url), ("new", url)) if run % 2 == 0 else (("new", url), ("old", old_url)):
                    extra = {"LOOPLINE_BENCH_BUILD": build, "LOOPLINE_BENCH_REUSE": "1"}
                    failed += playwright(specs, at, extra, lines[build]) != 0
            summarise(lines)
            return 1 if failed else 0
        finally:
            stack.stop_processes([old_api])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
