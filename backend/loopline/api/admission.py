"""Admission control: a bounded number of API requests run at once, the rest queue in order.

A sync handler holds a worker thread and, through its request session, one database connection
from the moment it first queries until its transaction ends. Unbounded, 64 concurrent readers
took every thread while only 15 connections existed: the requests holding a connection then
waited for a free thread to commit and close, and everyone timed out with a 500 after 30 s.
Admitting at most `slots` requests (no more than the connection pool and the thread pool hold)
keeps every admitted request able to finish; the others wait here, first come first served,
without holding anything. A request that waits longer than `max_wait_s`, or arrives when
`max_queue` are already waiting, is answered 503 with `Retry-After`: shed, never a 500.
"""

from __future__ import annotations

import asyncio
from collections import deque

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from loopline.api.errors import BUSY, RETRY_AFTER_S, error_body

EXEMPT_PATHS = frozenset({"/api/health/live", "/api/health/ready", "/api/health"})
"""Answered at once, never queued: liveness touches nothing, and readiness runs one check at a
time in one thread whoever asks (see `health.py`)."""


class FifoGate:
    """`slots` holders at a time; waiters are let in strictly in arrival order."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.queued = 0
        self._waiters: deque[asyncio.Future[bool]] = deque()

    @property
    def open(self) -> bool:
        """Whether a newcomer would be admitted without waiting."""
        return self.free > 0 and not self._waiters

    async def enter(self, max_wait_s: float) -> bool:
        """True once admitted (call `leave` afterwards); False after `max_wait_s` in the queue."""
        if self.open:
            self.free -= 1
            return True
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[bool] = loop.create_future()
        self._waiters.append(turn)
        self.queued += 1
        timer = loop.call_later(max_wait_s, _give_up, turn)
        try:
            return await turn
        except asyncio.CancelledError:
            # Given a slot at the very moment it gave up: hand the slot on.
            if turn.done() and not turn.cancelled() and turn.result():
                self.leave()
            raise
        finally:
            timer.cancel()
            self.queued -= 1

    def leave(self) -> None:
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_result(True)
                return
        self.free += 1


def _give_up(turn: asyncio.Future[bool]) -> None:
    if not turn.done():
        turn.set_result(False)


class AdmissionControl:
    """Pure ASGI middleware gating every `/api/` request through one `FifoGate`."""

    def __init__(self, app: ASGIApp, *, slots: int, max_queue: int, max_wait_s: float) -> None:
        self.app = app
        self.gate = FifoGate(slots)
        self.max_queue = max_queue
        self.max_wait_s = max_wait_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith("/api/") or path in EXEMPT_PATHS:
            await self.app(scope, receive, send)
            return
        queue_full = not self.gate.open and self.gate.queued >= self.max_queue
        if queue_full or not await self.gate.enter(self.max_wait_s):
            busy = JSONResponse(error_body("server", BUSY), status_code=503, headers={"Retry-After": RETRY_AFTER_S})
            await busy(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.gate.leave()
