"""Fabric port capacity per layer (domain/fabric_capacity.py): hand-derived counts, and agreement with
the wiring generator (a layer reported short is exactly when Generate fails on that layer's ports)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.errors import DomainError
from loopline.domain.fabric_capacity import fabric_ports
from loopline.domain.layout import FabricSettings, FabricType, Hall
from loopline.domain.wiring import Pattern, WiringSpec, generate_plan
from loopline.domain.wiring.spec import FabricKind, FabricSpec


def with_ports(hall: Hall, role: str, server_ports: int) -> Hall:
    """The hall with every fabric switch of `role` given `server_ports` downlink ports."""
    rows = tuple(
        replace(
            row,
            racks=tuple(
                replace(
                    rack,
                    fabric_switches=tuple(
                        replace(fs, model=replace(fs.model, server_ports=server_ports)) if fs.role == role else fs
                        for fs in rack.fabric_switches
                    ),
                )
                for rack in row.racks
            ),
        )
        for row in hall.rows
    )
    return replace(hall, rows=rows)


def leaf_spine_hall(rows: int, racks: int = 12, spines: int = 8, spine_ports: int = 64) -> Hall:
    spec = AbstractLayoutSpec(
        rows=rows, racks_per_row=racks, logical_per_rack=2, servers_per_logical_rack=15, ports=2, spine_switches=spines
    )
    return with_ports(build_abstract_layout(spec), "spine", spine_ports)


LEAF_SPINE = FabricSettings(fabric_type=FabricType.LEAF_SPINE, tor_uplinks=4, spines=8)


def test_demo_sized_hall_fits_its_spines() -> None:
    # 4 rows x 12 racks x 2 logical racks = 96 ToRs; x 4 uplinks = 384 links over 8 spines = 48 each.
    layers, issues = fabric_ports(leaf_spine_hall(4), LEAF_SPINE)
    tor, spine = layers
    assert (tor.layer, tor.direction, tor.switches, tor.ports_needed, tor.ports_available) == (
        "tor",
        "uplink",
        96,
        384,
        96 * 8,
    )
    assert (spine.layer, spine.switches, spine.ports_needed, spine.ports_available) == ("spine", 8, 384, 512)
    assert (spine.busiest_needed, spine.busiest_available, spine.short) == (48, 64, False)
    assert issues == []


def test_two_more_rows_exhaust_the_spines() -> None:
    # 6 rows: 144 ToRs x 4 = 576 links; ToR k cables spines 4k..4k+3 (mod 8): 72 on every spine, 64 ports.
    layers, issues = fabric_ports(leaf_spine_hall(6), LEAF_SPINE)
    spine = layers[1]
    assert (spine.ports_needed, spine.ports_available, spine.busiest_needed, spine.busiest_available) == (
        576,
        512,
        72,
        64,
    )
    assert spine.short
    assert [i.code for i in issues] == ["fabric_ports_short"]
    assert issues[0].severity == "warning"
    assert "576 spine ports, the 8 spines have 512" in issues[0].message
    assert f"{spine.busiest} needs 72 of its 64" in issues[0].message


def test_uneven_round_robin_loads_the_first_spines() -> None:
    # 1 row x 3 racks x 2 = 6 ToRs x 4 uplinks over 5 spines: ToR k takes spines 4k..4k+3 mod 5, so
    # 24 links: spines 0..3 get 5, spine 4 gets 4. With 4 ports each, the busiest needs 5 of 4.
    layers, issues = fabric_ports(leaf_spine_hall(1, racks=3, spines=5, spine_ports=4), LEAF_SPINE)
    spine = layers[1]
    assert (spine.ports_needed, spine.ports_available, spine.busiest_needed, spine.busiest_available) == (24, 20, 5, 4)
    assert spine.busiest is not None and spine.busiest.endswith("1")  # the first spine in name order


def test_three_tier_counts_per_cluster_and_the_cores() -> None:
    # 3 compute rows of 4 racks x 2 = 8 ToRs per row; 2 rows per cluster: cluster 0 has 16 ToRs, cluster 1 has 8.
    # 2 aggs per cluster, 4 uplinks: each ToR puts 2 links on each agg of its cluster -> 32 and 16 per agg.
    # 2 cores: each takes one link from each of the 4 aggs.
    spec = AbstractLayoutSpec(
        rows=3, racks_per_row=4, logical_per_rack=2, servers_per_logical_rack=4, aggs_per_cluster=2, core_switches=2
    )
    hall = with_ports(build_abstract_layout(spec), "agg", 30)
    fabric = FabricSettings(fabric_type=FabricType.FAT_TREE, tor_uplinks=4, aggs_per_cluster=2, cores=2)
    layers, issues = fabric_ports(hall, fabric)
    assert [layer.layer for layer in layers] == ["tor", "agg", "core"]
    agg, core = layers[1], layers[2]
    assert (agg.switches, agg.ports_needed, agg.ports_available) == (4, 2 * 32 + 2 * 16, 4 * 30)
    assert (agg.busiest_needed, agg.busiest_available, agg.short) == (32, 30, True)
    assert (core.switches, core.ports_needed, core.busiest_needed) == (2, 8, 4)
    assert [i.field for i in issues] == ["fabric.aggs_per_cluster"]


def test_no_spines_placed_is_reported_once_the_fabric_is_being_placed() -> None:
    spec = AbstractLayoutSpec(rows=1, racks_per_row=2)  # three-tier switches only: no spines
    layers, issues = fabric_ports(build_abstract_layout(spec), LEAF_SPINE)
    assert [layer.layer for layer in layers] == ["tor"]
    assert [i.field for i in issues] == ["fabric.spines"]
    # No fabric switch at all: a hall still being laid out, only the ToR layer is counted.
    bare = build_abstract_layout(replace(spec, aggs_per_cluster=0, core_switches=0))
    layers, issues = fabric_ports(bare, LEAF_SPINE)
    assert [(layer.layer, layer.ports_needed) for layer in layers] == [("tor", 2 * 1 * 4)]
    assert issues == []


@settings(max_examples=30, deadline=None)
@given(
    rows=st.integers(1, 3),
    racks=st.integers(1, 4),
    spines=st.integers(1, 6),
    uplinks=st.integers(1, 6),
    ports=st.integers(1, 12),
)
def test_short_exactly_when_the_generator_runs_out(
    rows: int, racks: int, spines: int, uplinks: int, ports: int
) -> None:
    spec = AbstractLayoutSpec(
        rows=rows,
        racks_per_row=racks,
        logical_per_rack=1,
        servers_per_logical_rack=2,
        spine_switches=spines,
        tor_uplink_ports=8,
        uplinks_per_tor=uplinks,
    )
    hall = with_ports(build_abstract_layout(spec), "spine", ports)
    layers, _ = fabric_ports(hall, FabricSettings(fabric_type=FabricType.LEAF_SPINE, tor_uplinks=uplinks))
    wiring = WiringSpec(pattern=Pattern.SINGLE_HOMED, fabric=FabricSpec(FabricKind.LEAF_SPINE, uplinks_per_tor=uplinks))
    try:
        generate_plan(hall, wiring)
        failed = False
    except DomainError as err:
        assert "downlink ports" in str(err), str(err)
        failed = True
    assert layers[1].short is failed


def test_reported_numbers_match_the_generated_plan() -> None:
    hall = leaf_spine_hall(2, racks=5, spines=3, spine_ports=40)
    layers, _ = fabric_ports(hall, LEAF_SPINE)
    plan = generate_plan(hall, WiringSpec(fabric=FabricSpec(FabricKind.LEAF_SPINE, uplinks_per_tor=4)))
    per_spine: dict[str, int] = {}
    for c in plan.cables:
        if c.link_class.value == "tor_fabric":
            per_spine[c.b_device] = per_spine.get(c.b_device, 0) + 1
    assert sum(per_spine.values()) == layers[1].ports_needed == 20 * 4
    assert max(per_spine.values()) == layers[1].busiest_needed


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])
