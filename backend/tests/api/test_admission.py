"""Admission control: a bounded number of API requests run at once, the others queue in order
and are shed with 503 + Retry-After, never left to fail with a 500."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import Message, Receive, Scope, Send

from loopline.api.admission import AdmissionControl, FifoGate, Lane, lane_of
from loopline.api.errors import install_error_handlers


class SlowApp:
    """An inner app that records how many requests run at once and in which order they start."""

    def __init__(self, hold_s: float) -> None:
        self.hold_s = hold_s
        self.running = 0
        self.most = 0
        self.started: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        self.started.append(scope["path"])
        await asyncio.sleep(self.hold_s)
        self.running -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def _get_all(app: AdmissionControl, paths: list[str]) -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        tasks = []
        for path in paths:
            tasks.append(asyncio.create_task(client.get(path)))
            await asyncio.sleep(0.001)  # a definite arrival order
        return list(await asyncio.gather(*tasks))


def test_at_most_slots_requests_run_at_once_and_the_rest_start_in_arrival_order() -> None:
    inner = SlowApp(hold_s=0.02)
    app = AdmissionControl(inner, slots=3, max_queue=100, max_wait_s=30)
    paths = [f"/api/r{i}" for i in range(12)]
    answers = asyncio.run(_get_all(app, paths))
    assert [a.status_code for a in answers] == [200] * 12
    assert inner.most == 3
    assert inner.started == paths


def test_a_request_that_waits_too_long_is_shed_with_503_and_retry_after() -> None:
    inner = SlowApp(hold_s=0.5)
    app = AdmissionControl(inner, slots=1, max_queue=100, max_wait_s=0.1)
    first, second = asyncio.run(_get_all(app, ["/api/slow", "/api/waits"]))
    assert first.status_code == 200
    assert second.status_code == 503
    assert second.headers["retry-after"] == "1"
    assert second.json()["detail"][0]["field"] == "server"
    assert inner.started == ["/api/slow"], "a shed request never reaches the app"


def test_a_full_queue_sheds_new_requests_at_once() -> None:
    inner = SlowApp(hold_s=0.3)
    app = AdmissionControl(inner, slots=1, max_queue=2, max_wait_s=30)
    answers = asyncio.run(_get_all(app, [f"/api/r{i}" for i in range(5)]))
    assert [a.status_code for a in answers] == [200, 200, 200, 503, 503]


def test_paths_outside_the_api_and_liveness_are_never_queued() -> None:
    inner = SlowApp(hold_s=0.2)
    app = AdmissionControl(inner, slots=1, max_queue=0, max_wait_s=0.01)
    answers = asyncio.run(_get_all(app, ["/api/busy", "/assets/app.js", "/api/health/live", "/api/next"]))
    assert [a.status_code for a in answers] == [200, 200, 200, 503]


def test_the_gate_recovers_at_once_after_an_overload() -> None:
    async def scenario() -> list[bool]:
        gate = FifoGate(1)
        assert await gate.enter(1.0)
        timed_out = await gate.enter(0.01)  # the holder does not leave in time
        gate.leave()
        return [timed_out, await gate.enter(0.01), gate.free == 0]

    assert asyncio.run(scenario()) == [False, True, True]


def test_a_cancelled_waiter_gives_its_turn_to_the_next() -> None:
    async def scenario() -> bool:
        gate = FifoGate(1)
        await gate.enter(1.0)
        cancelled = asyncio.create_task(gate.enter(5.0))
        nxt = asyncio.create_task(gate.enter(5.0))
        await asyncio.sleep(0.01)
        cancelled.cancel()
        gate.leave()
        return await asyncio.wait_for(nxt, 1.0)

    assert asyncio.run(scenario()) is True


@pytest.fixture
def pool_exhausted_app() -> TestClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/api/needs-a-connection")
    def _needs_a_connection() -> None:
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached")

    return TestClient(app)


def test_no_free_connection_is_a_503_with_retry_after_not_a_500(pool_exhausted_app: TestClient) -> None:
    r = pool_exhausted_app.get("/api/needs-a-connection")
    assert r.status_code == 503
    assert r.headers["retry-after"] == "1"
    assert "busy" in r.json()["detail"][0]["msg"]


@pytest.mark.parametrize(
    ("method", "path", "lane"),
    [
        ("GET", "/api/v1/auth/me", Lane.CHEAP),
        ("GET", "/api/v1/projects", Lane.CHEAP),
        ("GET", "/api/v1/tokens", Lane.CHEAP),
        ("POST", "/api/v1/tokens", Lane.DEFAULT),  # a write
        ("POST", "/api/v1/auth/login", Lane.DEFAULT),  # an argon2 check: not cheap
        ("GET", "/api/v1/projects/7", Lane.DEFAULT),
        ("GET", "/api/v1/wiring-plans/3/exports/wiring-sheet.xlsx", Lane.EXPORT),
        ("GET", "/api/v1/wiring-plans/3/exports/netbox.zip", Lane.EXPORT),
        ("GET", "/api/v1/simulations/9/results/flows.csv", Lane.EXPORT),
        ("GET", "/api/v1/sweeps/4.json", Lane.EXPORT),
        ("GET", "/api/v1/projects/7/export", Lane.EXPORT),
        ("GET", "/api/v1/wiring-plans/3/cables", Lane.DEFAULT),
    ],
)
def test_each_request_takes_its_lane(method: str, path: str, lane: Lane) -> None:
    assert lane_of(method, path) is lane


class HeldApp:
    """Holds `/api/v1/wiring-plans/...` requests until released; answers anything else at once."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.finished: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"].startswith("/api/v1/wiring-plans"):
            await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        self.finished.append(scope["path"])


