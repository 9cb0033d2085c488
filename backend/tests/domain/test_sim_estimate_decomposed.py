"""Decomposed mode's estimate: the engine's plan (`decompose plan`) times the timing constants, spread
over the live workers. Figures derived by hand from a plan document."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain import sim_estimate as se
from loopline.domain.sim_estimate import DecompositionPlan, decomposed


def plan(flows: int = 90_000, packets_total: float = 1_500_000.0, largest: float = 75_000.0) -> DecompositionPlan:
    return DecompositionPlan.of(
        {"flows": flows, "links_total": 96, "links_with_flows": 80, "links_simulated": 50, "links_clustered": 30,
         "links_idle": 16, "cluster_threshold": 0.05, "packets_total": packets_total, "largest_link_packets": largest}
    )  # fmt: skip


def test_the_plan_document_is_read_field_by_field() -> None:
    p = plan()
    assert (p.links_total, p.links_with_flows, p.links_simulated, p.links_clustered, p.links_idle) == (
        96,
        80,
        50,
        30,
        16,
    )
    assert (p.flows, p.cluster_threshold, p.packets_total, p.largest_link_packets) == (90_000, 0.05, 1.5e6, 75_000.0)


def test_time_per_worker_derived_by_hand() -> None:
    # planning and combining: two start-ups, 90,000 flows planned and combined; the links: 1.5 M
    # packet-hops at LINK_PACKET_HOPS_PER_S, halved over 2 workers
    e = decomposed(plan(), workers=2)
    planning = 2 * se.STARTUP_S + 90_000 / se.PLAN_FLOWS_PER_S + 90_000 / se.COMBINE_FLOWS_PER_S
    links = 1_500_000 / se.LINK_PACKET_HOPS_PER_S
    assert e.workers == 2 and e.planning_s == pytest.approx(planning) and e.links_s == pytest.approx(links)
    assert e.wall_s == pytest.approx(planning + links / 2)


def test_the_costliest_link_bounds_the_time_per_worker() -> None:
    # 100 workers would share 1.5 M packet-hops as 15,000 each, but one link alone has 75,000
    e = decomposed(plan(), workers=100)
    assert e.wall_s == pytest.approx(e.planning_s + 75_000 / se.LINK_PACKET_HOPS_PER_S)


def test_no_worker_alive_counts_as_one() -> None:
    assert decomposed(plan(), workers=0) == decomposed(plan(), workers=1)


@given(
    packets=st.floats(0, 1e12),
    largest_share=st.floats(0, 1),
    flows=st.integers(0, 10**7),
    workers=st.integers(1, 64),
)
def test_more_workers_never_take_longer_and_never_beat_the_largest_link(
    packets: float, largest_share: float, flows: int, workers: int
) -> None:
    p = plan(flows, packets, packets * largest_share)
    fewer, more = decomposed(p, workers), decomposed(p, workers + 1)
    assert more.wall_s <= fewer.wall_s
    assert more.wall_s >= more.planning_s + p.largest_link_packets / se.LINK_PACKET_HOPS_PER_S - 1e-9
    assert fewer.wall_s <= fewer.planning_s + fewer.links_s + 1e-9
