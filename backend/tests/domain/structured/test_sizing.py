"""Hand-derived sizing cases (issue 29): breakout lanes of a fabric switch, trunks of a route, panel
front ports of a rack. Optics are the builtin catalog's (400G-DR4 breaks out into 4 x 100G-DR,
800G-2xDR4 into 2 x 400G-DR4 or 8 x 100G-DR); trunks and panels are built here where a case needs
sold lengths or counts the builtin entries do not have."""

from __future__ import annotations

from dataclasses import replace

import pytest

from loopline.domain.errors import DomainError
from loopline.domain.facility.model import CableFacts
from loopline.domain.structured.catalog import (
    Connector,
    FibreKind,
    Gender,
    PatchPanel,
    StructuredCatalog,
    Trunk,
    TrunkPolarity,
    builtin_catalog,
)
from loopline.domain.structured.sizing import (
    LaneAssignment,
    LinkRefusal,
    PanelPortAssignment,
    PatchedLink,
    TrunkTermination,
    allocate_lanes,
    allocate_panel_ports,
    link_fibres,
    port_lanes,
    size_trunks,
)

BUILTIN = builtin_catalog()
DR4 = BUILTIN.optic("400G-DR4")
DR = BUILTIN.optic("100G-DR")
TWIN = BUILTIN.optic("800G-2xDR4")
SR4 = BUILTIN.optic("100G-SR4")
DR8 = BUILTIN.optic("800G-DR8")


def _trunk(fibres: int, lengths_m: tuple[int, ...] = (), connector: Connector = Connector.MPO_12) -> Trunk:
    return Trunk(
        name=f"T-{fibres}F",
        fibres=fibres,
        connector=connector,
        polarity=TrunkPolarity.B,
        gender_a=Gender.UNPINNED,
        gender_b=Gender.UNPINNED,
        fibre=FibreKind.OS2,
        lengths_mm=tuple(m * 1000 for m in lengths_m),
        physical=CableFacts(),
        source="test",
    )


def _catalog(*trunks: Trunk) -> StructuredCatalog:
    return replace(BUILTIN, trunks=trunks)


def _links(optic_part: str, n: int, prefix: str = "L") -> list[PatchedLink]:
    return [PatchedLink(f"{prefix}{i + 1}", BUILTIN.optic(optic_part)) for i in range(n)]


# --- Breakout lanes ------------------------------------------------------------------------------


def test_a_64_port_400g_dr4_spine_serves_256_100g_uplinks_and_refuses_the_257th() -> None:
    lanes = port_lanes("spine SP1", 64, DR4, 100.0, breakout=True, catalog=BUILTIN)
    assert (lanes.lanes_per_port, lanes.capacity, lanes.lane_optic) == (4, 256, "100G-DR")
    links = [f"uplink {i}" for i in range(1, 257)] + ["ToR R03-07 uplink 2", "ToR R03-08 uplink 1"]

    allocation = allocate_lanes(lanes, links)

    assert allocation.full
    assert len(allocation.assigned) == 256
    # Port 1's four lanes first, then port 2's: link i (from 0) on port i // 4 + 1, lane i % 4 + 1.
    assert allocation.assigned[0] == LaneAssignment("uplink 1", 1, 1)
    assert allocation.assigned[3] == LaneAssignment("uplink 4", 1, 4)
    assert allocation.assigned[4] == LaneAssignment("uplink 5", 2, 1)
    assert allocation.assigned[255] == LaneAssignment("uplink 256", 64, 4)
    assert allocation.refused == (
        LinkRefusal(
            "ToR R03-07 uplink 2",
            "spine SP1: 64 ports x 4 lanes of 100G = 256 links; the 257th (ToR R03-07 uplink 2) has no lane",
        ),
        LinkRefusal(
            "ToR R03-08 uplink 1",
            "spine SP1: 64 ports x 4 lanes of 100G = 256 links; the 258th (ToR R03-08 uplink 1) has no lane",
        ),
    )


def test_without_a_breakout_each_port_serves_one_link() -> None:
    for asked in (True, False):
        lanes = port_lanes("spine SP1", 64, DR4, 400.0, breakout=asked, catalog=BUILTIN)
        assert (lanes.lanes_per_port, lanes.capacity, lanes.breakout, lanes.lane_optic) == (1, 64, None, "400G-DR4")
    allocation = allocate_lanes(lanes, [f"L{i}" for i in range(1, 66)])
    assert allocation.assigned[63] == LaneAssignment("L64", 64, 1)
    assert allocation.refused == (
        LinkRefusal("L65", "spine SP1: 64 ports of 400G = 64 links; the 65th (L65) has no port"),
    )


