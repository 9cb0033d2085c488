"""The worker cuts a result's per-flow records out of the raw bytes and parses them in chunks: the
same summary and the same records as parsing the whole document, whatever the node ids hold."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.settings import get_settings
from loopline_worker.flow_records import split_result

# node ids that look like the byte sequences the cut relies on
IDS = st.one_of(
    st.sampled_from(['},{"index":', '"flow_records":[', "]", "}]", "a\\b", '"', "S0"]),
    st.text(max_size=12),
)
RECORD = st.fixed_dictionaries(
    {
        "src": IDS,
        "dst": IDS,
        "bytes": st.integers(0, 2**63),
        "start_s": st.floats(0, 1e6),
        "fct_s": st.none() | st.floats(0, 1e6),
    }
)


def document(records: list[dict[str, Any]], run_info: bool, name: str) -> bytes:
    rows = [{"index": i, **r, "slowdown": None if r["fct_s"] is None else 1.0} for i, r in enumerate(records)]
    doc: dict[str, Any] = {"schema_version": 1, "name": name, "flows": {"total": len(rows)}, "flow_records": rows}
    if run_info:
        doc["run_info"] = {"engine": "loopline-sim 0.1.0", "wall_time_s": 0.5}
    return orjson.dumps(doc)


def collected(raw: bytes, chunk_bytes: int) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    summary, chunks = split_result(raw, chunk_bytes)
    return summary, None if chunks is None else [r for chunk in chunks for r in chunk]


@settings(max_examples=300, deadline=None)
@given(st.lists(RECORD, max_size=30), st.booleans(), IDS, st.integers(1, 200))
def test_chunks_give_what_the_whole_document_gives(
    records: list[dict[str, Any]], run_info: bool, name: str, chunk_bytes: int
) -> None:
    raw = document(records, run_info, name)
    whole = json.loads(raw)
    expected = whole.pop("flow_records")
    assert collected(raw, chunk_bytes) == (whole, expected)


def test_a_result_without_records_is_parsed_whole() -> None:
    raw = orjson.dumps({"flows": {"total": 2}, "name": '"flow_records":['[:-1]})
    assert collected(raw, 10) == (json.loads(raw), None)


def test_the_engines_own_output(tmp_path: Path) -> None:
    """A real run with records, in many small chunks."""
    engine = str(get_settings().engine_binary)
    scenario = json.loads(
        subprocess.run([engine, "gen", "fattree", "--k", "4", "--flows", "500"], check=True, capture_output=True).stdout
    )
    scenario["engine"]["flow_records"] = True
    (tmp_path / "s.json").write_text(json.dumps(scenario))
    subprocess.run([engine, "run", str(tmp_path / "s.json"), "-o", str(tmp_path / "r.json")], check=True)
    raw = (tmp_path / "r.json").read_bytes()
    whole = json.loads(raw)
    expected = whole.pop("flow_records")
    assert len(expected) == 500 and "run_info" in whole
    assert collected(raw, 1000) == (whole, expected)
    chunks = split_result(raw, 1000)[1]
    assert chunks is not None and len(list(chunks)) > 10  # cut, not parsed whole
