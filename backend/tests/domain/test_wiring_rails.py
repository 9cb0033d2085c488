"""The rail patterns of GPU clusters (issue 31): rail-optimized and rail-only.

A GPU hall is built here from numbers: rows of compute racks, each with one logical rack of 8U GPU
servers (their own ToR stands for the front-end ToR, which the compute fabric does not use), and one
network rack per row holding the spines. Hand-derived cases first, then Hypothesis invariants."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loopline.domain.errors import DomainError
from loopline.domain.layout import (
    FabricSwitch,
    Hall,
    LogicalRack,
    Point,
    Rack,
    RackRole,
    RackType,
    Row,
    ServerModel,
    Side,
    SwitchModel,
)
from loopline.domain.routing import DEFAULT_GEOMETRY
from loopline.domain.scenario import build_scenario
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.layout import structure_plan
from loopline.domain.structured.plant import Cabling, StructuredSettings
from loopline.domain.wiring import (
    FabricSpec,
    LinkClass,
    Pattern,
    RailSpec,
    Role,
    WiringPlan,
    WiringSpec,
    generate_plan,
)

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "sim-engine" / "target" / "release" / "loopline-sim"

LEAF = SwitchModel("32x400G+32x400G leaf", server_ports=32, server_port_gbps=400.0, uplink_ports=32, uplink_gbps=400.0)
SPINE = SwitchModel("64x400G spine", server_ports=64, server_port_gbps=400.0, uplink_ports=0, uplink_gbps=400.0)
FRONT_END_TOR = SwitchModel("32x100G front-end ToR", server_ports=32, server_port_gbps=100.0, uplink_ports=8)


def gpu_hall(
    rows: int = 2,
    racks: int = 4,
    servers: int = 4,
    *,
    rails: int = 8,
    spines_per_row: int = 2,
    spine: SwitchModel = SPINE,
    network_rack_u: int = 42,
) -> Hall:
    """`rows` rows of `racks` compute racks K01.. (one logical rack of `servers` GPU servers each)
    and a network rack N01 at the row's end with `spines_per_row` spines at its top."""
    server = ServerModel(f"{rails}x400G GPU server", nic_ports=rails, port_gbps=400.0, height_u=8)
    out: list[Row] = []
    n = 0
    for r in range(rows):
        compute = [
            Rack(
                f"K{k + 1:02d}",
                position_mm=600 * k,
                logical_racks=(LogicalRack(servers, server, FRONT_END_TOR, base_u=1, ports_used=rails),),
            )
            for k in range(racks)
        ]
        switches = []
        for s in range(spines_per_row):
            n += 1
            switches.append(FabricSwitch(f"SP{n}", "spine", spine, u=network_rack_u - s * spine.height_u))
        network = Rack(
            "N01",
            position_mm=600 * racks,
            role=RackRole.NETWORK,
            fabric_switches=tuple(switches),
            rack_type=RackType(height_u=network_rack_u),
        )
        out.append(Row(f"R{r + 1:02d}", Point(1200, 1200 + 3600 * r), 0, Side.LEFT, (*compute, network)))
    return Hall("H1", 1200 * 2 + 600 * (racks + 1), 2400 + 3600 * rows, tuple(out))


def rail_plan(
    hall: Hall,
    pattern: Pattern = Pattern.RAIL_OPTIMIZED,
    su: int = 8,
    ratio: float | None = None,
    leaf: SwitchModel = LEAF,
) -> WiringPlan:
    rail = RailSpec(leaf_model=leaf, su_size=su, oversubscription=ratio)
    return generate_plan(hall, WiringSpec(pattern=pattern, rail=rail))


def servers_in_hall_order(plan: WiringPlan) -> list[str]:
    """Server node ids in hall order (the generator's: rows, racks along the row, bottom to top)."""
    return [d.node_id for d in plan.devices if d.role is Role.SERVER]


def rail_of(plan: WiringPlan) -> dict[tuple[str, str], str]:
    """(server node id, NIC port) -> the leaf node id it is cabled to."""
    node = {d.name: d.node_id for d in plan.devices}
    role = {d.name: d.role for d in plan.devices}
    out: dict[tuple[str, str], str] = {}
    for c in plan.cables:
        if c.link_class is not LinkClass.SERVER_TOR:
            continue
        a, b = (c.a_device, c.a_port), (c.b_device, c.b_port)
        srv, leaf = (a, b) if role[c.a_device] is Role.SERVER else (b, a)
        out[(node[srv[0]], srv[1])] = node[leaf[0]]
    return out