def test_an_800g_twin_dr4_port_breaks_out_into_8_x_100g_or_2_x_400g() -> None:
    into_100 = port_lanes("spine SP2", 32, TWIN, 100.0, breakout=True, catalog=BUILTIN)
    into_400 = port_lanes("spine SP2", 32, TWIN, 400.0, breakout=True, catalog=BUILTIN)
    assert (into_100.lanes_per_port, into_100.capacity, into_100.lane_optic) == (8, 256, "100G-DR")
    assert (into_400.lanes_per_port, into_400.capacity, into_400.lane_optic) == (2, 64, "400G-DR4")
    assert allocate_lanes(into_400, ["a", "b", "c"]).assigned == (
        LaneAssignment("a", 1, 1),
        LaneAssignment("b", 1, 2),
        LaneAssignment("c", 2, 1),
    )


def test_a_port_slower_than_its_links_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        port_lanes("spine SP1", 64, DR, 400.0, breakout=True, catalog=BUILTIN)
    assert err.value.field == "switches[spine SP1].port_optic"
    assert err.value.reason == "spine SP1's 100G-DR ports (100G) are slower than the 400G links it must serve"


def test_a_faster_port_needs_the_planner_to_ask_for_breakouts() -> None:
    with pytest.raises(DomainError) as err:
        port_lanes("spine SP1", 64, DR4, 100.0, breakout=False, catalog=BUILTIN)
    assert err.value.field == "switches[spine SP1].breakout"
    assert err.value.reason == (
        "spine SP1's 400G-DR4 ports (400G) are faster than the 100G links it must serve; each would serve"
        " them as 4 x 100G-DR with breakouts, which the plan does not ask for"
    )


def test_a_faster_port_without_a_breakout_into_the_links_speed_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        port_lanes("spine SP1", 64, DR4, 200.0, breakout=True, catalog=BUILTIN)
    assert err.value.field == "switches[spine SP1].port_optic"
    assert err.value.reason == (
        "spine SP1's 400G-DR4 ports (400G) have no breakout into 200G links (its breakouts: 4 x 100G-DR)"
    )
    with pytest.raises(DomainError) as err:
        port_lanes("spine SP1", 64, BUILTIN.optic("400G-FR4"), 100.0, breakout=True, catalog=BUILTIN)
    assert err.value.reason.endswith("have no breakout into 100G links (its breakouts: none)")


def test_bad_port_counts_and_repeated_links_are_refused() -> None:
    with pytest.raises(DomainError) as err:
        port_lanes("spine SP1", 0, DR4, 100.0, breakout=True, catalog=BUILTIN)
    assert (err.value.field, err.value.reason) == ("switches[spine SP1].ports", "must be at least 1")
    lanes = port_lanes("spine SP1", 2, DR4, 100.0, breakout=True, catalog=BUILTIN)
    with pytest.raises(DomainError) as err:
        allocate_lanes(lanes, ["a", "b", "a"])
    assert (err.value.field, err.value.reason) == ("switches[spine SP1].links[2]", "link 'a' is listed twice")


@pytest.mark.parametrize(
    ("ports", "ordinal"),
    [(1, "2nd"), (2, "3rd"), (3, "4th"), (10, "11th"), (11, "12th"), (12, "13th"), (20, "21st"), (110, "111th")],
)
def test_the_refused_link_is_counted_in_words(ports: int, ordinal: str) -> None:
    lanes = port_lanes("leaf", ports, DR, 100.0, breakout=False, catalog=BUILTIN)
    allocation = allocate_lanes(lanes, [f"L{i}" for i in range(ports + 1)])
    assert allocation.refused[0].reason == (
        f"leaf: {ports} ports of 100G = {ports} links; the {ordinal} (L{ports}) has no port"
    )


# --- Trunk sizing --------------------------------------------------------------------------------


