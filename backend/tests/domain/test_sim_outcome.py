"""A run whose flows did not all finish is `partial`, and says why: which servers cannot reach
each other (and the switches each side reaches), which elements were down. Checked against the
compiled engine's own stalled count."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from loopline.domain.sim_outcome import COMPLETE, PARTIAL, classify
from loopline.settings import get_settings


def split_fabric(failures: list[dict[str, Any]] | None = None, *, joined: bool = False) -> dict[str, Any]:
    """2 ToRs of 2 servers each; T1 goes up only to SP1, T2 only to SP2 (unless `joined`)."""
    nodes = [{"id": s, "role": "server", "layer": 0} for s in ("A1", "A2", "B1", "B2")]
    nodes += [{"id": t, "role": "tor", "layer": 1} for t in ("T1", "T2")]
    nodes += [{"id": s, "role": "spine", "layer": 2} for s in ("SP1", "SP2")]
    links = [{"id": f"L{s}", "a": s, "b": "T1" if s[0] == "A" else "T2", "gbps": 25} for s in ("A1", "A2", "B1", "B2")]
    links += [{"id": "U1", "a": "T1", "b": "SP1", "gbps": 100}, {"id": "U2", "a": "T2", "b": "SP2", "gbps": 100}]
    if joined:
        links.append({"id": "U3", "a": "T2", "b": "SP1", "gbps": 100})
    return {
        "schema_version": 1,
        "network": {"nodes": nodes, "links": links},
        "routing": {"type": "ecmp"},
        "workload": {"type": "shuffle", "servers": ["A1", "A2", "B1", "B2"], "bytes_per_pair": 1_000_000},
        "engine": {"mode": "flow", "seed": 1, "failures": failures or []},
    }


def run(tmp: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    (tmp / "s.json").write_text(json.dumps(scenario))
    subprocess.run(
        [str(get_settings().engine_binary), "run", str(tmp / "s.json"), "-o", str(tmp / "r.json")],
        check=True, capture_output=True,
    )  # fmt: skip
    return dict(json.loads((tmp / "r.json").read_text()))


def test_disjoint_spines_leave_the_cross_pairs_stalled_and_named(tmp_path: Path) -> None:
    sc = split_fabric()
    result = run(tmp_path, sc)
    # 12 ordered pairs; the 8 across the two ToRs have no path
    assert (result["flows"]["total"], result["flows"]["stalled"]) == (12, 8)
    o = classify(result)
    assert (o.outcome, o.stalled, o.unfinished) == (PARTIAL, 8, 0)
    assert o.reason is not None
    assert o.reason["unreachable_pairs"] == 8 == result["flows"]["stalled"]
    [g] = o.reason["unreachable_groups"]
    assert (g["servers_a"], g["via_a"], g["reaches_a"]) == (["A1", "A2"], ["T1"], ["SP1"])
    assert (g["servers_b"], g["via_b"], g["reaches_b"]) == (["B1", "B2"], ["T2"], ["SP2"])
    assert o.reason["summary"].startswith("8 of 12 flows stalled")
    assert "A1 (up to SP1) and B1 (up to SP2) share no switch" in o.reason["summary"]


def test_a_joined_fabric_is_complete(tmp_path: Path) -> None:
    sc = split_fabric(joined=True)
    o = classify(run(tmp_path, sc))
    assert (o.outcome, o.stalled, o.unfinished, o.reason) == (COMPLETE, 0, 0, None)


def test_a_link_down_for_good_names_the_link_and_the_cut_off_server(tmp_path: Path) -> None:
    sc = split_fabric([{"at_s": 0.0, "link": "LA1"}], joined=True)
    result = run(tmp_path, sc)
    o = classify(result)
    assert o.outcome == PARTIAL and o.stalled == result["flows"]["stalled"] == 6  # A1 to and from 3 others
    assert o.reason is not None
    assert o.reason["down_links"] == ["LA1"] and o.reason["servers_cut_off"] == ["A1"]
    # A1 reaches nothing; the others all reach SP1
    assert o.reason["unreachable_pairs"] == 6
    groups = o.reason["unreachable_groups"]
    assert [(g["servers_a"], g["via_a"], g["servers_b"], g["server_pairs"]) for g in groups] == [
        (["A1"], [], ["A2"], 2), (["A1"], [], ["B1", "B2"], 4),
    ]  # fmt: skip


def test_a_recovered_link_is_not_down_at_the_end(tmp_path: Path) -> None:
    sc = split_fabric([{"at_s": 0.0, "link": "LA1", "recover_at_s": 0.001}], joined=True)
    o = classify(run(tmp_path, sc))
    assert o.outcome == COMPLETE


def test_an_unnamed_link_is_named_as_the_engine_names_it(tmp_path: Path) -> None:
    """A link without an id is `a|b#i`, `i` its place in the whole link list (the engine's name,
    which a failure must use), not its count among the links of the same pair."""
    sc = split_fabric(joined=True)
    links = sc["network"]["links"]
    u3 = next(link for link in links if link["id"] == "U3")
    links.remove(u3)
    # T2's two unnamed uplinks to SP1, at places 6 and 7: the engine names them T2|SP1#6 and #7
    links += [{"a": "T2", "b": "SP1", "gbps": 100}, {"a": "T2", "b": "SP1", "gbps": 100}]
    sc["engine"]["failures"] = [{"at_s": 0.0, "link": "T2|SP1#6"}, {"at_s": 0.0, "link": "T2|SP1#7"}]
    result = run(tmp_path, sc)
    assert result["flows"]["stalled"] == 8  # both of T2's ways to SP1 down: split as before
    o = classify(result)
    assert o.reason is not None
    assert o.reason["down_links"] == ["T2|SP1#6", "T2|SP1#7"]
    assert o.reason["unreachable_pairs"] == 8 == result["flows"]["stalled"]


def test_a_link_failed_by_its_ends_is_named_and_cut(tmp_path: Path) -> None:
    """`{"a", "b"}` names the first link joining them: the engine's report calls it by its id and
    counts it down (the Python copy wrote the object as its name and kept the link up, so it found
    every pair reachable)."""
    sc = split_fabric([{"at_s": 0.0, "link": {"a": "SP1", "b": "T2"}}], joined=True)
    result = run(tmp_path, sc)
    assert result["flows"]["stalled"] == 8  # U3 down: split as the disjoint fabric
    o = classify(result)
    assert o.reason is not None
    assert o.reason["down_links"] == ["U3"]
    assert o.reason["unreachable_pairs"] == 8
    assert result["reachability"]["timeline"] == [
        {"at_s": 0.0, "recover_at_s": None, "link": "U3", "links_down": 1, "down_at_end": True}
    ]


def test_layers_left_out_are_the_roles(tmp_path: Path) -> None:
    """Nodes without `layer` take their role's (the Python copy read 0, so no server reached any
    switch and every pair was unreachable)."""
    sc = split_fabric()
    for n in sc["network"]["nodes"]:
        del n["layer"]
    o = classify(run(tmp_path, sc))
    assert o.reason is not None
    assert o.reason["unreachable_pairs"] == 8 and o.reason["servers_cut_off_count"] == 0
    [g] = o.reason["unreachable_groups"]
    assert (g["via_a"], g["reaches_a"], g["via_b"], g["reaches_b"]) == (["T1"], ["SP1"], ["T2"], ["SP2"])


def test_a_node_failure_is_in_the_timeline_and_down_at_the_end(tmp_path: Path) -> None:
    sc = split_fabric([{"at_s": 0.0, "node": "SP1"}, {"at_s": 0.0, "node": "SP2", "recover_at_s": 0.0001}])
    result = run(tmp_path, sc)
    reach = result["reachability"]
    assert reach["down_nodes"] == ["SP1"] and reach["down_links"] == []
    # SP1's one link (U1) and SP2's (U2); SP2 back after 0.1 ms
    assert [(e["node"], e["links_down"], e["down_at_end"]) for e in reach["timeline"]] == [
        ("SP1", 1, True), ("SP2", 1, False),
    ]  # fmt: skip
    o = classify(result)
    assert o.reason is not None and o.reason["summary"].startswith("8 of 12 flows stalled")
    assert "Down at the end: SP1" in o.reason["summary"]
