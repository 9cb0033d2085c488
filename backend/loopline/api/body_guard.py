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
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import parse_qsl

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loopline.api.errors import error_body

# Only bodies with one of these escapes can hold a bad text: the full walk runs only for them.
_SUSPECT = re.compile(rb"\\u0000|\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
ACCEPTED_BODIES = frozenset({"application/json", "multipart/form-data"})
"""A body of any other type (or of none, which a cross-site form can send) is refused with 415."""


def bad_text(value: str) -> str | None:
    """Why `value` cannot be stored, or None."""
    if "\x00" in value:
        return "text may not contain the NUL character (\\u0000)"
    if _SURROGATE.search(value):
        return "text is not valid Unicode: it has a lone surrogate (\\ud800-\\udfff)"
    return None


def find_bad_text(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path, reason) of every string, key included, that cannot be stored."""
    if isinstance(value, str):
        reason = bad_text(value)
        if reason:
            yield path, reason
    elif isinstance(value, dict):
        for key, item in value.items():
            reason = bad_text(key)
            if reason:
                yield (*path, key), f"field name: {reason}"
            yield from find_bad_text(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from find_bad_text(item, (*path, i))


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
            reason = bad_text(value)
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