def test_fibres_a_link_uses_are_its_optics_transmit_and_receive_positions() -> None:
    assert link_fibres(DR) == 2  # duplex LC: Tx 1, Rx 2
    assert link_fibres(DR4) == 8  # Tx 1-4, Rx 9-12
    assert link_fibres(TWIN) == 16  # two DR4 ports
    assert link_fibres(DR8) == 16  # positions unknown: all 16 of its MPO-16


def test_ten_dr4_links_take_four_24_fibre_trunks_with_16_spare() -> None:
    catalog = _catalog(_trunk(24, (5, 10, 20, 30)))
    sizing = size_trunks("R01 -> MDA", _links("400G-DR4", 10), 12_300, catalog, termination=TrunkTermination.CASSETTE)
    # 10 x 8 = 80 fibres; no trunk holds 80, so 80 / 24 rounded up = 4 of the largest: 96, 16 spare.
    assert (sizing.trunk.name, sizing.count, sizing.fibres) == ("T-24F", 4, 96)
    assert (sizing.fibres_needed, sizing.spare_fibres, sizing.dark_fibres) == (80, 16, 0)
    assert sizing.legs_needed == 7  # 80 fibres fill 7 MPO-12s
    assert (sizing.length_mm, sizing.ordered_length_mm, sizing.made_to_order) == (12_300, 20_000, False)
    assert sizing.notes == ()
    assert sizing.describe() == "R01 -> MDA: 4 x T-24F (24 fibres) at 20 m: 96 fibres for 80, 16 spare"
    # 12 x 8 = 96 fibres fill 4 x 24 exactly: no spare, no fifth trunk.
    exact = size_trunks("R01 -> MDA", _links("400G-DR4", 12), 12_300, catalog, termination=TrunkTermination.CASSETTE)
    assert (exact.count, exact.fibres, exact.spare_fibres) == (4, 96, 0)


def test_three_duplex_links_take_one_12_fibre_trunk() -> None:
    catalog = _catalog(_trunk(24, (5, 10)), _trunk(12, (5, 10)))
    sizing = size_trunks("R01 -> R09", _links("100G-DR", 3), 5_000, catalog, termination=TrunkTermination.CASSETTE)
    # 3 x 2 = 6 fibres: the smallest trunk holding 6 is the 12-fibre one; 5 m is a sold length.
    assert (sizing.trunk.name, sizing.count, sizing.fibres_needed, sizing.spare_fibres) == ("T-12F", 1, 6, 6)
    assert (sizing.ordered_length_mm, sizing.made_to_order) == (5_000, False)


def test_more_fibres_than_the_largest_trunk_holds_take_several_of_the_largest() -> None:
    catalog = _catalog(_trunk(12, (10,)), _trunk(24, (10,)))
    sizing = size_trunks("R01 -> R09", _links("100G-DR", 13), 9_000, catalog, termination=TrunkTermination.CASSETTE)
    # 26 fibres > 24: 2 x 24 = 48, 22 spare.
    assert (sizing.trunk.name, sizing.count, sizing.fibres, sizing.spare_fibres) == ("T-24F", 2, 48, 22)


def test_a_route_longer_than_every_sold_length_is_made_to_order() -> None:
    catalog = _catalog(_trunk(24, (5, 10, 30)))
    sizing = size_trunks("R01 -> MDA", _links("100G-DR", 2), 30_001, catalog, termination=TrunkTermination.CASSETTE)
    assert (sizing.ordered_length_mm, sizing.made_to_order) == (30_001, True)
    assert sizing.notes == ("T-24F made to order at 30.001 m: longer than its longest sold length, 30 m",)


def test_the_builtin_trunks_are_made_to_order_as_the_catalog_sells_no_length() -> None:
    sizing = size_trunks("R01 -> MDA", _links("100G-DR", 3), 42_500, BUILTIN, termination=TrunkTermination.CASSETTE)
    assert (sizing.trunk.name, sizing.count) == ("TRUNK-MPO-12-12F-B-UU-OS2", 1)
    assert (sizing.ordered_length_mm, sizing.made_to_order) == (42_500, True)
    assert sizing.notes == ("TRUNK-MPO-12-12F-B-UU-OS2 made to order at 42.5 m: the catalog gives it no sold length",)


