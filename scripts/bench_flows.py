#!/usr/bin/env python3
"""The browser drawing a result with 100,000 flows (issue 16): a stack of its own (fresh database,
API, a real worker), then `e2e/bench/flows.bench.ts` in Chromium, which prints `BENCH_FLOWS {...}`:
the median time from opening the result view to the flow-completion CDF (all 100,000 points) and
the per-flow table drawn, the JS heap peak, and where the time went. Needs the built frontend
(`make frontend`) and the e2e packages (`make e2e-deps`).
"""

from __future__ import annotations

import os
import subprocess
import sys

import stack

REDIS_DB = 10  # (benchmarks run one at a time; the test suites use 2-9)


def main() -> int:
    name = f"loopline_bench_flows_{os.getpid()}"
    with stack.app_stack(name, redis_db=REDIS_DB) as (url, _pid):
        cmd = ["npx", "playwright", "test", "-c", "bench/playwright.bench.config.ts", "flows.bench.ts"]
        return subprocess.run(cmd, cwd=stack.ROOT / "e2e", env=dict(os.environ, LOOPLINE_E2E_URL=url)).returncode


if __name__ == "__main__":
    sys.exit(main())
