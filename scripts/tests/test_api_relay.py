"""The API runs as two processes (`loopline.api.serve`, `backend/loopline/api/relay.py`): the front
answers health and the cheap lane itself and relays the rest to the lanes process over a Unix
socket. Against a real stack: the cheap lane answers while the lanes process cannot; what is
relayed arrives whole, with its body, once-only security headers and the caller's real address
and scheme (a client's own forwarding headers are not believed); and the pair lives and dies
together, so a supervisor restarts both."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import stack

DEMO = {"email": "demo@loopline.local", "password": "loopline-demo"}
REGISTRATIONS = "loopline:registrations:address"
"""The registration throttle's per-address keys (`services/login_throttle.py`)."""


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _lanes_pid(launcher: int) -> int:
    (pid,) = [c for c in _children(launcher) if b"--uds" in Path(f"/proc/{c}/cmdline").read_bytes()]
    return pid


@pytest.fixture(scope="module")
def api() -> Iterator[tuple[str, int, int]]:
    """(base URL, launcher pid, Redis database of the stack's broker)."""
    env = {"LOOPLINE_ENV": "test"}
    with stack.app_stack(f"loopline_relay_{os.getpid()}", redis_db=10, env_extra=env) as (base, launcher):
        broker = httpx.get(f"{base}/api/health/ready").json()  # the stack is up; find its broker db
        assert broker["parts"]["lanes"]["ok"] is True, broker
        yield base, launcher, _broker_db(launcher)


def _broker_db(launcher: int) -> int:
    environ = Path(f"/proc/{launcher}/environ").read_bytes().split(b"\0")
    (url,) = [v.split(b"=", 1)[1] for v in environ if v.startswith(b"LOOPLINE_BROKER_URL=")]
    return int(url.rsplit(b"/", 1)[1])


def _redis(db: int, *args: str) -> str:
    port = str(stack.services()["redis"])
    return subprocess.run(
        ["redis-cli", "-p", port, "-n", str(db), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@contextlib.contextmanager
def _logged_in(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as client:
        assert client.post("/api/v1/auth/login", json=DEMO).status_code == 200
        yield client


def test_the_cheap_lane_answers_while_the_lanes_process_cannot(api: tuple[str, int, int]) -> None:
    base, launcher, _ = api
    lanes = _lanes_pid(launcher)
    with _logged_in(base) as client:
        os.kill(lanes, signal.SIGSTOP)
        try:
            me = client.get("/api/v1/auth/me", timeout=10)
            assert me.status_code == 200 and me.json()["user"]["email"] == DEMO["email"]
            assert client.get("/api/v1/projects", timeout=10).status_code == 200
            with pytest.raises(httpx.ReadTimeout):
                client.get("/api/v1/catalog/server-models", timeout=1.5)  # relayed: waits for the lanes
            time.sleep(2.1)  # past the readiness answer's reuse
            ready = client.get("/api/health/ready", timeout=10)
            assert ready.status_code == 503 and ready.json()["down"] == ["lanes"], ready.text
        finally:
            os.kill(lanes, signal.SIGCONT)
        assert client.get("/api/v1/catalog/server-models").status_code == 200


def test_relayed_answers_arrive_whole_with_their_headers_once(api: tuple[str, int, int]) -> None:
    base, _, _ = api
    with _logged_in(base) as client:
        catalog = client.get("/api/v1/catalog/server-models")
        assert catalog.status_code == 200 and len(catalog.json()["items"]) > 0
        assert catalog.headers.get_list("x-content-type-options") == ["nosniff"]
        # A body of a known length, and one sent in chunks: both reach the handler whole.
        body = {"name": "Relay project", "description": "x" * 1900}
        created = client.post("/api/v1/projects", json=body)
        assert created.status_code == 201, created.text
        assert created.json()["description"] == body["description"]
        chunks = iter(
            [
                json.dumps({"name": "Relay project 2"}).encode()[:10],
                json.dumps({"name": "Relay project 2"}).encode()[10:],
            ]
        )
        chunked = client.post("/api/v1/projects", content=chunks, headers={"content-type": "application/json"})
        assert chunked.status_code == 201 and chunked.json()["name"] == "Relay project 2", chunked.text
        # An error from the lanes process is its own, headers included, once.
        missing = client.get("/api/v1/projects/999999/halls")
        assert missing.status_code == 404 and missing.json()["detail"][0]["field"]
        assert missing.headers.get_list("x-frame-options") == ["DENY"]


def test_the_callers_own_forwarding_headers_are_not_believed(api: tuple[str, int, int]) -> None:
    base, _, redis_db = api
    spoofed = "203.0.113.9"
    with httpx.Client(base_url=base, timeout=30) as client:
        client.post(
            "/api/v1/auth/register",
            json={"email": "relay-test@example.com", "password": "a long relay test passphrase"},
            headers={"x-forwarded-for": spoofed},
        )
        # Counted for the address the front saw (loopback), not the one the caller claimed.
        assert _redis(redis_db, "EXISTS", f"{REGISTRATIONS}:127.0.0.1") == "1"
        assert _redis(redis_db, "EXISTS", f"{REGISTRATIONS}:{spoofed}") == "0"
        # A write from an https page to this http site is cross-site, whatever the caller claims.
        with _logged_in(base) as session:
            port = base.rsplit(":", 1)[1]
            refused = session.post(
                "/api/v1/projects",
                json={"name": "x"},
                headers={"origin": f"https://127.0.0.1:{port}", "x-forwarded-proto": "https"},
            )
            assert refused.status_code == 403, refused.text
            assert refused.json()["detail"][0]["field"] == "Origin"
            same_site = session.post("/api/v1/projects", json={"name": "same site"}, headers={"origin": base})
            assert same_site.status_code == 201


def test_the_pair_ends_together_when_the_lanes_process_dies() -> None:
    state = stack.services()
    env = stack.service_env(state, db="loopline_relay_unused", redis_db=8)
    port = stack.free_port()
    launcher = stack.start_api(env, port)
    try:
        assert stack.wait_http(f"http://127.0.0.1:{port}/api/health/live", timeout_s=60)
        lanes = _lanes_pid(launcher.pid)
        args = Path(f"/proc/{lanes}/cmdline").read_bytes().split(b"\0")
        socket_path = Path(args[args.index(b"--uds") + 1].decode())
        deadline = time.monotonic() + 60
        while not socket_path.exists() and time.monotonic() < deadline:  # bound once its app is loaded
            time.sleep(0.2)
        assert socket_path.exists()
        front = [c for c in _children(launcher.pid) if c != lanes]
        os.kill(lanes, signal.SIGKILL)
        # The launcher stops the front and ends as the lanes process did, for its supervisor to
        # restart the pair; the socket's private directory goes with them.
        assert launcher.wait(timeout=20) == 128 + signal.SIGKILL
        assert all(not stack.pid_alive(pid) for pid in front)
        assert stack.port_is_free(port)
        assert not socket_path.parent.exists()
    finally:
        stack.stop_processes([launcher])