# --- hand-derived ------------------------------------------------------------------------------


def test_rail_optimized_hand_counts() -> None:
    """2 rows x 4 racks x 4 servers = 32 servers, SU 8: 4 SUs x 8 rails = 32 leaves, 256 server
    cables; 1:1 at 400G down and up: U = 8 x 400 / 400 = 8 uplinks per leaf, 256 leaf-spine cables
    over 4 spines = 64 each (their every port)."""
    plan = rail_plan(gpu_hall())
    leaves = plan.devices_by_role(Role.TOR)
    assert len(leaves) == 32
    by_class: dict[LinkClass, int] = defaultdict(int)
    for c in plan.cables:
        by_class[c.link_class] += 1
    assert by_class == {LinkClass.SERVER_TOR: 256, LinkClass.TOR_FABRIC: 256}
    spine_ports: dict[str, set[str]] = defaultdict(set)
    spine_names = {d.name for d in plan.devices_by_role(Role.SPINE)}
    for c in plan.cables:
        if c.b_device in spine_names:
            spine_ports[c.b_device].add(c.b_port)
    assert sorted(len(v) for v in spine_ports.values()) == [64, 64, 64, 64]
    assert not plan.warnings


def test_rail_leaf_ports_and_names() -> None:
    """The SU's j-th server takes port e<j+1> of each of its SU's leaves, through its NIC port p<i+1>
    for rail i+1; the leaves are named by SU and rail, stand in the network rack of the SU's row, at
    the lowest free U (spines take U42 and U41: the 16 leaves of row R01's two SUs take U1..U16)."""
    plan = rail_plan(gpu_hall())
    dev = {d.name: d for d in plan.devices}
    second = servers_in_hall_order(plan)[9]  # SU 2, its 2nd server
    for c in plan.cables:
        if c.link_class is LinkClass.SERVER_TOR and dev[c.a_device].node_id == second:
            leaf = dev[c.b_device]
            rail = int(c.a_port[1:])
            assert leaf.node_id == f"H1.SU2.RAIL{rail}"
            assert c.b_port == "e2"
    leaves = {d.node_id: d for d in plan.devices_by_role(Role.TOR)}
    assert leaves["H1.SU1.RAIL1"].rack == "H1.R01.N01" and leaves["H1.SU1.RAIL1"].u == 1
    assert leaves["H1.SU2.RAIL8"].rack == "H1.R01.N01" and leaves["H1.SU2.RAIL8"].u == 16
    assert leaves["H1.SU3.RAIL1"].rack == "H1.R02.N01" and leaves["H1.SU3.RAIL1"].u == 1
    assert {d.cluster for d in plan.devices_by_role(Role.TOR) if d.node_id.startswith("H1.SU4.")} == {3}


def test_rail_optimized_two_to_one() -> None:
    """2:1: U = 3200 / (2 x 400) = 4 uplinks per leaf, 32 x 4 = 128 leaf-spine cables."""
    plan = rail_plan(gpu_hall(), ratio=2.0)
    assert sum(c.link_class is LinkClass.TOR_FABRIC for c in plan.cables) == 128


def test_rail_optimized_ratio_that_is_no_whole_number_names_the_field() -> None:
    """3:1 would need 3200 / 1200 = 2.67 uplinks: refused naming rail.oversubscription, with the two
    whole counts around it (2 uplinks: 4:1, 3 uplinks: 2.67:1)."""
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), ratio=3.0)
    assert err.value.field == "rail.oversubscription"
    assert "2 uplinks give 4:1" in err.value.reason and "3 give 2.66667:1" in err.value.reason


def test_rail_optimized_below_one_needs_more_uplinks_than_the_leaf_has() -> None:
    """0.5:1 needs 16 uplinks of a leaf whose SU of 8 uses 8 down ports; a 32-uplink leaf takes it,
    a leaf with 8 uplinks is refused (its lowest ratio is 1:1)."""
    wide = rail_plan(gpu_hall(spines_per_row=4), ratio=0.5)
    assert sum(c.link_class is LinkClass.TOR_FABRIC for c in wide.cables) == 512
    small = SwitchModel("16x400G+8x400G leaf", 16, 400.0, 8, 400.0)
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), ratio=0.5, leaf=small)
    assert err.value.field == "rail.oversubscription" and "lowest it reaches is 1:1" in err.value.reason


