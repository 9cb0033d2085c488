"""Admission control: a bounded number of API requests run at once, the others queue in order
and are shed with 503 + Retry-After, never left to fail with a 500."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import Receive, Scope, Send

from loopline.api.admission import AdmissionControl, FifoGate
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
