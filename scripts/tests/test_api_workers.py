"""`LOOPLINE_API_WORKERS=2` starts two processes for the API's lanes process (`make run` starts
`RUN_API_WORKERS`, one; see `stack.serve_api`): they both answer, and stopping the API stops every
one of them (nothing left holding the port or the socket for the restart)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import stack


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _descendants(pid: int) -> list[int]:
    return [d for c in _children(pid) for d in (c, *_descendants(c))]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


WORKERS = 2


def test_several_api_processes_serve_one_port_and_stop_together() -> None:
    assert stack.RUN_API_WORKERS == 1, "make run starts one API process (see stack.RUN_API_WORKERS)"
    state = stack.services()
    env = stack.service_env(state, db="loopline_api_workers_unused", redis_db=8)
    env["LOOPLINE_API_WORKERS"] = str(WORKERS)
    port = stack.free_port()
    api = stack.start_api(env, port)
    try:
        # Liveness touches nothing (no database is needed for it).
        assert stack.wait_http(f"http://127.0.0.1:{port}/api/health/live", timeout_s=60)
        # uvicorn's worker processes: started by multiprocessing's spawn, under the lanes process.
        serving: list[int] = []
        deadline = time.monotonic() + 30
        while len(serving) < WORKERS and time.monotonic() < deadline:
            time.sleep(0.2)
            serving = [c for c in _descendants(api.pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
        assert len(serving) == WORKERS
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            assert all(client.get("/api/health/live").status_code == 200 for _ in range(10))
            # Relayed to the lanes processes, which answer once their app is loaded (503 until then;
            # no database is needed to refuse a stranger).
            relayed = "/api/v1/catalog/server-models"
            while client.get(relayed).status_code == 503 and time.monotonic() < deadline + 30:
                time.sleep(0.2)
            assert all(client.get(relayed).status_code == 401 for _ in range(10))
    finally:
        stack.stop_processes([api])
    assert not _alive(api.pid)
    assert [pid for pid in serving if _alive(pid)] == []
