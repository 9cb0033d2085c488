"""Properties of the structured sizing (Hypothesis): allocated (port, lane) pairs and panel ports are
unique, within the switch's or the rack's capacity, and in the links' order (adding links never
moves an earlier one); trunks always hold the links' fibres (or legs) with less than one trunk spare,
one trunk of the smallest count that holds them or several of the largest."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.facility.model import CableFacts
from loopline.domain.structured.catalog import (
    Connector,
    FibreKind,
    Gender,
    Optic,
    PatchPanel,
    Trunk,
    TrunkPolarity,
    builtin_catalog,
)
from loopline.domain.structured.sizing import (
    PatchedLink,
    PortLanes,
    TrunkSizing,
    TrunkTermination,
    allocate_lanes,
    allocate_panel_ports,
    link_fibres,
    port_lanes,
    size_trunks,
)

BUILTIN = builtin_catalog()


@st.composite
def switches(draw: st.DrawFn) -> PortLanes:
    """A switch of any port count whose optic serves links of its own speed or of a breakout's."""
    optic = draw(st.sampled_from(BUILTIN.optics))
    speeds = [optic.speed_gbps, *(BUILTIN.optic(b.into).speed_gbps for b in optic.breakouts)]
    return port_lanes(
        "SW",
        draw(st.integers(min_value=1, max_value=96)),
        optic,
        draw(st.sampled_from(speeds)),
        breakout=True,
        catalog=BUILTIN,
    )


@settings(max_examples=200, deadline=None)
@given(switches(), st.data())
def test_lanes_are_unique_within_capacity_and_in_order(lanes: PortLanes, data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=0, max_value=lanes.capacity + 12))
    links = [f"L{i}" for i in range(n)]
    allocation = allocate_lanes(lanes, links)

    pairs = [(a.port, a.lane) for a in allocation.assigned]
    assert len(set(pairs)) == len(pairs)
    assert all(1 <= p <= lanes.ports and 1 <= q <= lanes.lanes_per_port for p, q in pairs)
    assert len(pairs) == min(n, lanes.capacity) <= lanes.ports * lanes.lanes_per_port
    assert pairs == sorted(pairs)  # port by port, lane by lane
    assert [a.link for a in allocation.assigned] + [r.link for r in allocation.refused] == links
    # Stable: the allocation of a prefix of the links is a prefix of the allocation.
    k = data.draw(st.integers(min_value=0, max_value=n))
    assert allocate_lanes(lanes, links[:k]).assigned == allocation.assigned[:k]


_MPO12_OS2 = [o for o in BUILTIN.optics if o.fibre is FibreKind.OS2 and o.connector is Connector.MPO_12]
_OS2 = [o for o in BUILTIN.optics if o.fibre is FibreKind.OS2]


def _trunk(i: int, fibres: int) -> Trunk:
    return Trunk(
        name=f"T{i}-{fibres}F",
        fibres=fibres,
        connector=Connector.MPO_12,
        polarity=TrunkPolarity.B,
        gender_a=Gender.UNPINNED,
        gender_b=Gender.UNPINNED,
        fibre=FibreKind.OS2,
        lengths_mm=(),
        physical=CableFacts(),
        source="test",
    )


_TRUNK_SETS = st.lists(st.sampled_from([12, 24, 48, 72, 96, 144, 288]), min_size=1, max_size=5, unique=True).map(
    lambda counts: tuple(_trunk(i, f) for i, f in enumerate(counts))
)


