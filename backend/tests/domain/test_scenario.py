"""Scenario export: the engine's `network` comes from the same plan as the cables."""

from __future__ import annotations

from _wiring_helpers import plan

from loopline.domain.scenario import build_scenario, network_from_plan
from loopline.domain.wiring import Pattern


def test_network_nodes_and_links_mirror_the_plan() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=8)
    net = network_from_plan(p)
    nodes = {n["id"]: n for n in net["nodes"]}
    assert len(nodes) == len(p.devices) == 64 + 16 + 4 + 4
    s = nodes["H1.R01.K01.L1.S01"]
    assert s == {
        "id": "H1.R01.K01.L1.S01", "role": "server", "layer": 0, "cluster": 0,
        "rack": "H1.R01.K01", "logical_rack": "H1.R01.K01.L1",
    }  # fmt: skip
    # R01.K04.L2 is position 0 of loop 0 (left-most top-most seen from the cold aisle)
    t = nodes["H1.R01.K04.L2.TOR1"]
    assert (t["role"], t["layer"], t["cluster"], t["loop"], t["loop_position"]) == ("tor", 1, 0, 0, 0)
    assert nodes["H1.C0.AGG1"]["role"] == "agg" and nodes["H1.C0.AGG1"]["layer"] == 2
    assert nodes["H1.CORE1"]["layer"] == 3 and nodes["H1.CORE1"]["cluster"] is None
    assert len(net["links"]) == len(p.cables)
    for link, c in zip(net["links"], p.cables, strict=True):
        assert link["id"] == c.cable_id
        assert link["a"] in nodes and link["b"] in nodes
        assert link["gbps"] == c.gbps
    # cables come ToR by ToR in loop order: first the ToR at position 0 (K04.L2) and its own
    # bottom server (U6, 244 mm; ToR U10, 422 mm): 500 ns hop + 5 ns/m * 0.178 m -> 500 ns
    first = net["links"][0]
    assert (first["a"], first["b"], first["gbps"], first["latency_ns"]) == (
        "H1.R01.K04.L2.S01", "H1.R01.K04.L2.TOR1", 25.0, 500,
    )  # fmt: skip
    # the back edge: K04.L2.S04 (U9, 378) -> K01.L1 ToR (U5, 200), 5556 mm -> 500 + 27 = 527 ns
    back = next(x for x in net["links"] if (x["a"], x["b"]) == ("H1.R01.K04.L2.S04", "H1.R01.K01.L1.TOR1"))
    assert back["latency_ns"] == 527


def test_default_scenario_sections() -> None:
    p = plan(Pattern.SINGLE_HOMED, ports=1)
    sc = build_scenario(p)
    assert sc["schema_version"] == 1
    assert sc["routing"] == {"type": "ecmp"}
    assert sc["engine"] == {"mode": "flow", "seed": 1, "failures": []}
    wl = sc["workload"]
    assert wl["type"] == "shuffle" and wl["bytes_per_pair"] == 15_000_000
    # the servers of the first two logical racks, r = 4 each
    assert wl["servers"] == [f"H1.R01.K01.L{j}.S0{s}" for j in (1, 2) for s in (1, 2, 3, 4)]
    tor = next(n for n in sc["network"]["nodes"] if n["role"] == "tor")
    assert tor["loop"] is None and tor["loop_position"] is None