def test_su_larger_than_the_leaf_ports_names_the_field() -> None:
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), su=33)
    assert err.value.field == "rail.su_size" and "32" in err.value.reason
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), su=0)
    assert err.value.field == "rail.su_size"


def test_rail_only_has_no_spine_and_refuses_a_ratio() -> None:
    plan = rail_plan(gpu_hall(), Pattern.RAIL_ONLY)
    assert all(c.link_class is LinkClass.SERVER_TOR for c in plan.cables)
    assert len(plan.cables) == 256
    assert "share no switch" in plan.warnings[0]
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), Pattern.RAIL_ONLY, ratio=1.0)
    assert err.value.field == "rail.oversubscription"


def test_rail_optimized_needs_spines() -> None:
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(spines_per_row=0))
    assert err.value.field == "fabric" and "spine" in err.value.reason


def test_leaves_that_do_not_fit_the_rows_network_racks() -> None:
    """A 12U network rack with 2 spines (U12, U11) has 10 U for row R01's 16 leaves: refused naming
    the SU, its rows and how many leaves fit."""
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(network_rack_u=12))
    assert err.value.field == "layout"
    assert err.value.reason.startswith("SU 2 (rows R01) has room for 2 of its 8 rail leaves")


def test_partial_last_su_is_said() -> None:
    plan = rail_plan(gpu_hall(), su=12, ratio=3.0)  # 32 servers: 12 + 12 + 8; U = 12 x 400 / (3 x 400) = 4
    assert any(w.startswith("SU 3 has 8 of 12 servers") for w in plan.warnings)


def test_rail_pattern_without_rail_settings() -> None:
    with pytest.raises(DomainError) as err:
        generate_plan(gpu_hall(), WiringSpec(pattern=Pattern.RAIL_ONLY))
    assert err.value.field == "rail"
    with pytest.raises(DomainError) as err:
        generate_plan(gpu_hall(), WiringSpec(pattern=Pattern.SINGLE_HOMED, rail=RailSpec(leaf_model=LEAF)))
    assert err.value.field == "rail"


