"""Refuses request bodies and texts the database cannot take, before any handler runs.

- A body must say it is JSON (`Content-Type: application/json`; multipart for uploads): a body
  without a type, or as `text/plain`, is what a cross-site form or `fetch` can send without
  asking first, and is refused with 415.

- A body larger than `max_bytes` is answered 413 (from its Content-Length at once, or as soon as
  a streamed body passes the limit), so a 100 MB document is never read, parsed or held.
- A JSON body that is not UTF-8 is answered 400 naming the byte (FastAPI's own answer did not
  have the error body's shape).
- Text with a NUL character, or a lone UTF-16 surrogate (``"\\ud800"``), cannot be stored in
  PostgreSQL (it failed deep in the driver with a 500): it is refused with 422 naming the field,
  in a JSON body or in the query string.
- Numbers JSON does not have, anywhere in a JSON body (free-form sections included, which go into
  `jsonb`): `NaN`, `Infinity` and a literal beyond a double (`1e309`), which Python's parser
  accepts and PostgreSQL refuses; and integers beyond 64 bits, which neither the engine nor the
  JSON encoder that reads them back takes. 422 naming the field.
- A body nested deeper than Python's parser goes is a 422 naming `body` (it raised RecursionError).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from urllib.parse import parse_qsl

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loopline.api.errors import TOO_DEEP, error_body
from loopline.domain.names import spoofing

# Only bodies with one of these can hold a bad text or number: the full walk runs only for them
# (an escape, NaN/Infinity, an exponent of three digits, a run of 19 digits).
_SUSPECT = re.compile(rb"\\u0000|\\u[dD][89a-fA-F][0-9a-fA-F]{2}|NaN|Infinity|[eE]\+?[0-9]{3}|[0-9]{19}")
INT_MIN = -(2**63)
INT_MAX = 2**64 - 1
"""Integers a JSON body may hold: signed or unsigned 64-bit (the engine's and orjson's range)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
NAME_QUERY_PARAMETERS = frozenset({"row", "rack"})
"""Query parameters that name a row or a rack: held to the name rule (no such name can hold a
control character, and one in a workbook's sheet title broke the download after it started)."""
ACCEPTED_BODIES = frozenset({"application/json", "multipart/form-data"})
"""A body of any other type (or of none, which a cross-site form can send) is refused with 415."""


def bad_text(value: str) -> str | None:
    """Why `value` cannot be stored, or None."""
    if "\x00" in value:
        return "text may not contain the NUL character (\\u0000)"
    if _SURROGATE.search(value):
        return "text is not valid Unicode: it has a lone surrogate (\\ud800-\\udfff)"
    return None


def bad_number(value: float) -> str | None:
    """Why a number of a JSON body cannot be taken, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number (JSON has no NaN or Infinity; 1e309 and beyond overflow a double)"
    if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
        return f"integers must fit in 64 bits (from {INT_MIN} to {INT_MAX})"
    return None


def find_bad_text(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path, reason) of every string, key included, that cannot be stored, and of every number
    JSON does not have, in document order. A loop, not recursion: the depth is the sender's."""
    stack: list[tuple[tuple[str | int, ...], object]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            reason = bad_text(item)
            if reason:
                yield where, reason
        elif isinstance(item, int | float):
            reason = bad_number(item)
            if reason:
                yield where, reason
        elif isinstance(item, dict):
            children: list[tuple[tuple[str | int, ...], object]] = []
            for key, child in item.items():
                reason = bad_text(key)
                if reason:
                    children.append(((*where, key), _KeyProblem(f"field name: {reason}")))
                children.append(((*where, key), child))
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(((*where, i), child) for i, child in reversed(list(enumerate(item))))
        elif isinstance(item, _KeyProblem):
            yield where, item.reason


class _KeyProblem:
    """A bad field name, met in document order by the walk."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _field(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class BodyGuard:
    """Pure ASGI middleware for `/api/` requests."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        for name, value in parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True):
            reason = bad_text(value) or (spoofing(value) if name in NAME_QUERY_PARAMETERS else None)
            if reason:
                await _answer(scope, receive, send, 422, error_body(name, reason))
                return
        headers = dict(scope.get("headers", []))
        declared = headers.get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await _answer(scope, receive, send, 413, self._too_large())
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE") and not declared:
            await self.app(scope, receive, send)
            return

        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _answer(scope, receive, send, 413, self._too_large())
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        content_type = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
        if body.strip() and content_type not in ACCEPTED_BODIES:
            reason = f"send the body as application/json (got {content_type or 'no Content-Type'})"
            await _answer(scope, receive, send, 415, error_body("Content-Type", reason))
            return

        if content_type == "application/json":
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as err:
                reason = f"the body is not UTF-8 (byte {err.start}): JSON is sent as UTF-8 text"
                await _answer(scope, receive, send, 400, error_body("body", reason))
                return
        if _SUSPECT.search(body) and content_type == "application/json":
            try:
                document = json.loads(body)
            except ValueError:
                document = None  # FastAPI answers malformed JSON itself
            except RecursionError:
                await _answer(scope, receive, send, 422, error_body("body", TOO_DEEP))
                return
            for loc, reason in find_bad_text(document):
                detail = {"loc": ["body", *loc], "field": _field(loc) or "body", "msg": reason}
                await _answer(scope, receive, send, 422, {"detail": [detail]})
                return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> dict[str, object]:
        limit_mb = self.max_bytes / 1024**2
        return error_body("body", f"the request body is larger than the {limit_mb:g} MB this API accepts")


async def _answer(scope: Scope, receive: Receive, send: Send, status: int, content: dict[str, object]) -> None:
    await JSONResponse(content, status_code=status)(scope, receive, send)
