"""Logical wiring types and physical patterns, with hand-listed expectations."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from _wiring_helpers import cable, hall, plan

from loopline.domain.errors import DomainError
from loopline.domain.wiring import (
    FabricKind,
    FabricSpec,
    GrinScope,
    LinkClass,
    Pattern,
    Role,
    WiringPlan,
    WiringSpec,
    generate_plan,
)


def tors_of(p: WiringPlan, server: str) -> list[str]:
    return sorted(c.b_device for c in p.cables if c.link_class is LinkClass.SERVER_TOR and c.a_device == server)


def no_fabric(**kw: object) -> dict[str, object]:
    return {"fabric": FabricSpec(FabricKind.NONE), **kw}


def test_single_homed_is_a_lag_to_the_own_tor() -> None:
    p = plan(Pattern.SINGLE_HOMED, ports=2, spec_kw=no_fabric())
    # default geometry, r = 4: L1 servers U1..U4 + ToR U5; L2 servers U6..U9 + ToR U10
    assert tors_of(p, "H1.R01.K01.U03") == ["H1.R01.K01.U05", "H1.R01.K01.U05"]
    assert tors_of(p, "H1.R01.K01.U07") == ["H1.R01.K01.U10", "H1.R01.K01.U10"]
    # ToR ports: own servers' port 1 on e1..e4 (bottom to top), port 2 on e5..e8
    assert cable(p, "H1.R01.K01.U01", "p1").b_port == "e1"
    assert cable(p, "H1.R01.K01.U04", "p1").b_port == "e4"
    assert cable(p, "H1.R01.K01.U01", "p2").b_port == "e5"
    assert p.loops == []
    assert all(d.loop is None for d in p.devices)


def test_mc_lag_connects_each_server_to_p_tors_of_its_rack() -> None:
    p = plan(Pattern.MC_LAG, ports=2, spec_kw=no_fabric())
    both = ["H1.R01.K02.U05", "H1.R01.K02.U10"]
    assert tors_of(p, "H1.R01.K02.U01") == both
    assert tors_of(p, "H1.R01.K02.U09") == both
    with pytest.raises(DomainError, match=r"b=1 logical racks \(fewer than p\)"):
        plan(Pattern.MC_LAG, ports=2, logical_per_rack=1)
    with pytest.raises(DomainError, match="not a multiple of p"):
        plan(Pattern.MC_LAG, ports=2, logical_per_rack=3)


def loop_names(p: WiringPlan, i: int) -> list[str]:
    return [lr.split(".", 2)[2] for lr in p.loops[i].logical_racks]


def test_side_to_side_order_seen_from_the_cold_aisle() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=8, spec_kw=no_fabric())
    # R01 faces +y: seen from its aisle K04 is left-most. Each rack top to bottom.
    assert loop_names(p, 0) == ["K04.L2", "K04.L1", "K03.L2", "K03.L1", "K02.L2", "K02.L1", "K01.L2", "K01.L1"]
    # R02 faces -y: seen from the same aisle K01 is left-most.
    assert loop_names(p, 1) == ["K01.L2", "K01.L1", "K02.L2", "K02.L1", "K03.L2", "K03.L1", "K04.L2", "K04.L1"]
    # p = 2: a server's port 2 goes to the counter-clockwise neighbour (position i-1): the logical
    # rack directly above, or the bottom one of the rack to its left.
    assert cable(p, "H1.R01.K03.U01", "p2").b_device == "H1.R01.K03.U10"  # K03.L1 -> K03.L2 (above)
    assert cable(p, "H1.R01.K03.U06", "p2").b_device == "H1.R01.K04.U05"  # K03.L2 -> K04.L1 (left)
    tor = next(d for d in p.devices if d.name == "H1.R01.K04.U10")
    assert (tor.loop, tor.loop_position) == (0, 0)


def test_side_to_side_loops_split_racks_when_l_is_not_a_multiple_of_b() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=4, ports=1, racks_per_row=2, logical_per_rack=2, spec_kw=no_fabric())
    assert loop_names(p, 0) == ["K02.L2", "K02.L1", "K01.L2", "K01.L1"]
    p = plan(Pattern.SIDE_TO_SIDE, loop=2, ports=1, racks_per_row=3, logical_per_rack=2, spec_kw=no_fabric())
    assert [loop_names(p, i) for i in range(3)] == [["K03.L2", "K03.L1"], ["K02.L2", "K02.L1"], ["K01.L2", "K01.L1"]]


def test_paired_row_order() -> None:
    p = plan(Pattern.PAIRED_ROW, loop=8, spec_kw=no_fabric())
    # half a loop (4 logical racks = 2 racks) from each row; R01 side-to-side, then the facing racks
    # of R02 back, crossing the aisle at K03 and at K04.
    assert p.loops[0].logical_racks == (
        "H1.R01.K04.L2", "H1.R01.K04.L1", "H1.R01.K03.L2", "H1.R01.K03.L1",
        "H1.R02.K03.L1", "H1.R02.K03.L2", "H1.R02.K04.L1", "H1.R02.K04.L2",
    )  # fmt: skip
    with pytest.raises(DomainError, match="odd"):
        plan(Pattern.PAIRED_ROW, loop=7)
    with pytest.raises(DomainError, match="no partner"):
        plan(Pattern.PAIRED_ROW, rows=3)


def test_inter_chassis_meander_orders() -> None:
    # b = 3, 3 racks per loop (K03, K02, K01 left to right in R01): bottom chain, then a zig-zag
    # up K01, across the tops to K02, down to its second-from-bottom, across to K03, up.
    p = plan(Pattern.INTER_CHASSIS, loop=9, ports=2, racks_per_row=3, logical_per_rack=3, spec_kw=no_fabric())
    assert loop_names(p, 0) == [
        "K03.L1", "K02.L1", "K01.L1",
        "K01.L2", "K01.L3", "K02.L3", "K02.L2", "K03.L2", "K03.L3",
    ]  # fmt: skip
    # b = 1, 5 racks: 0, 2, 4 then back 3, 1 (left-to-right indices: K05=0 .. K01=4)
    p = plan(Pattern.INTER_CHASSIS, loop=5, ports=2, racks_per_row=5, logical_per_rack=1, spec_kw=no_fabric())
    assert loop_names(p, 0) == ["K05.L1", "K03.L1", "K01.L1", "K02.L1", "K04.L1"]


@pytest.mark.parametrize(
    ("pattern", "loop", "kw", "message"),
    [
        (Pattern.SIDE_TO_SIDE, 3, {}, r"row R01 \(4 racks x b=2\) holds 8 logical racks, which loops of l=3"),
        (Pattern.INTER_CHASSIS, 3, {}, "not a multiple of b=2"),
        (Pattern.INTER_CHASSIS, 6, {}, r"row R01 holds 4 racks \(8 logical racks\).*l=6 \(3 racks each\)"),
        (Pattern.PAIRED_ROW, 6, {}, r"\(8 per row is not a multiple of 3\)"),
        (Pattern.SIDE_TO_SIDE, 2, {"ports": 3}, r"l=2 .* p=3 distinct ToRs"),
    ],
)
def test_loops_that_do_not_fit_are_errors(pattern: Pattern, loop: int, kw: dict[str, int], message: str) -> None:
    with pytest.raises(DomainError, match=message):
        plan(pattern, loop=loop, **kw)  # type: ignore[arg-type]


def test_tor_port_exhaustion_and_nic_ports() -> None:
    with pytest.raises(DomainError, match=r"ToR port exhaustion: ToR H1\.R01\.K\d\d\.U\d\d .* needs 60"):
        plan(Pattern.SIDE_TO_SIDE, ports=3, servers_per_logical_rack=20)
    h = hall(ports=1)
    with pytest.raises(DomainError, match="1 NIC ports; the wiring needs 2"):
        generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2))


def test_grin_links_in_the_rack() -> None:
    # b = 2, r = 4: 8 servers per physical rack; n = 3: offsets +-1 and the diametric (+4) link
    p = plan(Pattern.GRIN, ports=1, grin_degree=3, spec_kw=no_fabric(grin_degree=3))
    ss = [c for c in p.cables if c.link_class is LinkClass.SERVER_SERVER]
    assert len(ss) == 2 * 4 * 8 * 3 // 2  # racks * servers per rack * n / 2
    # servers of K01 bottom to top: U1 U2 U3 U4 (L1), U6 U7 U8 U9 (L2); ToRs at U5 and U10.
    # first server (U1): +1 -> U2 (its p2 to U2's p3), diametric +4 -> the 5th server, U6, on p4
    c = cable(p, "H1.R01.K01.U01", "p2")
    assert (c.b_device, c.b_port) == ("H1.R01.K01.U02", "p3")
    c = cable(p, "H1.R01.K01.U01", "p4")
    assert (c.b_device, c.b_port) == ("H1.R01.K01.U06", "p4")
    # uplinks are single-homed on p1
    assert tors_of(p, "H1.R01.K01.U01") == ["H1.R01.K01.U05"]
    with pytest.raises(DomainError, match="too few for GRIN degree 8"):
        plan(Pattern.GRIN, ports=1, grin_degree=8, spec_kw=no_fabric(grin_degree=8))


def test_grin_links_to_the_next_rack() -> None:
    spec = no_fabric(grin_degree=2, grin_scope=GrinScope.NEXT_RACK)
    p = plan(Pattern.GRIN, ports=1, grin_degree=2, spec_kw=spec)
    ss = [c for c in p.cables if c.link_class is LinkClass.SERVER_SERVER]
    degree = Counter([c.a_device for c in ss] + [c.b_device for c in ss])
    assert set(degree.values()) == {2}
    # racks pair left to right in R01: (K04, K03), (K02, K01)
    assert {c.b_device.split(".")[2] for c in ss if c.a_device.startswith("H1.R01.K04")} == {"K03"}
    with pytest.raises(DomainError, match="odd"):
        plan(Pattern.GRIN, ports=1, grin_degree=2, racks_per_row=3, spec_kw=spec)


def fabric_plan(kind: FabricKind, uplinks: int = 4, **layout: int) -> WiringPlan:
    h = hall(
        ports=2,
        aggs_per_cluster=0 if kind is FabricKind.LEAF_SPINE else 4,
        core_switches=0 if kind is FabricKind.LEAF_SPINE else 2,
        spine_switches=4 if kind is FabricKind.LEAF_SPINE else 0,
        uplinks_per_tor=uplinks,
        **layout,
    )
    return generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, fabric=FabricSpec(kind, uplinks)))


def uplinks_by_tor(p: WiringPlan) -> dict[str, list[str]]:
    node = {d.name: d.node_id for d in p.devices}
    out: dict[str, list[str]] = defaultdict(list)
    for c in p.cables:
        if c.link_class is LinkClass.TOR_FABRIC:
            out[c.a_device].append(node[c.b_device])
    return out


def test_three_tier_fabric() -> None:
    p = fabric_plan(FabricKind.THREE_TIER)
    up = uplinks_by_tor(p)
    assert len(up) == 16  # every ToR
    for aggs in up.values():  # uplink u -> agg u mod 4 of cluster 0
        assert aggs == ["H1.C0.AGG1", "H1.C0.AGG2", "H1.C0.AGG3", "H1.C0.AGG4"]
    # ToR uplink ports after its 48 server ports
    assert sorted(c.a_port for c in p.cables if c.a_device == "H1.R01.K01.U05" and c.link_class == "tor_fabric") == [
        "e49", "e50", "e51", "e52",
    ]  # fmt: skip
    agg_core = [c for c in p.cables if c.link_class is LinkClass.AGG_CORE]
    assert len(agg_core) == 4 * 2  # every agg to every core


def test_leaf_spine_is_full_bipartite() -> None:
    p = fabric_plan(FabricKind.LEAF_SPINE)
    for spines in uplinks_by_tor(p).values():
        assert sorted(spines) == ["H1.SPINE1", "H1.SPINE2", "H1.SPINE3", "H1.SPINE4"]
    assert not [c for c in p.cables if c.link_class is LinkClass.AGG_CORE]


def test_vl2_two_uplinks_to_distinct_aggs() -> None:
    p = fabric_plan(FabricKind.VL2, uplinks=2)
    up = uplinks_by_tor(p)
    assert all(len(a) == 2 and a[0] != a[1] for a in up.values())
    # consecutive ToRs of a cluster rotate over the agg pairs: load spread evenly
    load = Counter(a for aggs in up.values() for a in aggs)
    assert set(load.values()) == {16 * 2 // 4}


def test_type2_tor_uplinks_go_to_their_round_robin_cluster() -> None:
    h = hall(ports=2, rows_per_cluster=1)
    spec = WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, loop=8, subways_type=2, clusters=2, rows_per_cluster=1)
    p = generate_plan(h, spec)
    up = uplinks_by_tor(p)
    for d in p.devices:
        if d.role is Role.TOR:
            assert d.cluster == (int(d.rack.split(".")[1][1:]) - 1 + (d.loop_position or 0) % 2) % 2
            assert {a.split(".")[1] for a in up[d.name]} == {f"C{d.cluster}"}
    with pytest.raises(DomainError, match=r"c=3 clusters but the hall has 2"):
        generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, subways_type=2, clusters=3,
                                    rows_per_cluster=1))  # fmt: skip


def test_labels_and_ids() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=8)
    c = cable(p, "H1.R01.K03.U06", "p2")
    assert c.label == "H1.R01.K03.U06:p2 / H1.R01.K04.U05:e5"
    assert c.cable_id.startswith("C") and len(c.cable_id) == 17
    again = plan(Pattern.SIDE_TO_SIDE, loop=8)
    assert [x.cable_id for x in again.cables] == [x.cable_id for x in p.cables]
    assert len({x.cable_id for x in p.cables}) == len(p.cables)
    from loopline.domain.labels import cable_id

    assert cable_id("A", "p1", "B", "e1") == cable_id("B", "e1", "A", "p1")


def test_dedicated_network_row() -> None:
    from dataclasses import replace

    from loopline.domain.abstract_layout import place_fabric
    from loopline.domain.layout import Point, Rack, RackRole, Row, Side

    base = hall(ports=2, aggs_per_cluster=0, core_switches=0)
    compute = tuple(replace(r, racks=tuple(k for k in r.racks if k.role is RackRole.COMPUTE)) for r in base.rows)
    # a row of two network racks behind R02 (hot aisle side), fronts facing -y
    net = Row(
        name="R03",
        origin=Point(1200, 1200 + 2400 + 1200 + 1200),
        front=Side.RIGHT,
        racks=(Rack(name="N01", role=RackRole.NETWORK), Rack(name="N02", role=RackRole.NETWORK, position_mm=600)),
    )
    h = place_fabric(replace(base, rows=(*compute, net)), aggs_per_cluster=2, core_switches=2, rows_per_cluster=1)
    placed = {fs.name: rk.name for rk in h.rows[2].racks for fs in rk.fabric_switches}
    # clusters = the two compute rows; their aggs round-robin over the network row's racks
    assert placed == {
        "C0.AGG1": "N01", "C0.AGG2": "N02", "C1.AGG1": "N01", "C1.AGG2": "N02", "CORE1": "N01", "CORE2": "N02",
    }  # fmt: skip
    spec = WiringSpec(
        pattern=Pattern.SIDE_TO_SIDE, ports=2, subways_type=2, clusters=2, rows_per_cluster=1,
        fabric=FabricSpec(FabricKind.THREE_TIER, 2),
    )  # fmt: skip
    p = generate_plan(h, spec)
    up = uplinks_by_tor(p)
    assert len(up) == 16
    for d in p.devices:
        if d.role is Role.TOR:
            assert {a.split(".")[1] for a in up[d.name]} == {f"C{d.cluster}"}
    assert all(c.b_device.startswith("H1.R03.") for c in p.cables if c.link_class is LinkClass.TOR_FABRIC)