def test_a_cheap_read_does_not_wait_behind_a_full_default_lane() -> None:
    async def scenario() -> list[str]:
        inner = HeldApp()
        app = AdmissionControl(inner, slots=2, max_queue=100, max_wait_s=30, cheap_slots=1)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            slow = [asyncio.create_task(client.get(f"/api/v1/wiring-plans/{i}/cables")) for i in range(6)]
            await asyncio.sleep(0.01)  # two run, four queue
            me = await asyncio.wait_for(client.get("/api/v1/auth/me"), 1.0)
            assert me.status_code == 200
            inner.release.set()
            await asyncio.gather(*slow)
        return inner.finished

    finished = asyncio.run(scenario())
    assert finished[0] == "/api/v1/auth/me" and len(finished) == 7


def test_a_response_that_started_hands_its_slot_on_but_a_download_keeps_it() -> None:
    """The first request of each pair has sent its headers and waits to send its body (a slow
    client); the second arrives meanwhile with one slot in the lane."""

    async def second_ran_while_first_was_sending(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> bool:
        sending = asyncio.Event()
        done = asyncio.Event()
        ran: list[str] = []

        async def inner(scope: Scope, receive: Receive, send: Send) -> None:
            ran.append(scope["path"])
            await send({"type": "http.response.start", "status": 200, "headers": headers or []})
            if len(ran) == 1:
                sending.set()
                await done.wait()
            await send({"type": "http.response.body", "body": b"x"})

        app = AdmissionControl(inner, slots=1, max_queue=10, max_wait_s=0.3, export_slots=1)

        async def noop_receive() -> Message:
            return {"type": "http.request", "body": b""}

        async def discard(_message: Message) -> None:
            return None

        def call(p: str) -> asyncio.Task[None]:
            scope = {"type": "http", "method": "GET", "path": p, "headers": [], "query_string": b""}
            return asyncio.create_task(app(scope, noop_receive, discard))

        first = call(path)
        await sending.wait()
        second = call(path)
        await asyncio.sleep(0.5)  # past max_wait_s: a second that found no slot was shed (503)
        done.set()
        await asyncio.gather(first, second)
        return ran == [path, path]

    assert asyncio.run(second_ran_while_first_was_sending("/api/v1/wiring-plans/3/cables")) is True
    assert asyncio.run(second_ran_while_first_was_sending("/api/v1/wiring-plans/3/exports/pull-list.csv")) is False
    # A download sent whole (a stored export: its length known at the start) reads nothing more.
    whole = [(b"content-type", b"text/csv"), (b"content-length", b"1")]
    assert asyncio.run(second_ran_while_first_was_sending("/api/v1/wiring-plans/3/exports/pull-list.csv", whole))


def test_a_client_that_stops_reading_is_disconnected_and_frees_its_slot() -> None:
    async def scenario() -> tuple[float, int]:
        async def inner(scope: Scope, receive: Receive, send: Send) -> None:
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for _ in range(100):
                await send({"type": "http.response.body", "body": b"x" * 65536, "more_body": True})
            await send({"type": "http.response.body", "body": b""})

        app = AdmissionControl(inner, slots=1, max_queue=10, max_wait_s=1, export_slots=1, send_timeout_s=0.2)
        never_read = asyncio.Event()
        bodies = 0

        async def stuck_send(message: Message) -> None:
            nonlocal bodies
            if message["type"] == "http.response.body":
                bodies += 1
                if bodies > 3:  # the socket's buffer is full: the client stopped reading
                    await never_read.wait()

        async def noop_receive() -> Message:
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": "GET", "path": "/api/v1/wiring-plans/1/exports/labels.pdf",
                 "headers": [], "query_string": b""}  # fmt: skip
        t0 = time.monotonic()
        await asyncio.wait_for(app(scope, noop_receive, stuck_send), 5)
        return time.monotonic() - t0, app.gates[Lane.EXPORT].free

    waited, free = asyncio.run(scenario())
    assert 0.2 <= waited < 5 and free == 1
