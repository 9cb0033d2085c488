"""The default and export lanes in a process of their own, so that the cheap lane never waits for
an interpreter that is rendering for others.

One interpreter serving 64 layout readers on two cores holds its GIL nearly all the time: a
`/auth/me` admitted at once to its free cheap slot still waited 0.1-0.4 s for the interpreter,
once for each hop between the event loop and a worker thread. Slots cannot help with that; a
second interpreter can. So the public API process (the front) answers the cheap lane and health
itself, and relays every other `/api/` request, as it came, to the lanes process (the same app,
started with `LOOPLINE_API_RELAYED`) over a Unix socket that only this user can open. The lanes
process does the work and applies every other middleware (admission, body limit, compression,
security headers); the front only passes bytes, so its event loop stays free.

The front tells the lanes process who called (`X-Forwarded-For`) and over which scheme
(`X-Forwarded-Proto`), as resolved by its own `TrustedProxies`: a request that comes over the
socket has no peer address, and only the front can have sent it (see `forwarded.py`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket

import h11
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from loopline.api.admission import EXEMPT_PATHS, Lane, lane_of
from loopline.api.browser_security import with_security_headers
from loopline.api.errors import RETRY_AFTER_S, error_body

log = logging.getLogger(__name__)

HOP_BY_HOP = frozenset(
    {b"connection", b"keep-alive", b"proxy-authenticate", b"proxy-authorization", b"te", b"trailer",
     b"transfer-encoding", b"upgrade", b"x-forwarded-for", b"x-forwarded-proto"}
)  # fmt: skip
"""Headers that belong to one connection, not to the request (RFC 9110 7.6.1), and the forwarding
headers the front sets itself."""

LANES_DOWN = "the API process that answers this request is not answering (it restarts by itself); try again shortly"
UNRELAYABLE = "the request cannot be passed on as HTTP/1.1 (a malformed target or header)"


def lanes_live(socket_path: str) -> bool:
    """Whether the lanes process answers its liveness check (for readiness, from a thread)."""
    try:
        with socket.socket(socket.AF_UNIX) as lanes:
            lanes.settimeout(2.0)
            lanes.connect(socket_path)
            lanes.sendall(b"GET /api/health/live HTTP/1.1\r\nhost: lanes\r\nconnection: close\r\n\r\n")
            return lanes.recv(64).startswith(b"HTTP/1.1 200 ")
    except OSError:
        return False


def relayed(method: str, path: str) -> bool:
    """Whether the front hands this request to the lanes process: every `/api/` request but
    health and the cheap lane (the editor's own files and the API docs stay with the front)."""
    return path.startswith("/api/") and path not in EXEMPT_PATHS and lane_of(method, path) is not Lane.CHEAP


class _ClientGone(Exception):
    """The caller disconnected while its request body was being relayed."""


class _LanesGone(Exception):
    """The lanes process closed the connection before its answer was whole."""


READ_BYTES = 64 * 1024
MAX_HEAD_BYTES = 64 * 1024


class LaneRelay:
    """Pure ASGI middleware in the front: relays what `relayed` picks to the lanes process, one
    connection per request (a pooled client scanned its whole pool on every event: with 256
    requests in flight that alone kept the front's event loop busy)."""

    def __init__(self, app: ASGIApp, *, socket_path: str, hsts: bool, send_timeout_s: float | None) -> None:
        self.app = app
        self.socket_path = socket_path
        self.hsts = hsts
        self.send_timeout_s = send_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not relayed(scope["method"], scope["path"]):
            await self.app(scope, receive, send)
            return
        body_framing = _body_framing(scope)
        lanes = h11.Connection(our_role=h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)
        try:
            head = lanes.send(
                h11.Request(
                    method=scope["method"], target=_target(scope), headers=_forwarded_headers(scope, body_framing)
                )
            )
        except h11.LocalProtocolError:
            refused = JSONResponse(error_body("request", UNRELAYABLE), status_code=400)
            await refused(scope, receive, with_security_headers(send, scope["path"], hsts=self.hsts))
            return
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.socket_path), CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            log.warning("%s %s: the lanes process did not answer (%s)", scope["method"], scope["path"], exc)
            await self._lanes_down(scope, receive, send)
            return
        started = False
        writer.write(head or b"")
        # The body goes on in a task of its own: the lanes process may answer before reading it
        # all (a refusal), and that answer must be read while the body is still being sent.
        sending = asyncio.create_task(_relay_body(receive, lanes, writer, body_framing is not None))
        try:
            while True:
                event = lanes.next_event()
                if event is h11.NEED_DATA:
                    data = await reader.read(READ_BYTES)
                    if not data:
                        raise _LanesGone()
                    lanes.receive_data(data)
                elif isinstance(event, h11.Response):
                    headers = [(k, v) for k, v in event.headers if k not in HOP_BY_HOP]
                    await send({"type": "http.response.start", "status": event.status_code, "headers": headers})
                    started = True
                elif isinstance(event, h11.Data):
                    await self._send_body(send, bytes(event.data))
                elif isinstance(event, h11.EndOfMessage):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                elif isinstance(event, h11.ConnectionClosed):
                    raise _LanesGone()
                # h11.InformationalResponse (100 Continue): nothing to pass on.
        except (_LanesGone, OSError, h11.ProtocolError, TimeoutError) as exc:
            if sending.done() and isinstance(sending.exception(), _ClientGone):
                return  # the caller left mid-body: nobody to answer
            log.warning("%s %s: relay cut off (%s)", scope["method"], scope["path"], type(exc).__name__)
            if not started:
                await self._lanes_down(scope, receive, send)
            # Otherwise returning without finishing the response makes the server close the
            # connection: the caller sees a cut-off body, never a complete-looking wrong one.
        finally:
            if not sending.done():
                sending.cancel()
            elif not sending.cancelled():
                sending.exception()  # seen: a caller that left is not an error to log
            writer.close()

    async def _lanes_down(self, scope: Scope, receive: Receive, send: Send) -> None:
        """503 with `Retry-After` and the security headers (the lanes process, which adds them, is away)."""
        down = JSONResponse(error_body("server", LANES_DOWN), status_code=503, headers={"Retry-After": RETRY_AFTER_S})
        await down(scope, receive, with_security_headers(send, scope["path"], hsts=self.hsts))

    async def _send_body(self, send: Send, chunk: bytes) -> None:
        message = {"type": "http.response.body", "body": chunk, "more_body": True}
        if self.send_timeout_s is None:
            await send(message)
        else:
            # A caller that stops reading must not hold the relay (the lanes process's own send
            # timeout then ends its side).
            await asyncio.wait_for(send(message), self.send_timeout_s)


