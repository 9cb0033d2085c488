"""Tests of the htsim comparison tooling: exporter text, htsim arguments, FCT statistics, the
engine-generator port (checked against the compiled engine's own flow records) and, when HTSIM is
set, the driver's hand-derived completion times.

Run: .venv/bin/python -m pytest sim-engine/compare
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import compare
import pytest


def fattree4(workload: dict[str, Any], latency_ns: int = 1000) -> dict[str, Any]:
    """A hand-built k=4 FatTree named like `loopline-sim gen fattree` (16 servers, 10G links)."""
    nodes: list[dict[str, str]] = [{"id": f"C{c}", "role": "core"} for c in range(4)]
    links: list[dict[str, Any]] = []

    def link(a: str, b: str) -> None:
        links.append({"a": a, "b": b, "gbps": 10.0, "latency_ns": latency_ns})

    for p in range(4):
        for a in range(2):
            nodes.append({"id": f"P{p}.A{a}", "role": "agg"})
            link(f"P{p}.A{a}", f"C{2 * a}")
            link(f"P{p}.A{a}", f"C{2 * a + 1}")
        for e in range(2):
            nodes.append({"id": f"P{p}.E{e}", "role": "tor"})
            link(f"P{p}.E{e}", f"P{p}.A0")
            link(f"P{p}.E{e}", f"P{p}.A1")
            for s in range(2):
                nodes.append({"id": f"P{p}.E{e}.S{s}", "role": "server"})
                link(f"P{p}.E{e}.S{s}", f"P{p}.E{e}")
    return {
        "schema_version": 1,
        "network": {"nodes": nodes, "links": links},
        "routing": {"type": "ecmp"},
        "workload": workload,
        "engine": {"seed": 1},
    }


def test_connection_matrix_of_a_hand_made_shuffle() -> None:
    # P0.E0.S1 is htsim host 0*4 + 0*2 + 1 = 1, P1.E1.S0 is 4 + 2 + 0 = 6, P3.E1.S1 is 12 + 2 + 1 = 15;
    # a shuffle sends every ordered pair, in the engine's order, starting at 1 ms = 10^9 ps.
    sc = fattree4(
        {"type": "shuffle", "servers": ["P0.E0.S1", "P1.E1.S0", "P3.E1.S1"], "bytes_per_pair": 3000, "start_s": 0.001}
    )
    text = compare.connection_matrix(compare.generate_flows(sc), compare.fattree_topology(sc))
    assert text.splitlines() == [
        "Nodes 16",
        "Connections 6",
        "1->6 id 1 start 1000000000 size 3000",
        "1->15 id 2 start 1000000000 size 3000",
        "6->1 id 3 start 1000000000 size 3000",
        "6->15 id 4 start 1000000000 size 3000",
        "15->1 id 5 start 1000000000 size 3000",
        "15->6 id 6 start 1000000000 size 3000",
    ]


def test_htsim_arguments_follow_the_packet_settings() -> None:
    topo = compare.fattree_topology(fattree4({"type": "permutation", "bytes": 1}, latency_ns=2500))
    packet = {**compare.PACKET_SETTINGS, "header_bytes": 40, "buffer_bytes": 300_000, "initial_window_packets": 4}
    assert compare.htsim_args(topo, packet, seed=7) == [
        "-nodes", "16", "-linkspeed", "10000", "-q", "200", "-mtu", "1500", "-payload", "1460",
        "-hop_latency_ns", "2500", "-cwnd", "3", "-ssthresh", "100", "-rto_scan_ms", "10.0", "-seed", "7",
    ]  # fmt: skip
    # without the handshake htsim's window is the first flight itself
    assert compare.htsim_cwnd({**packet, "handshake": False}) == 4


def test_a_network_that_is_not_a_gen_fattree_is_refused() -> None:
    sc = fattree4({"type": "permutation", "bytes": 1})
    sc["network"]["nodes"][-1]["id"] = "rack9-server"
    with pytest.raises(SystemExit, match="not named like"):
        compare.fattree_topology(sc)
    sc = fattree4({"type": "permutation", "bytes": 1})
    sc["network"]["links"][0]["gbps"] = 40.0
    with pytest.raises(SystemExit, match="one link speed"):
        compare.fattree_topology(sc)


def test_permutation_is_a_derangement_of_all_servers() -> None:
    sc = fattree4({"type": "permutation", "bytes": 2_000_000})
    flows = compare.generate_flows(sc)
    servers = compare.servers_of(sc)
    assert sorted(f.src for f in flows) == sorted(servers)
    assert sorted(f.dst for f in flows) == sorted(servers)
    assert all(f.src != f.dst and f.bytes == 2_000_000 and f.start_ps == 0 for f in flows)


def test_fct_statistics_use_the_engines_nearest_ranks() -> None:
    # FCTs 4, 1, 3, 2 us (one flow unfinished): mean 2.5 us, p50 = 2nd smallest of 4 = 2 us,
    # p99 = ceil(3.96) = 4th = 4 us; job completion unknown while a flow is unfinished.
    text = "\n".join(
        [
            "0 1 2 3000 2 0 4000000",
            "1 2 1 3000 2 1000000 2000000",
            "2 3 1 3000 2 0 3000000",
            "3 4 1 3000 2 5000000 7000000",
            "4 5 1 3000 2 0 -1",
            "LOOPLINE events 10",
        ]
    )
    count, finished, mean, p50, p99, mx, job = compare.parse_fct(text)
    assert (count, finished) == (5, 4)
    assert mean == pytest.approx(2.5e-6, abs=1e-18)
    assert (p50, p99, mx, job) == (2e-6, 4e-6, 4e-6, None)
    assert compare.parse_fct("0 1 2 3000 2 0 4000000\n1 2 1 3000 2 1000000 2000000\n")[6] == 4e-6


def engine_or_skip() -> Path:
    binary = compare.engine_binary("flow")
    if not binary.exists() or not compare.supports(binary, "flow_records"):
        pytest.skip(f"needs the compiled engine with engine.flow_records at {binary} (cargo build --release)")
    return binary


@pytest.mark.parametrize(
    "workload",
    [
        {"type": "poisson", "cdf": "websearch", "load": 0.4, "flows": 300},
        {"type": "permutation", "bytes": 2_000_000},
        {"type": "random", "bytes": 5000, "flows": 50, "rate_per_s": 1e5},
        {
            "type": "many_to_many",
            "bytes": 7000,
            "senders": ["P0.E0.S0", "P1.E1.S1"],
            "receivers": ["P2.E0.S0", "P0.E0.S0"],
        },
    ],
)
def test_exported_flows_are_the_engines_flows(workload: dict[str, Any], tmp_path: Path) -> None:
    binary = engine_or_skip()
    sc = fattree4(workload)
    sc["engine"] = {"seed": 3, "flow_records": True, "link_series": False}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(sc))
    result = json.loads(subprocess.run([str(binary), "run", str(path)], check=True, capture_output=True).stdout)
    flows = compare.generate_flows(sc)
    assert len(flows) == len(result["flow_records"]) > 0
    assert compare.check_flows(flows, result) == []
    # the ported ECMP walk puts every byte on the links the engine used
    paths = compare.engine_ecmp_paths(sc, flows, compare.fattree_topology(sc))
    assert compare.check_paths(flows, paths, result) == []
    assert all(0 <= i < 4 for i in paths.index)  # k=4: (k/2)^2 paths between pods
    # and the checks do catch a different flow or path
    moved = compare.EnginePaths(paths.index, [*paths.links[:-1], [("P0.E0.S0", "P0.E0")]])
    assert compare.check_paths(flows, moved, result) != []
    flows[-1] = compare.Flow(flows[-1].src, flows[-1].dst, flows[-1].bytes + 1, flows[-1].start_ps)
    assert len(compare.check_flows(flows, result)) == 1


def test_engine_path_numbering_follows_htsim() -> None:
    # k=4: htsim lists pod paths agg by agg, then the agg's cores: engine (agg a, j-th core of a)
    # is htsim path a*2 + j; within a pod (other ToR) it is the agg a; under one ToR, path 0.
    sc = fattree4({"type": "permutation", "bytes": 1})
    topo = compare.fattree_topology(sc)
    flows = [
        compare.Flow("P0.E0.S0", "P2.E1.S1", 1, 0),
        compare.Flow("P0.E0.S0", "P0.E1.S0", 1, 0),
        compare.Flow("P1.E1.S0", "P1.E1.S1", 1, 0),
    ]
    paths = compare.engine_ecmp_paths(sc, flows, topo)
    h = compare.flow_hash(1, 0)
    a = compare.splitmix64(h ^ 0x9E3779B9) % 2
    j = compare.splitmix64(h ^ (2 * 0x9E3779B9)) % 2
    assert paths.index[0] == a * 2 + j
    assert paths.links[0] == [
        ("P0.E0.S0", "P0.E0"), ("P0.E0", f"P0.A{a}"), (f"P0.A{a}", f"C{2 * a + j}"),
        (f"C{2 * a + j}", f"P2.A{a}"), (f"P2.A{a}", "P2.E1"), ("P2.E1", "P2.E1.S1"),
    ]  # fmt: skip
    a1 = compare.splitmix64(compare.flow_hash(1, 1) ^ 0x9E3779B9) % 2
    assert paths.index[1:] == [a1, 0]
    assert paths.links[2] == [("P1.E1.S0", "P1.E1"), ("P1.E1", "P1.E1.S1")]


@pytest.mark.skipif(not os.environ.get("HTSIM"), reason="HTSIM (htsim's built sim directory) is not set")
def test_htsim_driver_gives_hand_derived_completion_times(tmp_path: Path) -> None:
    # 10G, 1 us per link, store and forward: 1500 B = 1.2 us, 40 B = 32 ns, 1 B SYN = 0.8 ns per hop.
    # 1->2 (same pod, 4 links), 1 packet, start 1 us: SYN 4.0032 + SYN-ACK 4.128 + data 8.8 + ACK 4.128.
    # 0->15 (6 links), 10 packets = initial window: 6.0048 + 6.192 + (13.2 + 9 * 1.2) + 6.192 us.
    binary = compare.build_htsim(Path(os.environ["HTSIM"]))
    (tmp_path / "t.cm").write_text(
        "Nodes 16\nConnections 3\n0->15 id 1 start 0 size 15000\n1->2 id 2 start 1000000 size 1500\n"
        "4->8 id 3 start 0 size 16500\n"
        # a start a 32-bit float cannot hold (htsim's own reader would move it to ...792)
        "1->2 id 4 start 123456789 size 1500\n"
    )
    topo = compare.fattree_topology(fattree4({"type": "permutation", "bytes": 1}))
    args = compare.htsim_args(topo, compare.PACKET_SETTINGS, seed=1)
    out = subprocess.run(
        [str(binary), "-tm", str(tmp_path / "t.cm"), "-fct", str(tmp_path / "t.fct"), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert (tmp_path / "t.fct").read_text().splitlines() == [
        "0 0 15 15000 10 0 42388800",
        "1 1 2 1500 1 1000000 22059200",
        # (another pod pair) 11 packets in ONE round trip with htsim's -cwnd 10 (the SYN-ACK grows the window by
        # one MSS): 6.0048 + 6.192 + (6 x 1.2 + 6 + 10 x 1.2) + 6.192 = 43.5888 us
        "2 4 8 16500 11 0 43588800",
        "3 1 2 1500 1 123456789 144515989",
    ]
    assert "LOOPLINE finished 4" in out
    assert "LOOPLINE switch_drops 0" in out
    assert "LOOPLINE timeouts 0" in out
