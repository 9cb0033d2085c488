"""Cable lengths computed by hand, in both geometry presets.

Hall used throughout (abstract layout): rows R01 (fronts face +y) and R02 (fronts face -y) across
a 1.2 m cold aisle, 4 compute racks each (K01..K04 along +x), b = 2 logical racks of r = 4 servers.
Seen from R01's cold aisle, "left" is +x, so R01's racks run K04, K03, K02, K01 left to right.

paper: racks 0.5 m wide, 10U high (b*(r+1)) scaled to 2.0 m -> 200 mm per U. ToR in the middle:
  L1: servers U1 U2 U4 U5, ToR U3;  L2: servers U6 U7 U9 U10, ToR U8.
  Port heights (centre of the U): U1 100, U2 300, U3 500, U4 700, U5 900, U6 1100, U7 1300,
  U8 1500, U9 1700, U10 1900 mm. Length = |dx| + |dy| + |dz|; no allowance, slack, rounding.
default: racks 0.6 m wide, 42U (1867 mm), tray 300 mm above -> T = 2167 mm. ToR on top:
  L1: servers U1..U4, ToR U5;  L2: servers U6..U9, ToR U10.
  z = round((u - 0.5) * 44.45): U1 22, U5 200, U6 244, U9 378, U10 422.
  Different racks: (T - za) + |dx| + |dy| + (T - zb). Same rack: |dz|.
  With slack: ceil((raw + 2*150) * 1.05); ordered: next sold length of the chosen part.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from _wiring_helpers import cable, hall, plan
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.errors import DomainError
from loopline.domain.media import Medium
from loopline.domain.routing import DEFAULT_GEOMETRY, PAPER_GEOMETRY, PortPoint, Via, route_mm
from loopline.domain.wiring import Pattern, WiringPlan, WiringSpec, generate_plan


def test_route_mm_primitive() -> None:
    a = PortPoint(0, 0, 100, rack=1)
    b = PortPoint(500, 1200, 900, rack=2)
    # paper: 500 + 1200 + 800
    assert route_mm(PAPER_GEOMETRY, 0, a, b) == 2500
    # default via a tray at 2000: (2000-100) + 500 + 1200 + (2000-900)
    assert route_mm(DEFAULT_GEOMETRY, 2000, a, b) == 1900 + 1700 + 1100
    # same rack: vertical only, in both presets
    c = PortPoint(0, 0, 900, rack=1)
    assert route_mm(DEFAULT_GEOMETRY, 2000, a, c) == 800
    assert route_mm(PAPER_GEOMETRY, 0, a, c) == 800


def test_paper_same_rack() -> None:
    p = plan(Pattern.SINGLE_HOMED, "paper", ports=1)
    # server U1 (100) to its ToR U3 (500): 400 mm
    c = cable(p, "H1.R01.K01.U01", "p1")
    assert c.b_device == "H1.R01.K01.U03"
    assert (c.raw_mm, c.slack_mm, c.ordered_mm) == (400, 400, 400)
    # server U10 (1900) to ToR U8 (1500): 400 mm
    assert cable(p, "H1.R01.K01.U10", "p1").raw_mm == 400
    assert cable(p, "H1.R01.K01.U09", "p1").raw_mm == 200


def test_paper_neighbour_rack_and_back_edge_side_to_side() -> None:
    # l = 8: one loop per row. R01 positions: 0 K04.L2, 1 K04.L1, 2 K03.L2, 3 K03.L1, ...,
    # 6 K01.L2, 7 K01.L1. p = 2: port 2 goes to the ToR at position i-1.
    p = plan(Pattern.SIDE_TO_SIDE, "paper", loop=8)
    # position 2 (K03.L2) server U10 (1900) -> ToR of position 1 (K04.L1, U3 = 500):
    # one rack over (500) + |1900 - 500| = 1900
    c = cable(p, "H1.R01.K03.U10", "p2")
    assert c.b_device == "H1.R01.K04.U03"
    assert c.raw_mm == 500 + 1400
    # position 1 (K04.L1) server U1 (100) -> ToR of position 0 (K04.L2, U8 = 1500), same rack: 1400
    assert cable(p, "H1.R01.K04.U01", "p2").raw_mm == 1400
    # back edge: position 0 (K04.L2) server U10 (1900) -> ToR of position 7 (K01.L1, U3 = 500):
    # three racks (1500) + 1400 = 2900
    c = cable(p, "H1.R01.K04.U10", "p2")
    assert c.b_device == "H1.R01.K01.U03"
    assert c.raw_mm == 1500 + 1400
    assert c.ordered_mm == c.raw_mm  # no rounding in paper


def test_paper_across_cold_aisle_paired_row() -> None:
    # paired rows, l = 16: R01 K04.L2 .. K01.L1 (positions 0..7), then R02 K01.L1, K01.L2, ...,
    # K04.L2 (positions 8..15). Position 8 (R02.K01.L1) port 2 -> ToR at position 7 (R01.K01.L1):
    # server U1 (100) to ToR U3 (500) across the 1.2 m aisle: 1200 + 400 = 1600
    p = plan(Pattern.PAIRED_ROW, "paper", loop=16)
    c = cable(p, "H1.R02.K01.U01", "p2")
    assert c.b_device == "H1.R01.K01.U03"
    assert c.raw_mm == 1600
    # and the loop closes across the aisle at the other end: position 0 (R01.K04.L2) -> ToR of
    # position 15 (R02.K04.L2, U8 = 1500): server U6 (1100): 1200 + 400 = 1600
    c = cable(p, "H1.R01.K04.U06", "p2")
    assert c.b_device == "H1.R02.K04.U08"
    assert c.raw_mm == 1600


def test_paper_meander_links() -> None:
    # inter-chassis, b = 2, l = 8 over K04..K01 (left to right): bottom chain
    # 0 K04.L1, 1 K03.L1, 2 K02.L1, 3 K01.L1, then back along the tops: 4 K01.L2, 5 K02.L2,
    # 6 K03.L2, 7 K04.L2; the loop closes 7 -> 0 inside K04.
    p = plan(Pattern.INTER_CHASSIS, "paper", loop=8)
    # position 1 (K03.L1) server U5 (900) -> ToR of position 0 (K04.L1, U3 = 500): 500 + 400
    assert cable(p, "H1.R01.K03.U05", "p2").b_device == "H1.R01.K04.U03"
    assert cable(p, "H1.R01.K03.U05", "p2").raw_mm == 900
    # position 4 (K01.L2) server U10 (1900) -> ToR of position 3 (K01.L1, U3 = 500): vertical 1400
    c = cable(p, "H1.R01.K01.U10", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K01.U03", 1400)
    # closing link: position 0 (K04.L1) server U1 (100) -> ToR of position 7 (K04.L2, U8): 1400
    c = cable(p, "H1.R01.K04.U01", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K04.U08", 1400)
    st = max(c.raw_mm for c in p.cables if c.link_class == "server_tor")
    assert st == 1400


def test_default_same_rack_and_neighbour() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=8)
    # same rack: server U1 (22) to its own ToR U5 (200): 178; slack ceil((178+300)*1.05) = 502;
    # cheapest medium a 25G DAC, next sold length 1.0 m
    c = cable(p, "H1.R01.K01.U01", "p1")
    assert (c.b_device, c.raw_mm, c.slack_mm, c.ordered_mm) == ("H1.R01.K01.U05", 178, 502, 1000)
    assert c.medium is Medium.DAC
    # neighbour rack: position 2 (K03.L2) server U6 (244) -> ToR of position 1 (K04.L1, U5 = 200)
    # (2167 - 244) + 600 + (2167 - 200) = 1923 + 600 + 1967 = 4490;
    # slack ceil(4790 * 1.05) = 5030 > 5 m DAC -> 7 m active copper
    c = cable(p, "H1.R01.K03.U06", "p2")
    assert (c.b_device, c.raw_mm, c.slack_mm, c.ordered_mm) == ("H1.R01.K04.U05", 4490, 5030, 7000)
    assert c.medium is Medium.ACC
    # back edge: position 0 (K04.L2) server U9 (378) -> ToR of position 7 (K01.L1, U5 = 200):
    # (2167 - 378) + 3 * 600 + 1967 = 1789 + 1800 + 1967 = 5556
    c = cable(p, "H1.R01.K04.U09", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K01.U05", 5556)


def test_default_across_cold_aisle() -> None:
    p = plan(Pattern.PAIRED_ROW, loop=16)
    # position 8 (R02.K01.L1) server U1 (22) -> R01.K01 ToR U5 (200) across the aisle:
    # (2167 - 22) + 1200 + (2167 - 200) = 2145 + 1200 + 1967 = 5312
    c = cable(p, "H1.R02.K01.U01", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K01.U05", 5312)
    # ceil((5312 + 300) * 1.05) = 5893 -> 7 m active copper
    assert (c.slack_mm, c.ordered_mm, c.medium) == (5893, 7000, Medium.ACC)


def test_default_meander_links() -> None:
    p = plan(Pattern.INTER_CHASSIS, loop=8)
    # along the bottom chain: position 1 (K03.L1) server U1 (22) -> ToR of position 0 (K04.L1,
    # U5 = 200): (2167 - 22) + 600 + (2167 - 200) = 2145 + 600 + 1967 = 4712
    c = cable(p, "H1.R01.K03.U01", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K04.U05", 4712)
    # along the top chain: position 5 (K02.L2) server U9 (378) -> ToR of position 4 (K01.L2,
    # U10 = 422): (2167 - 378) + 600 + (2167 - 422) = 1789 + 600 + 1745 = 4134
    c = cable(p, "H1.R01.K02.U09", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K01.U10", 4134)
    # closing link inside K04: position 0 (K04.L1) server U1 (22) -> ToR of K04.L2 (U10 = 422): 400
    c = cable(p, "H1.R01.K04.U01", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K04.U10", 400)


def test_configurable_allowance_and_slack() -> None:
    g = DEFAULT_GEOMETRY.with_lengths(service_allowance_mm=500, slack_pct=10)
    # (1000 + 2*500) * 1.10 = 2200
    assert g.with_slack_mm(1000) == 2200
    assert PAPER_GEOMETRY.with_slack_mm(1234) == 1234


def test_default_under_a_raised_floor() -> None:
    h = replace(hall(ports=2), raised_floor_mm=600)
    g = DEFAULT_GEOMETRY.with_route(Via.FLOOR)
    p = generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, loop=8), geometry=g)
    # K03.L2 server U6 (244) -> K04.L1 ToR U5 (200): down 244 + 300 (half the void), along 600,
    # up 300 + 200 = 1644
    c = cable(p, "H1.R01.K03.U06", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K04.U05", 1644)
    # same rack: still a vertical run, 178
    assert cable(p, "H1.R01.K01.U01", "p1").raw_mm == 178
    assert route_mm(g, 0, PortPoint(0, 0, 100, 1), PortPoint(600, 0, 200, 2), floor_mm=600) == 100 + 600 + 600 + 200
    with pytest.raises(DomainError, match="needs a raised floor"):
        generate_plan(hall(ports=2), WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2), geometry=g)


def test_default_across_a_middle_network_rack() -> None:
    # network rack N01 in the middle of each row: K01 at 0, K02 at 600, N01 at 1200, K03 at 1800.
    p = plan(Pattern.SIDE_TO_SIDE, loop=8, network_rack="middle")
    # position 4 (K02.L2) server U6 (244) -> ToR of position 3 (K03.L1, U5 = 200), two rack
    # widths away: (2167 - 244) + 1200 + (2167 - 200) = 1923 + 1200 + 1967 = 5090
    c = cable(p, "H1.R01.K02.U06", "p2")
    assert (c.b_device, c.raw_mm) == ("H1.R01.K03.U05", 5090)
    end = plan(Pattern.SIDE_TO_SIDE, loop=8)

    def longest_uplink(x: WiringPlan) -> int:
        return max(c.raw_mm for c in x.cables if c.link_class == "tor_fabric")

    assert longest_uplink(p) < longest_uplink(end)


def test_paper_tor_exactly_mid_logical_rack_for_odd_r() -> None:
    # r = 3, b = 1: a 4U rack scaled to 2000 mm (500 mm per U); ToR at U2 (servers U1, U3, U4).
    # The paper model puts the ToR in the middle of its logical rack: z = 1000 (not U2's 750).
    # server U4 (centre 1750) -> ToR: 750; server U1 (250) -> ToR: 750
    p = plan(Pattern.SINGLE_HOMED, "paper", ports=1, logical_per_rack=1, servers_per_logical_rack=3)
    assert cable(p, "H1.R01.K01.U04", "p1").raw_mm == 750
    assert cable(p, "H1.R01.K01.U01", "p1").raw_mm == 750


def test_port_faces_default_from_layout_paper_on_the_cold_aisle() -> None:
    from loopline.domain.layout import Face

    h = hall("default", ports=1, racks_per_row=1, logical_per_rack=1, servers_per_logical_rack=2)
    rear = replace(h, rows=tuple(
        replace(r, racks=tuple(replace(k, port_face=Face.REAR) for k in r.racks)) for r in h.rows
    ))  # fmt: skip
    spec = WiringSpec(pattern=Pattern.SINGLE_HOMED, ports=1)
    # R01 fronts face +y at y = 1200 + 1200 = 2400; its rear face is the row line, y = 1200
    front = {d.name: d.y_mm for d in generate_plan(h, spec).devices}
    back = {d.name: d.y_mm for d in generate_plan(rear, spec).devices}
    paper = {d.name: d.y_mm for d in generate_plan(rear, spec, geometry=PAPER_GEOMETRY).devices}
    assert (front["H1.R01.K01.U01"], back["H1.R01.K01.U01"], paper["H1.R01.K01.U01"]) == (2400, 1200, 2400)


coords = st.integers(0, 50_000)
heights = st.integers(0, 2000)


@settings(max_examples=60, deadline=None)
@given(coords, coords, heights, coords, coords, heights, st.booleans(), st.integers(0, 1000))
def test_route_properties(ax: int, ay: int, az: int, bx: int, by: int, bz: int, same: bool, floor: int) -> None:
    a = PortPoint(ax, ay, az, 1)
    b = PortPoint(bx if not same else ax, by if not same else ay, bz, 1 if same else 2)
    manhattan = abs(a.x_mm - b.x_mm) + abs(a.y_mm - b.y_mm) + abs(a.z_mm - b.z_mm)
    tray = 2167
    for g in (DEFAULT_GEOMETRY, PAPER_GEOMETRY, DEFAULT_GEOMETRY.with_route(Via.FLOOR)):
        d = route_mm(g, tray, a, b, floor_mm=floor)
        assert d == route_mm(g, tray, b, a, floor_mm=floor)  # symmetric
        assert d >= manhattan  # never shorter than the 3D Manhattan distance
        if same or g is PAPER_GEOMETRY:
            assert d == manhattan
    # via the tray: exactly the two vertical runs more than the floor distance
    if not same:
        flat = abs(ax - bx) + abs(ay - by)
        assert route_mm(DEFAULT_GEOMETRY, tray, a, b) == flat + (tray - az) + (tray - bz)
