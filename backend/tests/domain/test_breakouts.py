"""Breakouts in the wiring generator and in fabric capacity (issue 29): a fabric switch port faster
than the ToR uplinks it serves breaks out into lanes where its optic has a breakout into their speed,
and serves ports x lanes links. Hand-derived: the 64 x 400G spine serving 256 x 100G ToR uplinks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.errors import DomainError
from loopline.domain.fabric_capacity import fabric_ports
from loopline.domain.layout import FabricSettings, FabricType, Hall, SwitchModel
from loopline.domain.scenario import network_from_plan
from loopline.domain.structured.optics import breakout_lanes, port_optic
from loopline.domain.structured.plant import Cabling, StructuredSettings
from loopline.domain.wiring import LinkClass, Pattern, WiringPlan, WiringSpec, generate_plan
from loopline.domain.wiring.spec import FabricKind, FabricSpec

SPINE_400G = SwitchModel(name="64x400G spine", server_ports=64, server_port_gbps=400.0, uplink_ports=0, height_u=2)
LEAF_SPINE = FabricSettings(fabric_type=FabricType.LEAF_SPINE, tor_uplinks=4, spines=1)


def spine_hall(tors: int, model: SwitchModel = SPINE_400G, spines: int = 1) -> Hall:
    """One row of `tors` racks, each one logical rack of 2 servers and a ToR (48x25G+8x100G), and
    `spines` spines `SP1..` of `model` in the row's network rack, in hall ``BH``."""
    spec = AbstractLayoutSpec(
        rows=1, racks_per_row=tors, logical_per_rack=1, servers_per_logical_rack=2, spine_switches=spines,
        uplinks_per_tor=4, hall_name="BH",
    )  # fmt: skip
    hall = build_abstract_layout(spec)
    rows = tuple(
        replace(
            row,
            racks=tuple(
                replace(
                    rack,
                    fabric_switches=tuple(
                        replace(fs, name=f"SP{fs.name.removeprefix('SPINE')}", model=model)
                        for fs in rack.fabric_switches
                    ),
                )
                for rack in row.racks
            ),
        )
        for row in hall.rows
    )
    return replace(hall, rows=rows)


def spec(*, breakouts: bool, cabling: Cabling = Cabling.STRUCTURED) -> WiringSpec:
    return WiringSpec(
        pattern=Pattern.SINGLE_HOMED,
        fabric=FabricSpec(FabricKind.LEAF_SPINE, uplinks_per_tor=4, breakouts=breakouts),
        cabling=cabling,
        structured=StructuredSettings() if cabling is Cabling.STRUCTURED else None,
    )


def uplinks(plan: WiringPlan) -> list[tuple[str, str, str, str, float]]:
    return [
        (c.a_device, c.a_port, c.b_device, c.b_port, c.gbps)
        for c in plan.cables
        if c.link_class is LinkClass.TOR_FABRIC
    ]


def test_the_64x400g_spine_serves_exactly_256_100g_uplinks_lane_by_lane() -> None:
    plan = generate_plan(spine_hall(64), spec(breakouts=True))
    links = uplinks(plan)
    # 64 ToRs x 4 uplinks, all to the one spine: link n takes lane (n-1)%4+1 of port (n-1)//4+1.
    assert len(links) == 256
    assert [b_port for _, _, _, b_port, _ in links] == [f"e{p}/{lane}" for p in range(1, 65) for lane in range(1, 5)]
    assert {(b, gbps) for _, _, b, _, gbps in links} == {("BH.R01.N01.U01", 100.0)}
    # ToR of rack K<k> (2 servers at U1-U2, the ToR at U3) is the k-th: its uplinks e49..e52 (after its
    # 48 server-facing ports) take the 4 lanes of spine port k, one breakout cable's 4 legs.
    assert links[:4] == [
        ("BH.R01.K01.U03", f"e{48 + lane}", "BH.R01.N01.U01", f"e1/{lane}", 100.0) for lane in (1, 2, 3, 4)
    ]
    assert links[255] == ("BH.R01.K64.U03", "e52", "BH.R01.N01.U01", "e64/4", 100.0)
    for k in range(1, 65):
        legs = links[4 * (k - 1) : 4 * k]
        assert {a for a, *_ in legs} == {f"BH.R01.K{k:02d}.U03"}
        assert [b_port for *_, b_port, _ in legs] == [f"e{k}/{lane}" for lane in (1, 2, 3, 4)]


