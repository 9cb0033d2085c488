"""Gzip for what it shrinks, not for what is compressed already.

Starlette's GZipMiddleware compresses every response. A ZIP archive is deflated member by member,
so gzip gains nothing on it, and while a ZIP streams its small first members (a README, the sites)
sit in the compressor's window: the client decodes no byte of the archive until kilobytes more are
produced, seconds later on a big plan. Responses of an already-compressed type pass as they are.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipResponder
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMPRESSED_TYPES = ("application/zip",)
"""Content types sent without gzip."""


class GZipUnlessCompressed:
    def __init__(self, app: ASGIApp, minimum_size: int = 500, compresslevel: int = 9) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.compresslevel = compresslevel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "gzip" not in Headers(scope=scope).get("Accept-Encoding", ""):
            await self.app(scope, receive, send)
            return
        gzip = GZipResponder(self.app, self.minimum_size, compresslevel=self.compresslevel)
        gzip.send = send
        passing = False

        async def choose(message: Message) -> None:
            nonlocal passing
            if message["type"] == "http.response.start":
                passing = Headers(raw=message["headers"]).get("content-type", "").startswith(COMPRESSED_TYPES)
            if passing:
                await send(message)
            else:
                await gzip.send_with_compression(message)

        with gzip.gzip_buffer, gzip.gzip_file:
            await self.app(scope, receive, choose)
