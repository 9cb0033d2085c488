#!/usr/bin/env python3
"""A throwaway stack for working on the editor: fresh database (migrated + seeded), API + worker.

    .venv/bin/python e2e/devstack.py [--db NAME] [--port N] [--redis-db N]

Prints `URL <url>` when healthy and keeps running until interrupted (Ctrl-C stops what it started
and drops the database). It is what `scripts/test_all.py --only e2e` does, without running Playwright.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import stack  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=f"loopline_editor_{os.getpid()}")
    parser.add_argument("--port", type=int, default=0)
    # Stacks that share a Redis database share a broker: their workers take each other's jobs.
    parser.add_argument("--redis-db", type=int, default=6, help="broker database (results use the next one)")
    args = parser.parse_args()
    state = stack.services()
    stack.psql(state["postgres"], f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
    stack.ensure_database(state["postgres"], args.db)
    env = stack.service_env(state, db=args.db, redis_db=args.redis_db)
    env["LOOPLINE_ENV"] = "test"
    venv = ROOT / ".venv" / "bin"
    subprocess.run([str(venv / "alembic"), "upgrade", "head"], env=env, cwd=ROOT, check=True)
    subprocess.run([str(venv / "python"), "-m", "loopline.seed"], env=env, cwd=ROOT, check=True)
    port = args.port or stack.free_port()
    procs = stack.start_app_processes(env, port)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        url = f"http://127.0.0.1:{port}"
        if not stack.wait_http(f"{url}/api/health", timeout_s=90):
            print("the stack did not come up", file=sys.stderr)
            return 1
        print(f"URL {url}", flush=True)
        while not stopping:
            time.sleep(0.5)
    finally:
        stack.stop_processes(procs)
        stack.psql(state["postgres"], f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