CONNECT_TIMEOUT_S = 5.0


def _target(scope: Scope) -> bytes:
    path: bytes = scope.get("raw_path") or scope["path"].encode()
    query: bytes = scope.get("query_string", b"")
    return path + (b"?" + query if query else b"")


CHUNKED = re.compile(rb"\bchunked\b", re.IGNORECASE)


def _body_framing(scope: Scope) -> tuple[bytes, bytes] | None:
    """How the request's body is framed to the lanes process: its own length, or chunks when it
    came chunked; None when it has no body."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return None if value.strip() == b"0" else (b"content-length", value)
        if name == b"transfer-encoding" and CHUNKED.search(value):
            return (b"transfer-encoding", b"chunked")
    return None


def _forwarded_headers(scope: Scope, body_framing: tuple[bytes, bytes] | None) -> list[tuple[bytes, bytes]]:
    headers = [(k, v) for k, v in scope["headers"] if k not in HOP_BY_HOP and k != b"content-length"]
    if body_framing:
        headers.append(body_framing)
    client = scope.get("client")
    if client:
        headers.append((b"x-forwarded-for", str(client[0]).encode("latin-1")))
    headers.append((b"x-forwarded-proto", scope.get("scheme", "http").encode("latin-1")))
    headers.append((b"connection", b"close"))
    return headers


async def _relay_body(receive: Receive, lanes: h11.Connection, writer: asyncio.StreamWriter, has_body: bool) -> None:
    """Sends the request's body and its end. A caller that leaves mid-body cuts the connection to
    the lanes process (which then sees a broken request, not a short one that looks whole); a
    lanes process that has already answered and closed just stops the sending."""
    try:
        while has_body:
            message = await receive()
            if message["type"] == "http.disconnect":
                writer.transport.abort()
                raise _ClientGone()
            chunk = message.get("body", b"")
            if chunk:
                writer.write(lanes.send(h11.Data(data=chunk)) or b"")
                await writer.drain()
            has_body = message.get("more_body", False)
        writer.write(lanes.send(h11.EndOfMessage()) or b"")
        await writer.drain()
    except (OSError, h11.ProtocolError):
        return
