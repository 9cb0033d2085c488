#!/usr/bin/env python3
"""The editor's benchmarks in Chromium, on a stack of its own (fresh database, API, a real worker):
`e2e/bench/hall.bench.ts` (open the 2,000-rack, 104,000-cable hall: first render, draw calls, JS
heap; prints `BENCH {...}`) and `e2e/bench/orbit.bench.ts` (orbit frame times on the demo hall and
the same big hall; prints `BENCH_ORBIT {...}`). Needs the built frontend (`make frontend`) and the
e2e packages (`make e2e-deps`). Exits non-zero when a benchmark cannot run (a refused hall or plan
fails its spec), so `make bench` names it instead of printing nothing for it.

    .venv/bin/python scripts/bench_editor.py [hall|orbit ...]
"""

from __future__ import annotations

import os
import subprocess
import sys

import stack

REDIS_DB = 11  # (benchmarks run one at a time; the test suites use 2-9, bench_flows 10)
SPECS = {"hall": "hall.bench.ts", "orbit": "orbit.bench.ts"}


def main(argv: list[str]) -> int:
    unknown = [a for a in argv if a not in SPECS]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(SPECS)}", file=sys.stderr)
        return 2
    specs = [SPECS[a] for a in argv] or list(SPECS.values())
    name = f"loopline_bench_editor_{os.getpid()}"
    with stack.app_stack(name, redis_db=REDIS_DB) as (url, _pid):
        # One playwright run: the orbit benchmark reuses the big hall the hall benchmark built.
        cmd = ["npx", "playwright", "test", "-c", "bench/playwright.bench.config.ts", "--workers", "1", *specs]
        return subprocess.run(cmd, cwd=stack.ROOT / "e2e", env=dict(os.environ, LOOPLINE_E2E_URL=url)).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
