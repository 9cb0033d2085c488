"""File downloads: streamed, the body reading the database after the route has returned, or bytes
already at hand (a stored export)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from urllib.parse import quote

from sqlalchemy.orm import Session
from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse


def streamed_download(
    session: Session, body: Iterator[bytes] | bytes, media_type: str, filename: str
) -> StreamingResponse | Response:
    """`body` as an attachment named `filename`; the session closes when the body ends or the client
    leaves. Bytes (a stored export) are sent as one body: nothing is left to read, and the event
    loop writes them while no Python runs for them."""
    disposition = _disposition(filename)
    if isinstance(body, bytes):
        return Response(body, media_type=media_type, headers={"Content-Disposition": disposition})

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
