"""File downloads: streamed, the body reading the database after the route has returned, or a
stored export sent whole."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from urllib.parse import quote

from sqlalchemy.orm import Session
from starlette.background import BackgroundTask
from starlette.datastructures import Headers
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from loopline.services.export_cache import StoredExport


class StoredDownload(Response):
    """A stored export as one body: compressed as stored to a client that takes gzip (the GZip
    middleware passes a body already encoded through), unpacked for one that does not. Nothing
    reads the database or renders while it is sent."""

    def __init__(self, stored: StoredExport, media_type: str, disposition: str) -> None:
        super().__init__(b"", media_type=media_type, headers={"Content-Disposition": disposition})
        self.stored = stored

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The GZip middleware's own test of the header, so both answer a client alike.
        takes_gzip = "gzip" in Headers(scope=scope).get("Accept-Encoding", "")
        self.body = self.stored.gzipped if takes_gzip else self.stored.plain()
        self.headers["Content-Length"] = str(len(self.body))
        self.headers.add_vary_header("Accept-Encoding")
        if takes_gzip:
            self.headers["Content-Encoding"] = "gzip"
        await super().__call__(scope, receive, send)


def streamed_download(
    session: Session, body: Iterator[bytes] | StoredExport, media_type: str, filename: str
) -> StreamingResponse | StoredDownload:
    """`body` as an attachment named `filename`; the session closes when the body ends or the client
    leaves. A stored export is sent whole."""
    disposition = _disposition(filename)
    if isinstance(body, StoredExport):
        return StoredDownload(body, media_type, disposition)

    def chunks() -> Generator[bytes]:
        try:
            yield from body
        finally:
            session.close()

    stream = chunks()
    # A client that leaves mid-body: the generator is closed, which closes the session.
    return StreamingResponse(
        stream,
        media_type=media_type,
        headers={"Content-Disposition": disposition},
        background=BackgroundTask(stream.close),
    )


def _disposition(filename: str) -> str:
    # Names are any text (row names): an ASCII fallback, and the exact name in RFC 6266's UTF-8 form.
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