@pytest.mark.parametrize("pattern", [Pattern.RAIL_OPTIMIZED, Pattern.RAIL_ONLY])
def test_the_engine_validates_the_scenario(tmp_path: Path, pattern: Pattern) -> None:
    if not ENGINE.exists():
        pytest.skip("engine not built (make install builds it)")
    out = tmp_path / "s.json"
    out.write_text(json.dumps(build_scenario(rail_plan(gpu_hall(), pattern))))
    res = subprocess.run([str(ENGINE), "validate", str(out)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr


# --- properties --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RailCase:
    rows: int
    racks: int
    servers: int
    rails: int
    su: int
    uplinks: int
    """U asked through the ratio it makes: su x 400 / (U x 400)."""

    def hall(self) -> Hall:
        big_spine = SwitchModel("1024x400G spine", 1024, 400.0, 0, 400.0, height_u=2)
        return gpu_hall(self.rows, self.racks, self.servers, rails=self.rails, spines_per_row=2, spine=big_spine,
                        network_rack_u=48)  # fmt: skip

    @property
    def ratio(self) -> float:
        return self.su / self.uplinks


@st.composite
def rail_cases(draw: st.DrawFn) -> RailCase:
    rows = draw(st.integers(1, 3))
    racks = draw(st.integers(1, 3))
    servers = draw(st.integers(1, 5))
    rails = draw(st.integers(1, 8))
    total = rows * racks * servers
    # an SU spans at most 2 rows' worth of leaf room: 48U - 4U of spines = 44 leaves per network rack
    su = draw(st.integers(1, min(32, total)))
    uplinks = draw(st.integers(1, 32))
    case = RailCase(rows, racks, servers, rails, su, uplinks)
    units_per_row_max = -(-racks * servers // su) + 1
    assume(units_per_row_max * rails <= 44)
    return case


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(rail_cases())
def test_rail_optimized_invariants(case: RailCase) -> None:
    """Every server's NIC i lands on rail leaf i of its own SU (SU = hall-order index // su); every
    pair of servers of an SU shares a leaf on every rail (one leaf hop apart), and no two SUs share
    one; each leaf's server-facing Gb/s over its spine-facing Gb/s is the asked ratio."""
    plan = rail_plan(case.hall(), su=case.su, ratio=case.ratio)
    where = rail_of(plan)
    servers = servers_in_hall_order(plan)
    for n, server in enumerate(servers):
        for i in range(case.rails):
            assert where[(server, f"p{i + 1}")] == f"H1.SU{n // case.su + 1}.RAIL{i + 1}"
    assert len(where) == len(servers) * case.rails
    for i in range(case.rails):
        leaf_of_su: dict[int, set[str]] = defaultdict(set)
        for n, server in enumerate(servers):
            leaf_of_su[n // case.su].add(where[(server, f"p{i + 1}")])
        assert all(len(v) == 1 for v in leaf_of_su.values())
        assert len(set().union(*leaf_of_su.values())) == len(leaf_of_su)
    dev = {d.name: d for d in plan.devices}
    down: dict[str, float] = defaultdict(float)
    up: dict[str, float] = defaultdict(float)
    for c in plan.cables:
        if c.link_class is LinkClass.SERVER_TOR:
            down[c.b_device] += c.gbps
        elif c.link_class is LinkClass.TOR_FABRIC:
            up[c.a_device] += c.gbps
            assert dev[c.b_device].role is Role.SPINE
    full_sus = len(servers) // case.su  # a partial last SU leaves ports of its leaves free
    for leaf in plan.devices_by_role(Role.TOR):
        assert leaf.cluster is not None
        if leaf.cluster < full_sus:
            assert down[leaf.name] / up[leaf.name] == pytest.approx(case.ratio, rel=1e-12)
    assert len(plan.devices_by_role(Role.TOR)) == -(-len(servers) // case.su) * case.rails


@SETTINGS
@given(rail_cases())
def test_rail_only_invariants(case: RailCase) -> None:
    """Rail-only: the same server-to-leaf wiring, and no spine, no leaf uplink."""
    plan = rail_plan(case.hall(), Pattern.RAIL_ONLY, su=case.su)
    where = rail_of(plan)
    for n, server in enumerate(servers_in_hall_order(plan)):
        for i in range(case.rails):
            assert where[(server, f"p{i + 1}")] == f"H1.SU{n // case.su + 1}.RAIL{i + 1}"
    assert all(c.link_class is LinkClass.SERVER_TOR for c in plan.cables)
    names = {d.name for d in plan.devices_by_role(Role.SPINE)}
    assert not any(c.a_device in names or c.b_device in names for c in plan.cables)


def test_structured_rail_optimized_breaks_800g_spine_ports_into_400g_leaf_uplinks() -> None:
    """SN5600-like spines (64 x 800G, at most 4 links a port): with structured cabling and breakouts
    each port carries 2 x 400G leaf uplinks (lanes e<port>/1 and /2), so one spine per row takes its
    row's 16 leaves x 8 uplinks = 128 links on 64 ports; the structured plant builds over the plan."""
    sn5600 = SwitchModel("64x800G switch", 64, 800.0, 0, 800.0, height_u=2, breakout_links=4)
    hall = gpu_hall(spine=sn5600, spines_per_row=1)
    rail = RailSpec(leaf_model=LEAF, su_size=8)
    spec = WiringSpec(
        pattern=Pattern.RAIL_OPTIMIZED, rail=rail, fabric=FabricSpec(breakouts=True), cabling=Cabling.STRUCTURED
    )
    plan = generate_plan(hall, spec)
    up = [c for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC]
    assert len(up) == 256 and {c.gbps for c in up} == {400.0}
    ports: dict[str, set[str]] = defaultdict(set)
    for c in up:
        ports[c.b_device].add(c.b_port)
    assert [len(v) for v in ports.values()] == [128, 128]
    assert {p.split("/")[1] for v in ports.values() for p in v} == {"1", "2"}
    plant = structure_plan(hall, plan, StructuredSettings(), DEFAULT_GEOMETRY, builtin_catalog())
    assert plant.panels and plant.items

    # A switch whose catalog entry allows 2 links a port cannot serve 100G links as 4 lanes of 400G.
    qm9700 = SwitchModel("64x400G 1U spine", 64, 400.0, 0, 400.0, breakout_links=2)
    slow_leaf = SwitchModel("32x100G+32x100G leaf", 32, 100.0, 32, 100.0)
    hall = gpu_hall(spine=qm9700, spines_per_row=1)
    spec = WiringSpec(
        pattern=Pattern.RAIL_OPTIMIZED,
        rail=RailSpec(leaf_model=slow_leaf, su_size=8, oversubscription=8.0),
        fabric=FabricSpec(breakouts=True),
        cabling=Cabling.STRUCTURED,
    )
    with pytest.raises(DomainError) as err:
        generate_plan(hall, spec)
    assert err.value.field == "breakouts" and "at most 2 links" in err.value.reason


@pytest.mark.parametrize("ratio", [5e-324, 1e-12, 0.01])
def test_a_ratio_too_small_for_any_leaf_is_refused_not_overflowed(ratio: float) -> None:
    with pytest.raises(DomainError) as err:
        rail_plan(gpu_hall(), ratio=ratio)
    assert err.value.field == "rail.oversubscription" and "has 32 (the lowest it reaches is 0.25:1)" in err.value.reason


@SETTINGS
@given(rail_cases(), st.data())
def test_spine_planes_keep_each_rail_on_its_own_spines(case: RailCase, data: st.DataObject) -> None:
    """Spines SP1..SPn (two per row) cut into P equal planes in name order: every uplink of rail i's
    leaves lands on a spine of plane i mod P, so a spine serves the rails of one plane alone; the
    leaves' ratio is the asked one whatever P."""
    spines = 2 * case.rows
    planes = data.draw(st.sampled_from([p for p in range(1, case.rails + 1) if spines % p == 0]))
    rail = RailSpec(leaf_model=LEAF, su_size=case.su, oversubscription=case.ratio, spine_planes=planes)
    plan = generate_plan(case.hall(), WiringSpec(pattern=Pattern.RAIL_OPTIMIZED, rail=rail))
    node = {d.name: d.node_id for d in plan.devices}
    size = spines // planes
    plane_of = {f"H1.SP{n + 1}": n // size for n in range(spines)}
    rails_of_spine: dict[str, set[int]] = defaultdict(set)
    down: dict[str, float] = defaultdict(float)
    up: dict[str, float] = defaultdict(float)
    for c in plan.cables:
        if c.link_class is LinkClass.SERVER_TOR:
            down[node[c.b_device]] += c.gbps
        elif c.link_class is LinkClass.TOR_FABRIC:
            leaf, spine = node[c.a_device], node[c.b_device]
            rail_index = int(leaf.rsplit("RAIL", 1)[1]) - 1
            assert plane_of[spine] == rail_index % planes, (leaf, spine)
            rails_of_spine[spine].add(rail_index % planes)
            up[leaf] += c.gbps
    assert all(len(v) == 1 for v in rails_of_spine.values())
    full = len(servers_in_hall_order(plan)) // case.su
    for leaf in plan.devices_by_role(Role.TOR):
        if leaf.cluster is not None and leaf.cluster < full:
            assert down[leaf.node_id] / up[leaf.node_id] == pytest.approx(case.ratio, rel=1e-12)


def test_spine_planes_that_do_not_fit_name_the_field() -> None:
    hall = gpu_hall(spines_per_row=2)  # 4 spines, 8 rails
    for planes, reason in ((3, "4 spines do not split into 3 equal planes"), (16, "16 planes for 8 rails")):
        rail = RailSpec(leaf_model=LEAF, su_size=8, spine_planes=planes)
        with pytest.raises(DomainError) as e:
            generate_plan(hall, WiringSpec(pattern=Pattern.RAIL_OPTIMIZED, rail=rail))
        assert (e.value.field, reason in e.value.reason) == ("rail.spine_planes", True), e.value
    with pytest.raises(DomainError) as e:
        generate_plan(hall, WiringSpec(pattern=Pattern.RAIL_ONLY, rail=RailSpec(LEAF, 8, spine_planes=2)))
    assert e.value.field == "rail.spine_planes"
