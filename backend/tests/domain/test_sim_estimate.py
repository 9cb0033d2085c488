"""The run-time estimate: workload size and hop counts derived by hand on small networks. The engine
reads the scenario (`loopline-sim validate --json`); the estimate multiplies its figures with the
timing constants. The figures are the ones the estimate computed in Python before the engine gave
them (the same hand-derived values)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain import sim_estimate as se
from loopline.domain.errors import DomainError
from loopline.domain.sim_estimate import Estimate, Unestimable
from loopline.services import sim_preflight
from loopline.services.sim_preflight import validate


def estimate(scenario: dict[str, Any]) -> Estimate:
    return se.estimate(validate({"schema_version": 1, **scenario}))


def two_racks(servers_per_rack: int = 2, gbps: float = 25.0) -> dict[str, Any]:
    """Two ToRs under one spine, `servers_per_rack` servers each: 2 links within a rack, 4 across."""
    nodes: list[dict[str, Any]] = [{"id": "SP", "role": "spine"}]
    links: list[dict[str, Any]] = []
    for r in ("A", "B"):
        nodes.append({"id": f"T{r}", "role": "tor"})
        links.append({"a": f"T{r}", "b": "SP", "gbps": 100.0, "latency_ns": 500})
        for i in range(servers_per_rack):
            nodes.append({"id": f"{r}{i}", "role": "server", "logical_rack": r})
            links.append({"a": f"{r}{i}", "b": f"T{r}", "gbps": gbps, "latency_ns": 500})
    return {"nodes": nodes, "links": links}


def scenario(workload: dict[str, Any], **engine: Any) -> dict[str, Any]:
    return {"schema_version": 1, "network": two_racks(), "workload": workload, "engine": engine}


def test_a_shuffle_of_two_racks_by_hand() -> None:
    # 4 servers: 12 ordered pairs, 4 within a rack (2 links), 8 across (4 links); 15,000 bytes is
    # exactly 10 packets of 1,500 bytes of payload (the engine's default header is 0, as htsim)
    est = estimate(scenario({"type": "shuffle", "bytes_per_pair": 15_000}))
    w = est.workload
    assert (w.flows, w.bytes, w.packets, w.packet_hops) == (12, 12 * 15_000, 120, 10 * (4 * 2 + 8 * 4))
    assert w.mean_hops == pytest.approx(40 / 12)
    assert est.packet.events == 4 * 400
    assert est.packet.wall_s == pytest.approx(se.STARTUP_S + 1600 / se.PACKET_EVENTS_PER_S)
    assert est.flow.wall_s == pytest.approx(se.STARTUP_S + 12 / se.FLOW_FLOWS_PER_S)
    ports = 2 * 6  # 6 links, two directions
    assert est.flow.memory_mb == pytest.approx(se.BASE_MEMORY_MB + (300 * 12 + 2000 * ports) / 1e6)
    # the pool: 120 packets, fewer than the 12 ports x 100 packets of buffer
    assert est.packet.memory_mb == pytest.approx(se.BASE_MEMORY_MB + (400 * 12 + 2000 * ports + 64 * 120) / 1e6)


def test_one_more_byte_is_one_more_packet_per_flow_and_the_mtu_counts() -> None:
    w = estimate(scenario({"type": "shuffle", "bytes_per_pair": 15_001})).workload
    assert w.packets == 12 * 11
    # a 9000-byte MTU carries 9,000 per packet: 15,000 bytes need 2; with a 64-byte header, 8,936
    w = estimate(scenario({"type": "shuffle", "bytes_per_pair": 15_000}, packet={"mtu_bytes": 9000})).workload
    assert w.packets == 24
    w = estimate(
        scenario({"type": "shuffle", "bytes_per_pair": 17_937}, packet={"mtu_bytes": 9000, "header_bytes": 64})
    ).workload
    assert w.packets == 36


def test_many_to_many_and_named_incast_count_their_pairs() -> None:
    w = estimate(scenario({"type": "many_to_many", "senders": ["A0", "A1"], "receivers": ["B0"], "bytes": 1436,
                           "flows_per_pair": 3})).workload  # fmt: skip
    assert (w.flows, w.packets, w.mean_hops, w.packet_hops) == (6, 6, 4, 24)
    w = estimate(scenario({"type": "incast", "receiver": "A0", "senders": ["A1", "B0", "B1"],
                           "response_bytes": 2872, "queries": 5})).workload  # fmt: skip
    # 5 queries x 3 responses of 2 packets; hops 2 (A1) and 4 (B0, B1): mean 10/3
    assert (w.flows, w.packets) == (15, 30)
    assert w.packet_hops == pytest.approx(5 * 2 * (2 + 4 + 4))


def test_poisson_uses_the_cdf_mean_and_inter_rack_only_pairs() -> None:
    w = estimate(scenario({"type": "poisson", "cdf": "websearch", "load": 0.4, "flows": 100,
                           "inter_rack_only": True})).workload  # fmt: skip
    assert w.bytes == 100 * 1_711_250 and w.mean_hops == 4
    assert w.packets == pytest.approx(100 * (1_711_250 / 1500 + 0.5))
    w = estimate(scenario({"type": "poisson", "cdf": {"points": [[0, 0], [2872, 100]]}, "load": 0.4,
                           "flows": 10})).workload  # fmt: skip
    assert w.bytes == 10 * 1436 and w.mean_hops == pytest.approx(40 / 12)


def test_memcache_requests_and_responses_cross_the_racks() -> None:
    w = estimate(scenario({"type": "memcache", "server_racks": ["A"], "requests": 10, "request_bytes": 100,
                           "response_bytes": 2872})).workload  # fmt: skip
    assert (w.flows, w.packets) == (20, 10 * 1 + 10 * 2)
    assert w.mean_hops == 4


def test_a_stop_time_caps_the_packets_at_what_the_server_links_can_send() -> None:
    full = estimate(scenario({"type": "shuffle", "bytes_per_pair": 143_600_000}))
    # 4 server links of 25 Gb/s for 1 ms: 12.5 MB, 8,333.3 packets of 1,500 bytes
    capped = estimate(scenario({"type": "shuffle", "bytes_per_pair": 143_600_000}, stop_time_s=0.001))
    most = 0.001 * 4 * 25e9 / 8 / 1500
    assert capped.workload.packet_hops == pytest.approx(full.workload.packet_hops * most / full.workload.packets)


def test_multi_homed_servers_take_their_nearest_tor() -> None:
    net = two_racks()
    net["links"].append({"a": "A0", "b": "TB", "gbps": 25.0})  # A0 also on B's ToR
    w = estimate({"network": net, "workload": {"type": "many_to_many", "senders": ["A0"], "receivers": ["B0"],
                                               "bytes": 1}}).workload  # fmt: skip
    assert w.mean_hops == 2


def test_the_engine_names_what_it_refuses() -> None:
    with pytest.raises(DomainError) as refused:
        estimate(scenario({"type": "shuffle", "servers": ["A0", "nobody"], "bytes_per_pair": 1}))
    assert refused.value.field == "scenario.workload.servers[1]"


def test_servers_with_no_path_over_switches_are_unestimable() -> None:
    net = two_racks()
    net["links"] = [link for link in net["links"] if link["b"] != "SP"]  # the ToRs lose the spine
    with pytest.raises(Unestimable, match="no path over switches from A0 to B0"):
        estimate({"network": net, "workload": {"type": "many_to_many", "senders": ["A0"], "receivers": ["B0"],
                                               "bytes": 1}})  # fmt: skip


def test_a_profile_sets_the_packet_size() -> None:
    # the linux profile's 1,538-byte packets carry 1,448 bytes (90 of header): 15,000 bytes are 11
    # packets, not the planning MTU's 10 (the Python copy read 1,500 and 0 whatever the profile)
    w = estimate(scenario({"type": "shuffle", "bytes_per_pair": 15_000}, mode="packet",
                          packet={"profile": "linux"})).workload  # fmt: skip
    assert w.packets == 12 * 11


@settings(max_examples=25, deadline=None)  # (an engine call each)
@given(per_rack=st.integers(1, 6), nbytes=st.integers(1, 10**7))
def test_packets_are_whole_per_flow_and_hops_are_2_or_4(per_rack: int, nbytes: int) -> None:
    s = {"network": two_racks(per_rack), "workload": {"type": "all_to_all", "bytes": nbytes}}
    w = estimate(s).workload
    n = 2 * per_rack
    assert w.flows == n * (n - 1)
    assert w.packets == w.flows * math.ceil(nbytes / 1500)
    within, across = 2 * per_rack * (per_rack - 1), 2 * per_rack * per_rack
    assert w.packet_hops == math.ceil(nbytes / 1500) * (2 * within + 4 * across)


def test_an_engine_that_does_not_answer_is_a_refusal_naming_the_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = tmp_path / "slow-engine"
    slow.write_text("#!/bin/sh\nsleep 5\n")
    slow.chmod(0o755)
    monkeypatch.setattr(sim_preflight, "TIMEOUT_S", 0.2)
    with pytest.raises(DomainError) as refused:
        validate(scenario({"type": "shuffle", "bytes_per_pair": 1}), binary=slow)
    assert (refused.value.field, refused.value.reason) == ("scenario", "the engine took more than 0.2 s to read it")