def test_the_257th_uplink_is_refused_naming_the_switch_its_ports_and_lanes() -> None:
    # 65 ToRs x 4 uplinks: the 65th ToR's (rack K65) first uplink e49 is the spine's 257th link.
    with pytest.raises(DomainError) as err:
        generate_plan(spine_hall(65), spec(breakouts=True))
    assert err.value.field == "fabric"
    assert err.value.reason == (
        "BH.SP1 (64x400G spine): 64 ports x 4 lanes of 100G = 256 links; the 257th (ToR BH.R01.K65.U03 uplink e49)"
        " has no lane"
    )


def test_without_breakouts_the_plan_is_todays() -> None:
    # The same 400G spine without breakouts: one 100G link per port, e1..e64, as a direct plan.
    hall = spine_hall(16)
    direct = generate_plan(hall, spec(breakouts=False, cabling=Cabling.DIRECT))
    structured = generate_plan(hall, spec(breakouts=False))
    assert structured.cables == direct.cables
    assert [b_port for *_, b_port, _ in uplinks(direct)] == [f"e{n}" for n in range(1, 65)]
    # 65 ToRs x 4 = 260 links on 64 ports: refused as today.
    with pytest.raises(DomainError, match=r"has 64 downlink ports, too few"):
        generate_plan(spine_hall(65), spec(breakouts=False))


def test_breakouts_change_nothing_where_no_port_breaks_out() -> None:
    # 100G spine ports for 100G uplinks: the same speed, one link per port with or without breakouts.
    spine_100g = replace(SPINE_400G, name="64x100G spine", server_port_gbps=100.0)
    hall = spine_hall(8, spine_100g)
    assert generate_plan(hall, spec(breakouts=True)).cables == generate_plan(hall, spec(breakouts=False)).cables
    # A speed the structured catalog has no optic for (200G): no breakout either.
    spine_200g = replace(SPINE_400G, name="64x200G spine", server_port_gbps=200.0)
    hall = spine_hall(8, spine_200g)
    assert generate_plan(hall, spec(breakouts=True)).cables == generate_plan(hall, spec(breakouts=False)).cables


def test_an_800g_2xdr4_port_breaks_out_into_8_lanes() -> None:
    spine_800g = replace(SPINE_400G, name="32x800G spine", server_ports=32, server_port_gbps=800.0)
    plan = generate_plan(spine_hall(4, spine_800g), spec(breakouts=True))
    # 4 ToRs x 4 uplinks = 16 links: ports 1 and 2, lanes 1..8 each.
    assert [b_port for *_, b_port, _ in uplinks(plan)] == [f"e{p}/{lane}" for p in (1, 2) for lane in range(1, 9)]


def test_a_switch_breaking_out_serves_one_uplink_speed() -> None:
    hall = spine_hall(3)
    row = hall.rows[0]
    fast = replace(row.racks[1].logical_racks[0].tor_model, name="48x25G+8x400G ToR", uplink_gbps=400.0)
    rack = replace(row.racks[1], logical_racks=(replace(row.racks[1].logical_racks[0], tor_model=fast),))
    hall = replace(hall, rows=(replace(row, racks=(row.racks[0], rack, *row.racks[2:])),))
    with pytest.raises(DomainError) as err:
        generate_plan(hall, spec(breakouts=True))
    assert err.value.field == "breakouts"
    assert "BH.SP1 (64x400G spine) serves 100G ToR uplinks (64 ports x 4 lanes of 100G = 256 links)" in err.value.reason
    assert "is 400G: with breakouts a fabric switch serves ToR uplinks of one speed" in err.value.reason
    # Without breakouts the mixed speeds wire as today: each link a port, at the slower end's speed.
    plan = generate_plan(hall, spec(breakouts=False))
    assert sorted(gbps for *_, gbps in uplinks(plan)) == [100.0] * 8 + [400.0] * 4


