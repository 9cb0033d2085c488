"""Layout rules: geometry, rack units, ports, aisles and oversubscription (pure, with Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain import layout_rules as rules
from loopline.domain.layout import (
    FabricSettings,
    FabricSwitch,
    FabricType,
    Hall,
    LogicalRack,
    NetworkRackPlacement,
    Point,
    Rack,
    RackRole,
    RackType,
    Row,
    ServerModel,
    Side,
    SwitchModel,
)

RT = RackType()


def row(name: str, x: int, y: int, n: int, direction: int = 0, front: Side = Side.LEFT, **rack: object) -> Row:
    return Row(
        name,
        Point(x, y),
        direction,
        front,
        tuple(Rack(f"{name}-{i:02d}", position_mm=i * RT.width_mm, **rack) for i in range(n)),  # type: ignore[arg-type]
    )


def codes(issues: list[rules.Issue]) -> list[str]:
    return [i.code for i in issues]


# ---------------------------------------------------------------- geometry


def test_touching_racks_and_rows_are_fine() -> None:
    hall = Hall("H", 10_000, 10_000, (row("A", 0, 0, 5), row("B", 0, 1200, 5, front=Side.RIGHT)))
    assert rules.check_geometry(hall) == []


def test_overlapping_racks_name_the_rack_and_the_field() -> None:
    hall = Hall("H", 10_000, 10_000, (row("A", 0, 0, 3), row("B", 300, 600, 3)))
    issues = rules.check_geometry(hall)
    assert set(codes(issues)) == {"rack_overlap"}
    assert issues[0].field.startswith("rows[B].racks[B-0")
    assert issues[0].field.endswith(".position_m")
    assert "overlaps rack" in issues[0].message


def test_rack_outside_the_hall() -> None:
    hall = Hall("H", 2_000, 10_000, (row("A", 0, 0, 4),))
    issues = rules.check_geometry(hall)
    assert codes(issues) == ["rack_outside_hall"]  # A-03 spans x 1.8..2.4 m
    assert issues[0].field == "rows[A].racks[A-03].position_m"
    assert "outside the hall floor (2 x 10 m)" in issues[0].message


def test_rotated_rows_extend_to_their_left() -> None:
    # direction 90: runs along +y, racks extend towards -x (left-hand normal).
    r = row("A", 1_200, 0, 2, direction=90)
    assert r.footprint(r.racks[0]) == (0, 0, 1_200, 600)
    hall = Hall("H", 1_200, 1_200, (r,))
    assert rules.check_geometry(hall) == []


boxes = st.lists(
    st.tuples(
        st.integers(0, 20).map(lambda v: v * 300),  # x on a 0.3 m grid
        st.integers(0, 20).map(lambda v: v * 300),
        st.sampled_from([0, 90, 180, 270]),
    ),
    min_size=1,
    max_size=12,
)


def _brute_force_overlaps(rows: list[Row]) -> int:
    flat = [(r, k) for r in rows for k in r.racks]
    hits = 0
    for i, (ra, ka) in enumerate(flat):
        for rb, kb in flat[i + 1 :]:
            a, b = ra.footprint(ka), rb.footprint(kb)
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                hits += 1
    return hits


@settings(max_examples=200, deadline=None)
@given(boxes)
def test_overlap_detection_matches_brute_force(spec: list[tuple[int, int, int]]) -> None:
    rows = [
        Row(f"R{i}", Point(x + 2_000, y + 2_000), d, Side.LEFT, (Rack(f"K{i}"),)) for i, (x, y, d) in enumerate(spec)
    ]
    hall = Hall("H", 20_000, 20_000, tuple(rows))
    found = [i for i in rules.check_geometry(hall) if i.code == "rack_overlap"]
    assert len(found) == _brute_force_overlaps(rows)


@settings(max_examples=200, deadline=None)
@given(
    x=st.integers(-2_000, 12_000),
    y=st.integers(-2_000, 12_000),
    d=st.sampled_from([0, 90, 180, 270]),
    n=st.integers(1, 6),
)
def test_inside_hall_iff_every_corner_is_on_the_floor(x: int, y: int, d: int, n: int) -> None:
    r = row("A", x, y, n, direction=d)
    hall = Hall("H", 10_000, 10_000, (r,))
    outside = {i.field for i in rules.check_geometry(hall) if i.code == "rack_outside_hall"}
    for rack in r.racks:
        x0, y0, x1, y1 = r.footprint(rack)
        inside = x0 >= 0 and y0 >= 0 and x1 <= 10_000 and y1 <= 10_000
        assert (rules.rack_path(r, rack) + ".position_m" not in outside) == inside


# ---------------------------------------------------------------- rack units and ports


SERVER = ServerModel()
TOR = SwitchModel()


def test_u_collision_and_out_of_rack() -> None:
    rack = Rack(
        "K",
        logical_racks=(LogicalRack(15, base_u=1), LogicalRack(15, base_u=10), LogicalRack(15, base_u=40)),
    )
    issues = rules.check_units(Row("A", Point(0, 0)), rack)
    assert codes(issues) == ["u_out_of_rack", "u_collision"]
    assert issues[1].field == "rows[A].racks[K].logical_racks[1].base_u"
    assert issues[0].field == "rows[A].racks[K].logical_racks[2].base_u"


def test_fabric_switch_colliding_with_a_logical_rack() -> None:
    rack = Rack(
        "N", logical_racks=(LogicalRack(10, base_u=1),), fabric_switches=(FabricSwitch("SP1", "spine", TOR, 5),)
    )
    issues = rules.check_units(Row("A", Point(0, 0)), rack)
    assert codes(issues) == ["u_collision"]
    assert issues[0].field == "rows[A].racks[N].fabric_switches[SP1].u"


spans = st.lists(st.tuples(st.integers(1, 45), st.integers(0, 12), st.integers(1, 2)), min_size=0, max_size=5)


@settings(max_examples=300, deadline=None)
@given(spans)
def test_u_checks_match_brute_force(spec: list[tuple[int, int, int]]) -> None:
    lrs = tuple(LogicalRack(servers, server_model=ServerModel(height_u=h), base_u=base) for base, servers, h in spec)
    rack = Rack("K", logical_racks=lrs)
    issues = rules.check_units(Row("A", Point(0, 0)), rack)
    used: dict[int, int] = {}
    collide = out = False
    for lr in lrs:
        for u in range(lr.base_u, lr.top_u + 1):
            used[u] = used.get(u, 0) + 1
            collide |= used[u] > 1
            out |= u > rack.rack_type.height_u
    assert ("u_collision" in codes(issues)) == collide
    assert ("u_out_of_rack" in codes(issues)) == out


def test_ports_beyond_the_nic_and_a_short_tor() -> None:
    ok = LogicalRack(15, ports_used=2)
    assert rules.check_logical_rack("lr", ok) == []
    too_many = LogicalRack(20, ports_used=3)
    assert codes(rules.check_logical_rack("lr", too_many)) == ["ports_beyond_nic", "tor_ports_short"]
    assert rules.check_logical_rack("lr", too_many)[0].field == "lr.ports_used"
    short = LogicalRack(30, server_model=ServerModel(nic_ports=2), ports_used=2)
    issues = rules.check_logical_rack("lr", short)
    assert codes(issues) == ["tor_ports_short"]
    assert issues[0].field == "lr.tor_model"
    assert "60 server-facing ToR ports" in issues[0].message


# ---------------------------------------------------------------- aisles


def test_facing_pairs_make_cold_aisles_and_backs_make_hot_ones() -> None:
    a = row("A", 0, 0, 4, front=Side.LEFT)
    b = row("B", 0, 2_400, 4, front=Side.RIGHT)  # 1.2 m cold aisle between A and B
    c = row("C", 0, 4_400, 4, front=Side.LEFT)  # 0.8 m hot aisle between B and C
    d = row("D", 0, 6_000, 4, front=Side.LEFT)  # C faces D's back: mixed
    aisles = rules.derive_aisles(Hall("H", 10_000, 10_000, (a, b, c, d)))
    assert [(x.row_a, x.row_b, x.kind.value, x.width_mm) for x in aisles] == [
        ("A", "B", "cold", 1_200),
        ("B", "C", "hot", 800),
        ("C", "D", "mixed", 400),
    ]
    warnings = rules.check_aisles(aisles)
    assert codes(warnings) == ["aisle_too_narrow", "aisle_too_narrow", "aisle_mixed"]
    assert "hot aisle between rows 'B' and 'C' is 0.8 m wide, below the minimum of 0.9 m" in warnings[0].message


def test_aisles_between_vertical_rows_and_custom_minimums() -> None:
    # Rows along +y extend towards -x; A's front (left) faces -x... so put B to A's right-hand side.
    a = row("A", 2_400, 0, 3, direction=90, front=Side.RIGHT)  # occupies x 1.2..2.4, fronts face +x
    b = row("B", 4_600, 0, 3, direction=90, front=Side.LEFT)  # occupies x 3.4..4.6, fronts face -x
    aisles = rules.derive_aisles(Hall("H", 10_000, 10_000, (a, b)))
    assert [(x.kind.value, x.width_mm) for x in aisles] == [("cold", 1_000)]
    custom = rules.derive_aisles(Hall("H", 10_000, 10_000, (a, b)), min_cold_mm=1_000)
    assert [(x.min_width_mm, x.too_narrow) for x in custom] == [(1_000, False)]
    assert codes(rules.check_aisles(custom)) == []
    assert [(x.min_width_mm, x.too_narrow) for x in aisles] == [(1_200, True)]
    assert codes(rules.check_aisles(aisles)) == ["aisle_too_narrow"]


def test_each_kind_is_judged_by_the_halls_own_minimum() -> None:
    # The same rows as above (1.2 m cold, 0.8 m hot, 0.4 m mixed) in a hall asking 1.5 m cold, 0.7 m hot:
    # a mixed aisle has exhaust on one side, so it is held to the hot minimum.
    a = row("A", 0, 0, 4, front=Side.LEFT)
    b = row("B", 0, 2_400, 4, front=Side.RIGHT)
    c = row("C", 0, 4_400, 4, front=Side.LEFT)
    d = row("D", 0, 6_000, 4, front=Side.LEFT)
    aisles = rules.derive_aisles(Hall("H", 10_000, 10_000, (a, b, c, d)), min_cold_mm=1_500, min_hot_mm=700)
    assert [(x.kind.value, x.width_mm, x.min_width_mm, x.too_narrow) for x in aisles] == [
        ("cold", 1_200, 1_500, True),
        ("hot", 800, 700, False),
        ("mixed", 400, 700, True),
    ]
    warnings = rules.check_aisles(aisles)
    assert codes(warnings) == ["aisle_too_narrow", "aisle_too_narrow", "aisle_mixed"]
    assert warnings[0].message == "cold aisle between rows 'A' and 'B' is 1.2 m wide, below the minimum of 1.5 m"
    assert warnings[1].message == "mixed aisle between rows 'C' and 'D' is 0.4 m wide, below the minimum of 0.7 m"
    issues = rules.validate_hall(Hall("H", 10_000, 10_000, (a, b, c, d)), min_cold_mm=1_500, min_hot_mm=700)
    assert codes(issues) == codes(warnings)


def test_rows_far_apart_still_form_an_aisle() -> None:
    # No distance cut-off: the nearest parallel row across is the aisle's other side, 8 m away or not.
    a = row("A", 0, 0, 4, front=Side.LEFT)
    b = row("B", 0, 9_200, 4, front=Side.RIGHT)
    aisles = rules.derive_aisles(Hall("H", 20_000, 20_000, (a, b)))
    assert [(x.row_a, x.row_b, x.kind.value, x.width_mm, x.too_narrow) for x in aisles] == [
        ("A", "B", "cold", 8_000, False)
    ]
    assert (aisles[0].x0_mm, aisles[0].y0_mm, aisles[0].x1_mm, aisles[0].y1_mm) == (0, 1_200, 2_400, 9_200)


# ---------------------------------------------------------------- oversubscription


def test_oversubscription_leaf_spine_and_fat_tree() -> None:
    rk = Rack("K", logical_racks=(LogicalRack(15, ports_used=2), LogicalRack(15, ports_used=2)))
    rows = tuple(Row(f"R{i}", Point(0, i * 3_000), racks=(rk,) * 4) for i in range(4))
    hall = Hall("H", 10_000, 20_000, rows)
    leaf = rules.oversubscription(hall, FabricSettings(FabricType.LEAF_SPINE, tor_uplinks=4, tor_uplink_gbps=100))
    assert leaf[0].layer == "tor" and leaf[0].switches == 32
    assert leaf[0].ratio == 1.875  # 15 x 2 x 25G = 750G over 4 x 100G
    assert leaf[1].layer == "spine" and leaf[1].ratio is None
    tree = rules.oversubscription(
        hall,
        FabricSettings(
            FabricType.FAT_TREE,
            tor_uplinks=4,
            tor_uplink_gbps=100,
            aggs_per_cluster=2,
            agg_uplinks=16,
            agg_uplink_gbps=100,
            rows_per_cluster=2,
        ),
    )
    assert [x.layer for x in tree] == ["tor", "agg", "core"]
    # 2 clusters of 16 ToRs x 400G = 6400G down over 2 x 16 x 100G = 3200G up per cluster.
    assert tree[1].switches == 4 and tree[1].ratio == 2.0 and tree[1].worst_ratio == 2.0


def test_short_tor_uplinks_warn() -> None:
    rk = Rack("K", logical_racks=(LogicalRack(10),))
    hall = Hall("H", 10_000, 10_000, (Row("A", Point(0, 0), racks=(rk,)),))
    issues = rules.check_fabric(hall, FabricSettings(tor_uplinks=16))
    assert codes(issues) == ["tor_uplinks_short"]
    assert rules.validate_hall(hall, fabric=FabricSettings(tor_uplinks=4)) == []


def test_network_rack_placement_and_switch_counts() -> None:
    spine = SwitchModel(name="spine", server_ports=64, uplink_ports=0)
    net = Rack("N", role=RackRole.NETWORK, fabric_switches=(FabricSwitch("SP1", "spine", spine, 20),))

    def hall_with(index: int, n: int = 4) -> Hall:
        racks = [Rack(f"K{i}", position_mm=600 * i) for i in range(n)]
        racks.insert(index, net)
        racks = [
            Rack(r.name, position_mm=600 * i, role=r.role, fabric_switches=r.fabric_switches)
            for i, r in enumerate(racks)
        ]
        return Hall("H", 10_000, 10_000, (Row("A", Point(0, 0), racks=tuple(racks)),))

    end = FabricSettings(spines=1, network_rack_placement=NetworkRackPlacement.END_OF_ROW)
    middle = FabricSettings(spines=1, network_rack_placement=NetworkRackPlacement.MIDDLE_OF_ROW)
    dedicated = FabricSettings(spines=1, network_rack_placement=NetworkRackPlacement.DEDICATED_ROW)
    assert rules.check_network_racks(hall_with(4), end) == []
    assert rules.check_network_racks(hall_with(0), end) == []
    assert codes(rules.check_network_racks(hall_with(2), end)) == ["network_rack_placement"]
    assert rules.check_network_racks(hall_with(2), middle) == []
    assert codes(rules.check_network_racks(hall_with(0), middle)) == ["network_rack_placement"]
    assert codes(rules.check_network_racks(hall_with(4), dedicated)) == ["network_rack_placement"]
    assert rules.check_network_racks(hall_with(0, n=0), dedicated) == []
    issues = rules.check_network_racks(hall_with(4), FabricSettings(spines=4))
    assert codes(issues) == ["fabric_switch_count"] and issues[0].field == "fabric.spines"
    assert "ask for 4 spine switches in this hall, 1 are placed" in issues[0].message