def test_pass_through_dr4_links_take_a_whole_mpo_leg_each() -> None:
    # Builtin OS2 MPO-12 trunks: 12 fibres (1 leg) and 24 fibres (2 legs). Ten DR4 plugs need 10 legs:
    # 5 x 24F; each leg's 4 centre fibres stay dark (10 x 4 = 40), no leg is spare.
    sizing = size_trunks(
        "R01 -> MDA", _links("400G-DR4", 10), 42_500, BUILTIN, termination=TrunkTermination.PASS_THROUGH
    )
    assert (sizing.trunk.name, sizing.count, sizing.legs_needed) == ("TRUNK-MPO-12-24F-B-UU-OS2", 5, 10)
    assert (sizing.fibres, sizing.fibres_needed, sizing.dark_fibres, sizing.spare_fibres) == (120, 80, 40, 0)
    one = size_trunks("R01 -> MDA", _links("400G-DR4", 1), 42_500, BUILTIN, termination=TrunkTermination.PASS_THROUGH)
    assert (one.trunk.name, one.count, one.dark_fibres, one.spare_fibres) == ("TRUNK-MPO-12-12F-B-UU-OS2", 1, 4, 0)
    twin = size_trunks(
        "R01 -> MDA", _links("800G-2xDR4", 1), 42_500, BUILTIN, termination=TrunkTermination.PASS_THROUGH
    )
    assert (twin.trunk.name, twin.count, twin.legs_needed, twin.dark_fibres) == ("TRUNK-MPO-12-24F-B-UU-OS2", 1, 2, 8)


def test_unknown_fibre_positions_count_every_fibre_of_the_connector_and_say_so() -> None:
    catalog = _catalog(_trunk(12, (10,)), _trunk(24, (10,)))
    sizing = size_trunks("R01 -> MDA", _links("800G-DR8", 1), 10_000, catalog, termination=TrunkTermination.CASSETTE)
    assert (sizing.trunk.name, sizing.fibres_needed, sizing.spare_fibres) == ("T-24F", 16, 8)
    assert sizing.notes == (
        "fibres of 800G-DR8 counted as every fibre of its connectors: no source gives its positions",
    )


def test_trunk_sizing_refusals_name_the_route_and_the_reason() -> None:
    def refused(
        links: list[PatchedLink],
        termination: TrunkTermination,
        *,
        connector: Connector | None = None,
        length_mm: int = 10_000,
    ) -> tuple[str, str]:
        with pytest.raises(DomainError) as err:
            size_trunks("R01 -> MDA", links, length_mm, BUILTIN, termination=termination, connector=connector)
        return err.value.field, err.value.reason

    mixed = [PatchedLink("a", DR4), PatchedLink("b", SR4)]
    assert refused(mixed, TrunkTermination.CASSETTE) == (
        "trunk_routes[R01 -> MDA].links[1]",
        "b's 100G-SR4 runs on OM4, the route's first link on OS2: one trunk carries one fibre kind",
    )
    assert refused([PatchedLink("a", DR)], TrunkTermination.PASS_THROUGH) == (
        "trunk_routes[R01 -> MDA].links[0]",
        "a's 100G-DR has a duplex LC: it meets a trunk through a cassette, not an MPO pass-through",
    )
    assert refused([PatchedLink("a", DR4)], TrunkTermination.PASS_THROUGH, connector=Connector.MPO_24) == (
        "trunk_routes[R01 -> MDA].connector",
        "MPO-24 does not mate the links' MPO-12 plugs",
    )
    assert refused([PatchedLink("a", DR4), PatchedLink("b", DR8)], TrunkTermination.PASS_THROUGH) == (
        "trunk_routes[R01 -> MDA].links",
        "pass-through links of several connectors (MPO-12, MPO-16) on one trunk",
    )
    assert refused([PatchedLink("a", DR8)], TrunkTermination.PASS_THROUGH) == (
        "trunk_routes[R01 -> MDA].trunk",
        "the catalog has no trunk of OS2 with MPO-16",
    )
    assert refused([PatchedLink("a", DR4)], TrunkTermination.CASSETTE, length_mm=0) == (
        "trunk_routes[R01 -> MDA].length_mm",
        "must be positive",
    )


# --- Panel ports ---------------------------------------------------------------------------------

MPO_PANEL = PatchPanel(
    name="T-MPO-5",
    height_u=1,
    ports=5,
    front_connector=Connector.MPO_12,
    rear_connector=Connector.MPO_12,
    cassette_slots=None,
    source="test",
)


