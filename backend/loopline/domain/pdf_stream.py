"""One PDF sent as its pages are drawn: small reportlab documents joined into one, on the fly.

reportlab writes a document only once it is complete (the cross-reference table at its end needs
every object's byte offset), so one PDF of a whole hall's labels (20,000 pages) would send its
first byte after its last page, minutes later. Here the pages are drawn a few at a time, each
piece a complete reportlab document, and each piece's objects (pages, content streams, fonts) are
copied into the one output as soon as it is drawn, renumbered, with the byte offset of every object
counted as it leaves. What needs every page (the page tree, the catalog, the cross-reference table
and the trailer) is written at the end, which PDF allows: an object may be referred to before it
appears, and a reader starts from the trailer.

The pages are reportlab's own, byte for byte; only the object numbers change. Objects without a
content stream that come out identical after renumbering (the fonts and the font dictionary every
page refers to) are written once.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

HEADER = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
"""The version reportlab's pieces need (they say 1.3) and a comment of bytes above 127, which
tells a transfer program the file is binary."""
CATALOG, PAGES, INFO = 1, 2, 3
"""Written last, but numbered first: every page refers to the page tree before it exists."""

_REF = re.compile(rb"(\d+) 0 R\b")
_OBJ_HEAD = re.compile(rb"(\d+) 0 obj\s*")
_TRAILER_REF = re.compile(rb"/(Root|Info) (\d+) 0 R")
_STREAM = b"\nstream\n"
_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")


class PieceError(ValueError):
    """A piece is not a PDF as reportlab writes it (a classic cross-reference table, objects in
    order, a flat page tree)."""


@dataclass(frozen=True, slots=True)
class _Piece:
    objects: dict[int, bytes]
    """Each object's text between `N 0 obj` and `endobj`."""
    root: int
    info: int | None
    pages: int
    kids: list[int]


def _read_piece(pdf: bytes) -> _Piece:
    start = pdf.rfind(b"startxref")
    if start < 0:
        raise PieceError("no startxref")
    xref = int(pdf[start + len(b"startxref") :].split()[0])
    head = pdf[xref : xref + 64].split(b"\n")
    if head[0].strip() != b"xref":
        raise PieceError("no classic cross-reference table")
    first, count = (int(x) for x in head[1].split())
    table = pdf.index(b"\n", pdf.index(b"\n", xref) + 1) + 1
    offsets: dict[int, int] = {}
    for i in range(count):
        entry = pdf[table + 20 * i : table + 20 * i + 20]
        if entry[17:18] == b"n":
            offsets[first + i] = int(entry[:10])
    following = dict(pairwise([*sorted(offsets.values()), xref]))
    objects: dict[int, bytes] = {}
    for number, at in offsets.items():
        text = pdf[at : following[at]]
        m = _OBJ_HEAD.match(text)
        if m is None or int(m[1]) != number:
            raise PieceError(f"object {number} is not at its offset")
        body = text[m.end() :].rstrip()
        if not body.endswith(b"endobj"):
            raise PieceError(f"object {number} does not end with endobj")
        objects[number] = body[: -len(b"endobj")].rstrip(b"\r\n")
    trailer = dict((k, int(v)) for k, v in _TRAILER_REF.findall(pdf[table + 20 * count : start]))
    if b"Root" not in trailer:
        raise PieceError("no /Root in the trailer")
    root = trailer[b"Root"]
    catalog = re.search(rb"/Pages (\d+) 0 R", objects[root])
    if catalog is None:
        raise PieceError("the catalog names no page tree")
    pages = int(catalog[1])
    kids_text = re.search(rb"/Kids \[([^\]]*)\]", objects[pages])
    if kids_text is None:
        raise PieceError("the page tree has no /Kids")
    kids = [int(k) for k in _REF.findall(kids_text[1])]
    if not all(k in objects and _PAGE.search(objects[k]) for k in kids):
        raise PieceError("the page tree is not flat")
    return _Piece(objects, root, trailer.get(b"Info"), pages, kids)