def test_breakouts_need_structured_cabling() -> None:
    with pytest.raises(DomainError) as err:
        generate_plan(spine_hall(2), spec(breakouts=True, cabling=Cabling.DIRECT))
    assert err.value.field == "breakouts"
    assert err.value.reason.startswith("breakouts need structured cabling")
    direct_with_settings = replace(spec(breakouts=False, cabling=Cabling.DIRECT), structured=StructuredSettings())
    with pytest.raises(DomainError) as err:
        generate_plan(spine_hall(2), direct_with_settings)
    assert err.value.field == "structured"
    lossy = replace(spec(breakouts=False), structured=StructuredSettings(lc_pair_loss_db=-0.5))
    with pytest.raises(DomainError) as err:
        generate_plan(spine_hall(2), lossy)
    assert err.value.field == "structured.lc_pair_loss_db"


def test_the_engine_network_has_one_100g_link_per_lane() -> None:
    plan = generate_plan(spine_hall(64), spec(breakouts=True))
    network = network_from_plan(plan)
    spine = "BH.SP1"
    to_spine = [link for link in network["links"] if spine in (link["a"], link["b"])]
    # One engine link per logical link (per lane), each 100G: 256 x 100G = the spine's 64 x 400G.
    assert len(to_spine) == 256
    assert {link["gbps"] for link in to_spine} == {100.0}
    assert len(network["links"]) == len(plan.cables)
    assert len({link["id"] for link in network["links"]}) == len(plan.cables)


def test_fabric_capacity_counts_lanes_with_breakouts() -> None:
    layers, issues = fabric_ports(spine_hall(64), LEAF_SPINE, breakouts=True)
    spine = layers[1]
    assert (spine.ports_needed, spine.ports_available, spine.busiest_needed, spine.busiest_available) == (
        256,
        256,
        256,
        256,
    )
    assert not spine.short and issues == []
    layers, issues = fabric_ports(spine_hall(65), LEAF_SPINE, breakouts=True)
    assert (layers[1].ports_needed, layers[1].ports_available, layers[1].short) == (260, 256, True)
    assert "need 260 spine ports (lanes where a port breaks out), the 1 spines have 256" in issues[0].message
    # Without breakouts: ports, as today.
    layers, _ = fabric_ports(spine_hall(64), LEAF_SPINE)
    assert (layers[1].ports_needed, layers[1].ports_available, layers[1].short) == (256, 64, True)


def test_the_generator_and_the_capacity_check_share_the_lane_count() -> None:
    lanes = breakout_lanes("BH.SP1", 64, 400.0, 100.0)
    assert lanes is not None and (lanes.lanes_per_port, lanes.capacity, lanes.lane_optic) == (4, 256, "100G-DR")
    assert port_optic(400.0).part == "400G-DR4" and port_optic(800.0).part == "800G-2xDR4"
    assert port_optic(100.0).part == "100G-DR"
    with pytest.raises(DomainError, match="no optic for 25G ports"):
        port_optic(25.0)
    assert breakout_lanes("S", 64, 400.0, 400.0) is None  # same speed
    assert breakout_lanes("S", 64, 100.0, 25.0) is None  # 100G-DR has no breakout
    assert breakout_lanes("S", 64, 400.0, 25.0) is None  # 400G-DR4 breaks out into 100G only
    assert breakout_lanes("S", 0, 400.0, 100.0) is None  # no ports: refused as today ("has 0 downlink ports")


@settings(max_examples=25, deadline=None)
@given(
    tors=st.integers(1, 40),
    spines=st.integers(1, 3),
    ports=st.integers(1, 12),
    port_gbps=st.sampled_from([100.0, 400.0, 800.0]),
)
def test_short_exactly_when_the_breakout_plan_runs_out(tors: int, spines: int, ports: int, port_gbps: float) -> None:
    model = SwitchModel(name=f"{ports}x{port_gbps:g}G spine", server_ports=ports, server_port_gbps=port_gbps)
    hall = spine_hall(tors, model, spines)
    layers, _ = fabric_ports(hall, replace(LEAF_SPINE, spines=spines), breakouts=True)
    try:
        plan = generate_plan(hall, spec(breakouts=True))
    except DomainError as err:
        assert err.field == "fabric" and ("has no lane" in err.reason or "downlink ports" in err.reason), err
        assert layers[1].short
        return
    assert not layers[1].short
    served: dict[str, int] = {}
    for _, _, b, _, _ in uplinks(plan):
        served[b] = served.get(b, 0) + 1
    assert sum(served.values()) == layers[1].ports_needed == tors * 4
    assert max(served.values()) == layers[1].busiest_needed