def test_150_duplex_links_on_two_72_port_panels_are_6_ports_short() -> None:
    panel = BUILTIN.panel("FS FHD-1UFCE")  # 1U, 72 LC duplex front ports
    allocation = allocate_panel_ports("R01-01", panel, _links("100G-DR", 150), max_panels=2, free_u=3)

    assert (allocation.panels, allocation.panels_used, len(allocation.assigned)) == (2, 2, 144)
    assert allocation.assigned[0] == PanelPortAssignment("L1", 1, 1, 1)
    assert allocation.assigned[71] == PanelPortAssignment("L72", 1, 72, 1)
    assert allocation.assigned[72] == PanelPortAssignment("L73", 2, 1, 1)
    assert allocation.assigned[143] == PanelPortAssignment("L144", 2, 72, 1)
    exhaustion = allocation.exhaustion
    assert exhaustion is not None
    assert (exhaustion.rack, exhaustion.panel, exhaustion.ports, exhaustion.ports_needed, exhaustion.short) == (
        "R01-01",
        "FS FHD-1UFCE",
        144,
        150,
        6,
    )
    assert exhaustion.links == ("L145", "L146", "L147", "L148", "L149", "L150")
    assert exhaustion.message == (
        "rack R01-01: 2 x FS FHD-1UFCE (at most 2 and 3 free U for 1U panels) hold 144 front ports (72 each);"
        " its 150 links need 150: 6 ports short (L145 and the 5 after it have none)"
    )


def test_the_racks_free_u_bound_the_panels() -> None:
    panel = BUILTIN.panel("FS FHD-2UFCE")  # 2U, 144 ports: 5 free U take 2 panels
    allocation = allocate_panel_ports("R02-01", panel, _links("100G-DR", 200), free_u=5)
    assert (allocation.panels, allocation.panels_used, allocation.exhaustion) == (2, 2, None)
    assert allocation.assigned[-1] == PanelPortAssignment("L200", 2, 56, 1)
    short = allocate_panel_ports("R02-01", panel, _links("100G-DR", 146), free_u=1)
    assert short.panels == 0
    assert short.exhaustion is not None
    assert short.exhaustion.message == (
        "rack R02-01: 0 x FS FHD-2UFCE (1 free U for 2U panels) hold 0 front ports (144 each);"
        " its 146 links need 146: 146 ports short (L1 and the 145 after it have none)"
    )


def test_a_twin_port_link_keeps_its_two_ports_on_one_panel() -> None:
    links = _links("800G-2xDR4", 3) + _links("400G-DR4", 1, prefix="D")
    allocation = allocate_panel_ports("R09-01", MPO_PANEL, links, max_panels=2)
    # 5 ports a panel: T1 on 1-2, T2 on 3-4; T3 needs 2 and only port 5 is left, so panel 2's 1-2;
    # D1 then takes panel 2's port 3 (panel 1's port 5 stays free: allocation only moves forward).
    assert allocation.assigned == (
        PanelPortAssignment("L1", 1, 1, 2),
        PanelPortAssignment("L2", 1, 3, 2),
        PanelPortAssignment("L3", 2, 1, 2),
        PanelPortAssignment("D1", 2, 3, 1),
    )
    assert allocation.exhaustion is None
    one_panel = allocate_panel_ports("R09-01", MPO_PANEL, links, max_panels=1)
    assert one_panel.exhaustion is not None
    assert (one_panel.exhaustion.short, one_panel.exhaustion.links) == (3, ("L3", "D1"))


def test_panel_port_refusals_name_the_link_or_the_rack() -> None:
    panel = BUILTIN.panel("FS FHD-1UFCE")
    with pytest.raises(DomainError) as err:
        allocate_panel_ports("R01-01", panel, [PatchedLink("up1", DR4)], max_panels=1)
    assert (err.value.field, err.value.reason) == (
        "links[up1].optic",
        "400G-DR4's MPO-12 does not fit FS FHD-1UFCE's LC-duplex front ports",
    )
    with pytest.raises(DomainError) as err:
        allocate_panel_ports("R01-01", panel, [])
    assert (err.value.field, err.value.reason) == (
        "racks[R01-01].panels",
        "give the panels the rack may hold or its free U",
    )
    with pytest.raises(DomainError) as err:
        allocate_panel_ports("R01-01", panel, [], free_u=-1)
    assert (err.value.field, err.value.reason) == ("racks[R01-01].free_u", "must not be negative")