def _check_rounding(sizing: TrunkSizing, trunks: tuple[Trunk, ...], demand: int, unit: int, per_trunk: int) -> None:
    """`demand` units (fibres or legs) in trunks holding `per_trunk` each; `unit` fibres a unit."""
    held = sizing.count * per_trunk
    assert held >= demand
    assert sizing.spare_fibres == (held - demand) * unit
    assert 0 <= sizing.spare_fibres < sizing.trunk.fibres
    capacities = sorted(t.fibres // unit for t in trunks)
    if demand <= capacities[-1]:
        # One trunk, and no smaller one would hold the links.
        assert sizing.count == (1 if demand else 0)
        assert all(c < demand for c in capacities if c < per_trunk)
    else:
        assert per_trunk == capacities[-1]
        assert (sizing.count - 1) * per_trunk < demand


@settings(max_examples=200, deadline=None)
@given(_TRUNK_SETS, st.lists(st.sampled_from(_OS2), max_size=60), st.randoms(use_true_random=False))
def test_cassette_trunks_hold_the_links_fibres_with_less_than_a_trunk_spare(
    trunks: tuple[Trunk, ...], optics: list[Optic], rnd: random.Random
) -> None:
    catalog = replace(BUILTIN, trunks=trunks)
    links = [PatchedLink(f"L{i}", o) for i, o in enumerate(optics)]
    sizing = size_trunks("R", links, 10_000, catalog, termination=TrunkTermination.CASSETTE)
    needed = sum(link_fibres(o) for o in optics)
    assert sizing.fibres_needed == needed
    assert sizing.dark_fibres == 0
    _check_rounding(sizing, trunks, needed, 1, sizing.trunk.fibres)
    # The links' order does not change the trunks.
    shuffled = list(links)
    rnd.shuffle(shuffled)
    again = size_trunks("R", shuffled, 10_000, catalog, termination=TrunkTermination.CASSETTE)
    assert (again.trunk, again.count, again.spare_fibres) == (sizing.trunk, sizing.count, sizing.spare_fibres)


@settings(max_examples=200, deadline=None)
@given(_TRUNK_SETS, st.lists(st.sampled_from(_MPO12_OS2), max_size=60))
def test_pass_through_trunks_hold_every_leg_and_count_every_fibre(
    trunks: tuple[Trunk, ...], optics: list[Optic]
) -> None:
    catalog = replace(BUILTIN, trunks=trunks)
    links = [PatchedLink(f"L{i}", o) for i, o in enumerate(optics)]
    sizing = size_trunks("R", links, 10_000, catalog, termination=TrunkTermination.PASS_THROUGH)
    legs = sum(o.ports for o in optics)
    assert sizing.legs_needed == legs
    assert sizing.fibres == sizing.fibres_needed + sizing.dark_fibres + sizing.spare_fibres
    assert sizing.dark_fibres == legs * 12 - sizing.fibres_needed
    _check_rounding(sizing, trunks, legs, 12, sizing.trunk.connectors_per_end)


_MPO_PANEL = st.integers(min_value=1, max_value=12).map(
    lambda ports: PatchPanel(
        name="P",
        height_u=1,
        ports=ports,
        front_connector=Connector.MPO_12,
        rear_connector=Connector.MPO_12,
        cassette_slots=None,
        source="test",
    )
)


@settings(max_examples=200, deadline=None)
@given(
    _MPO_PANEL,
    st.integers(min_value=0, max_value=4),
    st.lists(st.sampled_from(_MPO12_OS2), max_size=40),
    st.data(),
)
def test_panel_ports_are_unique_within_the_racks_panels_and_in_order(
    panel: PatchPanel, max_panels: int, optics: list[Optic], data: st.DataObject
) -> None:
    links = [PatchedLink(f"L{i}", o) for i, o in enumerate(optics)]
    allocation = allocate_panel_ports("R", panel, links, max_panels=max_panels)

    taken = [(a.panel, p) for a in allocation.assigned for p in range(a.port, a.port + a.ports)]
    assert len(set(taken)) == len(taken)
    assert all(1 <= n <= max_panels and 1 <= p <= panel.ports for n, p in taken)
    assert [a.ports for a in allocation.assigned] == [o.ports for o in optics[: len(allocation.assigned)]]
    assert [(a.panel, a.port) for a in allocation.assigned] == sorted((a.panel, a.port) for a in allocation.assigned)
    refused = allocation.exhaustion.links if allocation.exhaustion else ()
    assert [a.link for a in allocation.assigned] + list(refused) == [link.name for link in links]
    if allocation.exhaustion is not None:
        assert allocation.exhaustion.short == sum(o.ports for o in optics[len(allocation.assigned) :]) > 0
    else:
        assert sum(o.ports for o in optics) <= max_panels * panel.ports
    k = data.draw(st.integers(min_value=0, max_value=len(links)))
    prefix = allocate_panel_ports("R", panel, links[:k], max_panels=max_panels)
    assert prefix.assigned == allocation.assigned[: min(k, len(allocation.assigned))]