def _split(body: bytes) -> tuple[bytes, bytes]:
    """(dictionary, stream data): only the dictionary holds references to renumber."""
    at = body.find(_STREAM)
    return (body, b"") if at < 0 else (body[:at], body[at:])


def _text_string(text: str) -> bytes:
    """A PDF text string of any text: UTF-16BE with its byte-order mark, in hex."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


@dataclass(slots=True)
class StreamedPdf:
    """Appends pieces (complete reportlab PDFs of whole pages) to one PDF, yielding its bytes."""

    title: str
    author: str = "Loopline"
    sent: int = 0
    offsets: array[int] = field(default_factory=lambda: array("q", [0, 0, 0, 0]))
    """Byte offset of every object by number (0 is the free list's head; 1-3 come at the end)."""
    page_ids: array[int] = field(default_factory=lambda: array("q"))
    _shared: dict[bytes, int] = field(default_factory=dict)

    def _emit(self, chunk: bytes) -> bytes:
        self.sent += len(chunk)
        return chunk

    def _object(self, number: int, body: bytes) -> bytes:
        self.offsets[number] = self.sent
        return self._emit(b"%d 0 obj\n%b\nendobj\n" % (number, body))

    def _new_number(self) -> int:
        self.offsets.append(0)
        return len(self.offsets) - 1

    def header(self) -> bytes:
        return self._emit(HEADER)

    def add(self, pdf: bytes) -> Iterator[bytes]:
        """The objects of one piece, renumbered, its pages hung under the one page tree."""
        piece = _read_piece(pdf)
        number: dict[int, int] = {piece.pages: PAGES}
        left = {n: b for n, b in piece.objects.items() if n not in (piece.root, piece.info, piece.pages)}

        def renumbered(text: bytes) -> bytes:
            try:
                return _REF.sub(lambda m: b"%d 0 R" % number[int(m[1])], text)
            except KeyError as e:
                raise PieceError(f"a reference to object {e} that is not copied") from None

        # Shared objects first, innermost first: a font, then the dictionary naming the fonts.
        found = True
        while found:
            found = False
            for n, body in list(left.items()):
                head, data = _split(body)
                if data or not all(int(r) in number for r in _REF.findall(head)):
                    continue
                text = renumbered(head)
                found = True
                del left[n]
                if text in self._shared:
                    number[n] = self._shared[text]
                else:
                    number[n] = self._shared[text] = self._new_number()
                    yield self._object(number[n], text)
        for n in left:
            number[n] = self._new_number()
        for n, body in left.items():
            head, data = _split(body)
            yield self._object(number[n], renumbered(head) + data)
        self.page_ids.extend(number[k] for k in piece.kids)

    def finish(self) -> bytes:
        """Page tree, catalog, document information, cross-reference table and trailer."""
        kids = b" ".join(b"%d 0 R" % k for k in self.page_ids)
        out = [
            self._object(PAGES, b"<< /Type /Pages /Count %d /Kids [ %b ] >>" % (len(self.page_ids), kids)),
            self._object(CATALOG, b"<< /Type /Catalog /Pages %d 0 R /PageMode /UseNone >>" % PAGES),
            self._object(
                INFO,
                b"<< /Title %b /Author %b /Producer (Loopline, pages drawn by ReportLab) >>"
                % (_text_string(self.title), _text_string(self.author)),
            ),
        ]
        xref = self.sent
        size = len(self.offsets)
        table = [b"xref\n0 %d\n0000000000 65535 f \n" % size]
        table += [b"%010d 00000 n \n" % at for at in self.offsets[1:]]
        table.append(
            b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, CATALOG, INFO, xref)
        )
        out.append(self._emit(b"".join(table)))
        return b"".join(out)


def joined_pdf(pieces: Iterable[bytes], title: str) -> Iterator[bytes]:
    """One PDF of the pages of `pieces` in order, each piece's objects sent as soon as it comes: the
    header before the first piece is asked for, so the first byte leaves at once."""
    pdf = StreamedPdf(title)
    yield pdf.header()
    for piece in pieces:
        yield b"".join(pdf.add(piece))
    yield pdf.finish()
