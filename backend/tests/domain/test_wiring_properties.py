"""Property-based invariants of the wiring generator (Hypothesis, small halls)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.wiring import (
    FabricKind,
    FabricSpec,
    GrinScope,
    LinkClass,
    Pattern,
    Role,
    WiringPlan,
    WiringSpec,
    diff_plans,
    generate_plan,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SUBWAYS = [Pattern.SIDE_TO_SIDE, Pattern.PAIRED_ROW, Pattern.INTER_CHASSIS]


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@dataclass(frozen=True)
class Case:
    pattern: Pattern
    rows: int
    racks: int
    b: int
    r: int
    p: int
    loop: int
    subways_type: int
    clusters: int

    def plan(self, ports: int | None = None) -> WiringPlan:
        p = self.p if ports is None else ports
        hall = build_abstract_layout(
            AbstractLayoutSpec(
                rows=self.rows,
                racks_per_row=self.racks,
                logical_per_rack=self.b,
                servers_per_logical_rack=self.r,
                ports=p,
                rows_per_cluster=1,
            )
        )
        spec = WiringSpec(
            pattern=self.pattern,
            ports=p,
            loop=self.loop,
            subways_type=self.subways_type,
            clusters=self.clusters,
            rows_per_cluster=1,
            fabric=FabricSpec(FabricKind.NONE),
        )
        return generate_plan(hall, spec)


@st.composite
def subways_cases(draw: st.DrawFn) -> Case:
    pattern = draw(st.sampled_from(SUBWAYS))
    racks = draw(st.integers(1, 5))
    b = draw(st.integers(1, 3))
    r = draw(st.integers(1, 4))
    p = draw(st.integers(1, 4))
    if pattern is Pattern.SIDE_TO_SIDE:
        loop = draw(st.sampled_from(divisors(racks * b)))
    elif pattern is Pattern.INTER_CHASSIS:
        loop = draw(st.sampled_from(divisors(racks))) * b
    else:
        loop = 2 * draw(st.sampled_from(divisors(racks * b)))
    assume(loop >= p)
    subways_type = draw(st.sampled_from([1, 2]))
    clusters = draw(st.integers(1, 2)) if subways_type == 2 else 1
    return Case(pattern, 2, racks, b, r, p, loop, subways_type, clusters)


def offset(k: int) -> int:
    """DESIGN §3.1: port 1 own ToR, then alternately counter-clockwise and clockwise neighbours."""
    return 0 if k == 1 else (-(k // 2) if k % 2 == 0 else (k - 1) // 2)


def tor_of_logical_rack(plan: WiringPlan) -> dict[str, str]:
    return {d.logical_rack: d.name for d in plan.devices if d.role is Role.TOR and d.logical_rack}


@SETTINGS
@given(subways_cases())
def test_subways_invariants(case: Case) -> None:
    plan = case.plan()
    devices = {d.name: d for d in plan.devices}
    servers = [d for d in plan.devices if d.role is Role.SERVER]
    tors = [d for d in plan.devices if d.role is Role.TOR]
    st_cables = [c for c in plan.cables if c.link_class is LinkClass.SERVER_TOR]

    # no port used twice
    ends = Counter((c.a_device, c.a_port) for c in plan.cables) + Counter((c.b_device, c.b_port) for c in plan.cables)
    assert max(ends.values()) == 1

    # every server: exactly p server-side links, on ports p1..pp
    per_server: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for c in st_cables:
        per_server[c.a_device].append((c.a_port, c.b_device))
    assert len(per_server) == len(servers)
    for s in servers:
        assert sorted(port for port, _ in per_server[s.name]) == sorted(f"p{k}" for k in range(1, case.p + 1))

    # Type 1 adjacency exactly as defined: port k of a server at loop position i -> ToR at i+offset(k)
    home = tor_of_logical_rack(plan)
    for s in servers:
        own = devices[home[s.logical_rack or ""]]
        assert own.loop is not None and own.loop_position is not None
        for port, tor_name in per_server[s.name]:
            tor = devices[tor_name]
            k = int(port[1:])
            assert tor.loop == own.loop
            assert tor.loop_position == (own.loop_position + offset(k)) % case.loop
        cw = {(own.loop_position + j) % case.loop for j in range(1, (case.p - 1) // 2 + 1)}
        ccw = {(own.loop_position - j) % case.loop for j in range(1, case.p // 2 + 1)}
        got = {devices[t].loop_position for _, t in per_server[s.name]}
        assert got == {own.loop_position} | cw | ccw
        assert len(got) == case.p  # p distinct ToRs

    # each ToR's server-facing degree is r*p, on ports e1..e(r*p)
    degree = Counter(c.b_device for c in st_cables)
    for t in tors:
        assert degree[t.name] == case.r * case.p
    # each loop is one connected component of the server-ToR graph (p >= 2); p = 1: one per rack
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in st_cables:
        parent[find(c.a_device)] = find(c.b_device)
    comps = {find(t.name) for t in tors}
    expected = len(plan.loops) if case.p >= 2 else len(tors)
    assert len(comps) == expected
    for loop in plan.loops:
        assert len(loop.logical_racks) == case.loop
        roots = {find(home[lr]) for lr in loop.logical_racks}
        assert len(roots) == (1 if case.p >= 2 else case.loop)

    # Type 2: consecutive ToRs of a loop round-robin over c clusters (Type 1: one cluster)
    for t in tors:
        lr = plan.loops[t.loop or 0].logical_racks[0]
        first_row = int(lr.split(".")[1][1:]) - 1  # H1.R02.K01.L1 -> row index 1 (1 row per cluster)
        pos = t.loop_position or 0
        want = (first_row + pos % case.clusters) % case.rows if case.subways_type == 2 else first_row
        assert t.cluster == want


@settings(max_examples=25, deadline=None)
@given(subways_cases(), st.data())
def test_subways_upgrade_moves_nothing(case: Case, data: st.DataObject) -> None:
    assume(case.p >= 2)
    p0 = data.draw(st.integers(1, case.p - 1))
    old = case.plan(ports=p0)
    new = case.plan()
    d = diff_plans(old, new)
    assert d.moved == [] and d.removed == []
    assert len(d.kept) == len(old.cables)
    servers = sum(1 for x in new.devices if x.role is Role.SERVER)
    assert len(d.added) == (case.p - p0) * servers  # one new cable per server and new port
    assert d.hardware_added == {}  # same ToRs, the new ports land on existing ToR ports


def _max_server_tor(case: Case) -> int:
    plan = case.plan()
    return max(c.raw_mm for c in plan.cables if c.link_class is LinkClass.SERVER_TOR)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(2, 4), st.integers(2, 4))
def test_side_to_side_back_edge_grows_with_l(b: int, r: int, p: int) -> None:
    # loops covering 2, 4 and 8 racks of a 8-rack row: the back edge spans the whole loop
    assume(2 * b >= p)
    lengths = [_max_server_tor(Case(Pattern.SIDE_TO_SIDE, 2, 8, b, r, p, m * b, 1, 1)) for m in (2, 4, 8)]
    assert lengths[0] < lengths[1] < lengths[2]


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from([Pattern.PAIRED_ROW, Pattern.INTER_CHASSIS]),
    st.integers(1, 3),
    st.integers(2, 4),
    st.integers(2, 4),
)
def test_paired_and_meander_max_length_independent_of_l(pattern: Pattern, b: int, r: int, p: int) -> None:
    # loops covering 6, 12 and 24 racks (per row) of a 24-rack row: once a loop spans more racks than
    # its widest neighbourhood (a few racks, set by p and b), the longest cable stays the same
    factor = 2 if pattern is Pattern.PAIRED_ROW else 1
    lengths = {_max_server_tor(Case(pattern, 2, 24, b, r, p, factor * m * b, 1, 1)) for m in (6, 12, 24)}
    assert len(lengths) == 1


@settings(max_examples=40, deadline=None)
@given(
    racks=st.integers(1, 4),
    b=st.integers(1, 3),
    r=st.integers(1, 6),
    p=st.integers(1, 3),
    n=st.integers(1, 6),
    next_rack=st.booleans(),
)
def test_grin_invariants(racks: int, b: int, r: int, p: int, n: int, next_rack: bool) -> None:
    per_rack = b * r
    if next_rack:
        assume(racks % 2 == 0 and per_rack >= n)
    else:
        assume(per_rack > n and not (n % 2 and per_rack % 2))
    hall = build_abstract_layout(
        AbstractLayoutSpec(
            rows=1, racks_per_row=racks, logical_per_rack=b, servers_per_logical_rack=r, ports=p, grin_degree=n
        )
    )
    spec = WiringSpec(
        pattern=Pattern.GRIN,
        ports=p,
        grin_degree=n,
        grin_scope=GrinScope.NEXT_RACK if next_rack else GrinScope.RACK,
        fabric=FabricSpec(FabricKind.NONE),
    )
    plan = generate_plan(hall, spec)
    ends = Counter((c.a_device, c.a_port) for c in plan.cables) + Counter((c.b_device, c.b_port) for c in plan.cables)
    assert max(ends.values()) == 1
    servers = {d.name: d for d in plan.devices if d.role is Role.SERVER}
    uplinks: Counter[str] = Counter()
    grin: Counter[str] = Counter()
    pairs: set[frozenset[str]] = set()
    for c in plan.cables:
        if c.link_class is LinkClass.SERVER_TOR:
            uplinks[c.a_device] += 1
        else:
            assert c.link_class is LinkClass.SERVER_SERVER
            grin[c.a_device] += 1
            grin[c.b_device] += 1
            pair = frozenset((c.a_device, c.b_device))
            assert len(pair) == 2 and pair not in pairs  # never two links between one pair
            pairs.add(pair)
            ra, rb = servers[c.a_device].rack, servers[c.b_device].rack
            if next_rack:
                assert ra != rb and abs(int(ra[-2:]) - int(rb[-2:])) == 1
            else:
                assert ra == rb
    # every server: p single-homed uplinks + n GRIN links
    assert all(uplinks[s] == p and grin[s] == n for s in servers)


@settings(max_examples=25, deadline=None)
@given(racks=st.integers(1, 3), b=st.integers(1, 4), r=st.integers(1, 6), p=st.integers(1, 4))
def test_single_homed_and_mc_lag_degrees(racks: int, b: int, r: int, p: int) -> None:
    hall = build_abstract_layout(
        AbstractLayoutSpec(rows=1, racks_per_row=racks, logical_per_rack=b, servers_per_logical_rack=r, ports=p)
    )
    patterns = [Pattern.SINGLE_HOMED] + ([Pattern.MC_LAG] if b % p == 0 else [])
    for pattern in patterns:
        plan = generate_plan(hall, WiringSpec(pattern=pattern, ports=p, fabric=FabricSpec(FabricKind.NONE)))
        devices = {d.name: d for d in plan.devices}
        tors_of: dict[str, set[str]] = defaultdict(set)
        for c in plan.cables:
            tors_of[c.a_device].add(c.b_device)
            assert devices[c.a_device].rack == devices[c.b_device].rack  # never leaves the rack
        degree = Counter(c.b_device for c in plan.cables)
        assert set(degree.values()) == {r * p}
        for s, tors in tors_of.items():
            assert len(tors) == (1 if pattern is Pattern.SINGLE_HOMED else p)
            assert sum(1 for c in plan.cables if c.a_device == s) == p


@settings(max_examples=30, deadline=None)
@given(
    kind=st.sampled_from([FabricKind.THREE_TIER, FabricKind.LEAF_SPINE, FabricKind.VL2]),
    rows=st.integers(1, 4),
    rows_per_cluster=st.integers(1, 2),
    uplinks=st.integers(1, 8),
    aggs=st.integers(2, 5),
    cores=st.integers(1, 4),
    p=st.integers(1, 2),
)
def test_fabric_invariants(
    kind: FabricKind, rows: int, rows_per_cluster: int, uplinks: int, aggs: int, cores: int, p: int
) -> None:
    spines = kind is FabricKind.LEAF_SPINE
    u = 2 if kind is FabricKind.VL2 else uplinks
    hall = build_abstract_layout(
        AbstractLayoutSpec(
            rows=rows, racks_per_row=2, logical_per_rack=2, servers_per_logical_rack=3, ports=p,
            rows_per_cluster=rows_per_cluster, uplinks_per_tor=u,
            aggs_per_cluster=0 if spines else aggs, core_switches=0 if spines else cores,
            spine_switches=aggs if spines else 0,
        )
    )  # fmt: skip
    spec = WiringSpec(
        pattern=Pattern.SIDE_TO_SIDE, ports=p, rows_per_cluster=rows_per_cluster, fabric=FabricSpec(kind, u)
    )
    plan = generate_plan(hall, spec)
    ends = Counter((c.a_device, c.a_port) for c in plan.cables) + Counter((c.b_device, c.b_port) for c in plan.cables)
    assert max(ends.values()) == 1  # no port used twice, fabric included
    devices = {d.name: d for d in plan.devices}
    up: dict[str, list[str]] = defaultdict(list)
    for c in plan.cables:
        if c.link_class is LinkClass.TOR_FABRIC:
            up[c.a_device].append(c.b_device)
    tors = [d for d in plan.devices if d.role is Role.TOR]
    for t in tors:
        targets = [devices[x] for x in up[t.name]]
        assert len(targets) == u
        if kind is FabricKind.LEAF_SPINE:
            assert {x.role for x in targets} == {Role.SPINE}
            assert len(set(up[t.name])) == min(u, aggs)  # round-robin over the spines
        else:
            assert {x.role for x in targets} == {Role.AGG}
            assert {x.cluster for x in targets} == {t.cluster}  # its own cluster's aggs
            assert len(set(up[t.name])) == min(u, aggs)  # distinct aggs first (VL2: two distinct)
    agg_core = [c for c in plan.cables if c.link_class is LinkClass.AGG_CORE]
    n_aggs = sum(1 for d in plan.devices if d.role is Role.AGG)
    assert len(agg_core) == (0 if spines else n_aggs * cores)
