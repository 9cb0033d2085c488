"""Admission control: a bounded number of API requests run at once, the rest queue in order.

A sync handler holds a worker thread and, through its request session, one database connection
from the moment it first queries until its transaction ends. Unbounded, 64 concurrent readers
took every thread while only 15 connections existed: the requests holding a connection then
waited for a free thread to commit and close, and everyone timed out with a 500 after 30 s.
Admitting at most `slots` requests (no more than the connection pool and the thread pool hold)
keeps every admitted request able to finish; the others wait here, first come first served,
without holding anything. A request that waits longer than `max_wait_s`, or arrives when
`max_queue` are already waiting, is answered 503 with `Retry-After`: shed, never a 500.

Three lanes, each with slots of its own, so that the cheap never wait behind the expensive:
- `cheap`: who am I, the project list, the token list (what every page asks first);
- `export`: file downloads (`.csv`, `.xlsx`, `.pdf`, `.zip`, `.json`, a project's export), whose
  streamed bodies read the database while the client downloads them;
- `default`: everything else.
Where the API runs as two processes (`relay.py`), the cheap lane is the front's and the other two
are the lanes process's: slots bound the work, a second interpreter keeps the cheap from waiting
for the first one's GIL.
A response that is not streamed has finished its work when it starts: its slot is handed on then,
not when a slow client has read the last byte. So has a download whose length is known when it
starts (`Content-Length`: a stored export, sent whole, reads nothing more). A client that stops
reading for `send_timeout_s` is disconnected, so a download nobody reads cannot hold its slot and
its connection for ever.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import re
from collections import deque

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loopline.api.errors import BUSY, RETRY_AFTER_S, error_body

EXEMPT_PATHS = frozenset({"/api/health/live", "/api/health/ready", "/api/health"})
"""Answered at once, never queued: liveness touches nothing, and readiness runs one check at a
time in one thread whoever asks (see `health.py`)."""

log = logging.getLogger(__name__)


class Lane(enum.Enum):
    CHEAP = "cheap"
    EXPORT = "export"
    DEFAULT = "default"


CHEAP_READS = re.compile(r"^/api/v1/(auth/me|projects|tokens)$")
DOWNLOADS = re.compile(r"^/api/v1/.+(\.(csv|xlsx|pdf|zip|json)|/export)$")


def lane_of(method: str, path: str) -> Lane:
    if method in ("GET", "HEAD"):
        if CHEAP_READS.match(path):
            return Lane.CHEAP
        if DOWNLOADS.match(path):
            return Lane.EXPORT
    return Lane.DEFAULT


class ClientStoppedReading(Exception):
    """The client read nothing of the response for the send timeout."""


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


def _whole(start: Message) -> bool:
    """Whether the response's whole body is in hand: its length is known before it is sent."""
    return any(name.lower() == b"content-length" for name, _ in start.get("headers", ()))


def _give_up(turn: asyncio.Future[bool]) -> None:
    if not turn.done():
        turn.set_result(False)


class AdmissionControl:
    """Pure ASGI middleware gating every `/api/` request through its lane's `FifoGate`. A lane
    given no slots shares the default lane's."""

    def __init__(
        self, app: ASGIApp, *, slots: int, max_queue: int, max_wait_s: float, cheap_slots: int = 0,
        export_slots: int = 0, send_timeout_s: float | None = None,
    ) -> None:  # fmt: skip
        self.app = app
        default = FifoGate(slots)
        self.gates = {
            Lane.DEFAULT: default,
            Lane.CHEAP: FifoGate(cheap_slots) if cheap_slots else default,
            Lane.EXPORT: FifoGate(export_slots) if export_slots else default,
        }
        self.max_queue = max_queue
        self.max_wait_s = max_wait_s
        self.send_timeout_s = send_timeout_s

    @property
    def gate(self) -> FifoGate:
        return self.gates[Lane.DEFAULT]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith("/api/") or path in EXEMPT_PATHS:
            await self.app(scope, receive, send)
            return
        lane = lane_of(scope.get("method", "GET"), path)
        gate = self.gates[lane]
        queue_full = not gate.open and gate.queued >= self.max_queue
        if queue_full or not await gate.enter(self.max_wait_s):
            busy = JSONResponse(error_body("server", BUSY), status_code=503, headers={"Retry-After": RETRY_AFTER_S})
            await busy(scope, receive, send)
            return
        held = True
        timeout = self.send_timeout_s

        async def admitted_send(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and (lane is not Lane.EXPORT or _whole(message)):
                # The handler's work is done (its session closed): the slot goes to the next request.
                gate.leave()
                held = False
            if timeout is None or message["type"] != "http.response.body":
                await send(message)
                return
            try:
                await asyncio.wait_for(send(message), timeout)
            except TimeoutError:
                raise ClientStoppedReading() from None

        try:
            await self.app(scope, receive, admitted_send)
        except ClientStoppedReading:
            # Returning without finishing the response makes the server close the connection.
            log.warning("%s %s: the client read nothing for %s s; disconnected", scope.get("method"), path, timeout)
        finally:
            if held:
                gate.leave()
