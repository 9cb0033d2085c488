"""The engine's result with its per-flow records taken out, read in chunks.

A million flows are ~140 MB of JSON; parsed at once into Python objects they take over 1 GB. So the
records array is cut out of the raw bytes and parsed a few MB at a time, while the rest of the
result (the summary the job row keeps) is parsed on its own. Cutting is safe without a tokenizer:
inside a JSON string a quote is always escaped, so the byte sequences `"flow_records":[` and
`},{"index":` can only be the field's key and the boundary between two records. Anything that does
not check out (the record count against `flows.total`, a chunk that does not parse) falls back to
parsing the whole document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

KEY = b'"flow_records":['
BOUNDARY = b'},{"index":'
CHUNK_BYTES = 4 * 1024 * 1024

Records = Iterator[list[dict[str, Any]]]


def split_result(raw: bytes, chunk_bytes: int = CHUNK_BYTES) -> tuple[dict[str, Any], Records | None]:
    """The result without `flow_records`, and the records in chunks (None when it has none)."""
    at = raw.find(KEY)
    if at < 0:
        return dict(orjson.loads(raw)), None
    begin = at + len(KEY)
    # the array's end: the fields after it (run_info: numbers and the engine's version) hold no ']'
    end = raw.rfind(b"]")
    head, tail = raw[:at].rstrip(), raw[end + 1 :].lstrip()
    if head.endswith(b","):
        head = head[:-1]
    elif tail.startswith(b","):
        tail = tail[1:]
    try:
        summary = dict(orjson.loads(head + tail))
    except orjson.JSONDecodeError:
        return _whole(raw)
    if begin == end:
        return summary, iter([])
    total = (summary.get("flows") or {}).get("total")
    if not isinstance(total, int) or raw.count(BOUNDARY, begin, end) != total - 1:
        return _whole(raw)
    return summary, _chunks(raw, begin, end, chunk_bytes)


def _chunks(raw: bytes, begin: int, end: int, chunk_bytes: int) -> Records:
    at = begin
    while at < end:
        cut = raw.find(BOUNDARY, min(at + chunk_bytes, end), end)
        stop = end if cut < 0 else cut + 1
        yield list(orjson.loads(b"[" + raw[at:stop] + b"]"))
        at = stop + 1


def _whole(raw: bytes) -> tuple[dict[str, Any], Records | None]:
    result = dict(orjson.loads(raw))
    records = result.pop("flow_records", None)
    return result, (None if records is None else iter([records]))
