"""Runs the API as its two processes (see `relay.py`): the lanes process, on a Unix socket in a
directory only this user can open, and the front on `--host`/`--port`, which answers health and
the cheap lane and relays the rest there.

    python -m loopline.api.serve [--host 127.0.0.1] [--port 8765]

`LOOPLINE_API_WORKERS` (default 1) gives the lanes process more processes of its own (uvicorn's
`--workers`). When either process ends the other is stopped and this exits as the first one did,
so a supervisor (`scripts/stack.py`, Docker) restarts the pair: the front alone would answer 503
to all but the cheap reads. `LOOPLINE_API_RELAY=off` runs one process for everything, as before
the front was split off (for benchmark comparisons).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UVICORN_OPTS = ("--timeout-keep-alive", "75", "--no-proxy-headers")
"""Keep-alive longer than a queued request may wait (`LOOPLINE_API_QUEUE_TIMEOUT_S`): a client that
waited its turn must not find its connection closed under it. No proxy headers: the app decides
whose `X-Forwarded-For` to believe (`forwarded.py`); uvicorn's own rewrite believed any loopback
client."""


def serve(host: str, port: int) -> int:
    env = dict(os.environ)
    workers = int(env.get("LOOPLINE_API_WORKERS", "1"))
    uvicorn = [sys.executable, "-m", "uvicorn", "loopline.api.app:app", *UVICORN_OPTS]
    processes = ["--workers", str(workers)] if workers > 1 else []
    if env.get("LOOPLINE_API_RELAY") == "off":
        return subprocess.run([*uvicorn, "--host", host, "--port", str(port), *processes], check=False).returncode
    socket_dir = Path(tempfile.mkdtemp(prefix="loopline-api-"))  # mode 0700
    lanes_socket = socket_dir / "lanes.sock"
    procs = [
        # No access log of its own: the front logs every request, with the caller's address.
        subprocess.Popen(
            [*uvicorn, "--uds", str(lanes_socket), "--no-access-log", *processes],
            env={**env, "LOOPLINE_API_RELAYED": "1"},
        ),
        subprocess.Popen(
            [*uvicorn, "--host", host, "--port", str(port)], env={**env, "LOOPLINE_API_LANES_SOCKET": str(lanes_socket)}
        ),
    ]

    def stop(_signum: int, _frame: object) -> None:
        # SIGTERM, whatever came: uvicorn takes a second SIGINT (the terminal's and ours) as
        # "stop at once", and a signal to the process group reaches them anyway.
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while all(proc.poll() is None for proc in procs):
            time.sleep(0.2)
        ended = next(proc.returncode for proc in procs if proc.returncode is not None)
        stop(signal.SIGTERM, None)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return 128 - ended if ended < 0 else ended  # killed by a signal: as a shell says it
    finally:
        shutil.rmtree(socket_dir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    return serve(args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
