"""Properties of the plant builder over generated halls and plans (Hypothesis): every ToR uplink of
the plan gets a chain that starts at its ToR port and ends at its fabric port exactly as the plan's
cable does (the direct plan of the same spec has the same cables), whose items follow on from each
other, and which traces; every item is used; the plan itself is left as it was. A broken-out port
whose lanes all reach one ToR-side panel rack breaks out there, the others at the network rack."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from test_layout import with_fabric_ports

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.layout import Hall
from loopline.domain.routing import DEFAULT_GEOMETRY
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.layout import ADAPTER_PLATE, BREAKOUT_MODULE, structure_plan
from loopline.domain.structured.optics import split_lane
from loopline.domain.structured.plant import Cabling, FindingKind, PanelPlacement, PlantItem, StructuredSettings
from loopline.domain.wiring import Pattern, WiringSpec, generate_plan
from loopline.domain.wiring.model import LinkClass
from loopline.domain.wiring.spec import FabricKind, FabricSpec

CAT = builtin_catalog()


def ports(port: str) -> set[str]:
    """A trunk end names its legs' rear ports as a range (``R01-R03``)."""
    first, sep, last = port.partition("-")
    if not sep:
        return {port}
    return {f"R{n:02d}" for n in range(int(first[1:]), int(last[1:]) + 1)}


@st.composite
def cases(draw: st.DrawFn) -> tuple[Hall, WiringSpec, StructuredSettings]:
    kind = draw(st.sampled_from([FabricKind.LEAF_SPINE, FabricKind.THREE_TIER]))
    # (ToR uplink, fabric port) speeds: equal, or a fast port broken out into the uplinks' speed.
    link, port = draw(st.sampled_from([(100.0, 100.0), (400.0, 400.0), (100.0, 400.0), (100.0, 800.0), (400.0, 800.0)]))
    uplinks = draw(st.integers(1, 3))
    switches = draw(st.integers(1, 3))
    hall = build_abstract_layout(
        AbstractLayoutSpec(
            rows=draw(st.integers(1, 3)),
            racks_per_row=draw(st.integers(1, 3)),
            logical_per_rack=draw(st.integers(1, 2)),
            servers_per_logical_rack=draw(st.integers(1, 3)),
            uplinks_per_tor=uplinks,
            uplink_gbps=link,
            spine_switches=switches if kind is FabricKind.LEAF_SPINE else 0,
            aggs_per_cluster=switches,
            core_switches=1,
            network_rack=draw(st.sampled_from(["end", "middle"])),
        )
    )
    if port != link:
        hall = with_fabric_ports(hall, port)
    spec = WiringSpec(
        pattern=Pattern.SINGLE_HOMED,
        ports=1,
        fabric=FabricSpec(kind, uplinks, breakouts=port != link),
        cabling=Cabling.STRUCTURED,
    )
    return hall, spec, StructuredSettings(panel_at=draw(st.sampled_from(list(PanelPlacement))))


@settings(max_examples=60, deadline=None)
@given(cases())
def test_every_uplink_runs_from_its_tor_port_to_its_fabric_port_through_contiguous_items(
    case: tuple[Hall, WiringSpec, StructuredSettings],
) -> None:
    hall, spec, structured = case
    plan = generate_plan(hall, spec)
    before = [c.as_tuple() for c in plan.cables]
    if not spec.fabric.breakouts:
        # Structured cabling adds a plant; the logical links are the direct plan's.
        assert [c.as_tuple() for c in generate_plan(hall, replace(spec, cabling=Cabling.DIRECT)).cables] == before
    plant = structure_plan(hall, plan, structured, DEFAULT_GEOMETRY, CAT)
    assert [c.as_tuple() for c in plan.cables] == before

    items = {i.item_id: i for i in plant.items}
    assert len(items) == len(plant.items)
    chains: dict[str, list[tuple[int, str]]] = {}
    for s in plant.steps:
        chains.setdefault(s.cable_id, []).append((s.position, s.item_id))
    uplinks = [c for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC]
    # Racks of at most 8 U of servers and ToRs: every uplink finds panel ports.
    assert set(chains) == {c.cable_id for c in uplinks}
    for c in uplinks:
        steps = sorted(chains[c.cable_id])
        assert [p for p, _ in steps] == list(range(len(steps)))
        chain = [items[i] for _, i in steps]
        assert (chain[0].a_end, chain[0].a_port) == (c.a_device, c.a_port)
        assert (chain[-1].b_end, chain[-1].b_port) == (c.b_device, split_lane(c.b_port)[0])
        for near, far in pairwise(chain):
            assert near.b_end == far.a_end and ports(near.b_port) & ports(far.a_port), (near, far)
    assert {s.item_id for s in plant.steps} == set(items)
    # A panel front port holds one cord; a device port one optic.
    plugged = [
        (end, port)
        for i in plant.items
        if i.kind is SegmentKind.CORD
        for end, port in ((i.a_end, i.a_port), (i.b_end, i.b_port))
        if port.startswith("F")
    ]
    assert len(plugged) == len(set(plugged))
    assert len({(o.device, o.port) for o in plant.optics}) == len(plant.optics)
    # Every link traces lane by lane and mates its connectors.
    assert [f for f in plant.findings if f.kind in (FindingKind.POLARITY, FindingKind.CONNECTOR)] == []
    assert len({p.panel_id for p in plant.panels}) == len(plant.panels)
    # Breakouts: the lanes of a port (on LC optics at the ToR) whose ToR-side panels all stand in
    # one rack pass a module there and nothing else with fibre of its own (5 steps: cord, module,
    # trunk, adapter, MPO cord); a port whose lanes reach two racks passes cassettes at both ends of
    # its trunk, then a module in the network rack (7 steps).
    racks = {p.panel_id: p.rack for p in plant.panels}
    broken_out: dict[tuple[str, str], list[list[PlantItem]]] = {}
    for c in uplinks:
        physical, lane = split_lane(c.b_port)
        chain = [items[i] for _, i in sorted(chains[c.cable_id])]
        if lane is not None and chain[0].part.startswith("CORD-LC"):
            broken_out.setdefault((c.b_device, physical), []).append(chain)
    for lanes in broken_out.values():
        tor_side = {racks[chain[1].a_end] for chain in lanes}
        if len(tor_side) == 1:
            assert all([i.part for i in chain][1::2] == [BREAKOUT_MODULE, ADAPTER_PLATE] for chain in lanes)
            assert all(len(chain) == 5 for chain in lanes)
        else:
            assert all(len(chain) == 7 and chain[5].part == BREAKOUT_MODULE for chain in lanes)
            assert all(racks[chain[5].a_end] == racks[chain[3].a_end] for chain in lanes)
