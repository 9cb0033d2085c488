"""Upgrades as diffs: Subways p -> p+1, heterogeneous parallel ports, and a rewiring that moves."""

from __future__ import annotations

from _wiring_helpers import hall

from loopline.domain.wiring import (
    FabricKind,
    FabricSpec,
    LinkClass,
    ParallelPorts,
    Pattern,
    Role,
    WiringSpec,
    diff_plans,
    generate_plan,
    summarize,
)


def test_subways_p1_to_p2_keeps_every_cable() -> None:
    h = hall(ports=2)  # 2 rows x 4 racks x b=2 x r=4: 64 servers, 16 ToRs
    old = generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=1, loop=8))
    new = generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, loop=8))
    d = diff_plans(old, new)
    # old: 64 server cables + 16 ToRs x 4 uplinks + 4 aggs x 4 cores = 64 + 64 + 16 = 144
    assert len(old.cables) == 144
    assert d.counts() == {
        "kept": 144,
        "added": 64,  # one new cable per server, to the counter-clockwise neighbour's ToR
        "moved": 0,
        "removed": 0,
        "changed": 0,
        "hardware_added": {},
        "hardware_removed": {},
    }
    # p = 1 side-to-side needs no cable between racks; the upgrade adds them
    assert all(c.a_device.rsplit(".", 1)[0] == c.b_device.rsplit(".", 1)[0]
               for c in old.cables if c.link_class is LinkClass.SERVER_TOR)  # fmt: skip


def test_heterogeneous_parallel_ports_touch_no_existing_cable() -> None:
    # existing 10G single port per server; add a 25G port on a parallel set of ToRs, Type 2 over
    # two clusters (one row per cluster)
    h = hall(ports=1, port_gbps=10.0, spare_nic_ports=1, rows_per_cluster=1)
    base = WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=1, loop=8, rows_per_cluster=1)
    old = generate_plan(h, base)
    new = generate_plan(h, WiringSpec(
        pattern=Pattern.SIDE_TO_SIDE, ports=1, loop=8, rows_per_cluster=1,
        parallel=ParallelPorts(ports=1, gbps=25.0, clusters=2),
    ))  # fmt: skip
    d = diff_plans(old, new)
    assert d.moved == [] and d.removed == [] and len(d.kept) == len(old.cables)
    assert len(d.hardware_added["tor"]) == 16
    # 64 new server cables + 16 new ToRs x 4 uplinks
    assert len(d.added) == 64 + 64
    devices = {x.name: x for x in new.devices}
    new_links = [c for c in new.cables if c.link_class is LinkClass.SERVER_TOR and c.a_port == "p2"]
    assert {c.gbps for c in new_links} == {25.0}
    # each logical rack's new ports go to an overlapping pair of new ToRs: even-indexed servers to
    # its own, odd-indexed to its counter-clockwise neighbour's
    k03l2 = sorted({c.b_device for c in new_links if c.a_device in ("H1.R01.K03.U06", "H1.R01.K03.U07")})
    assert k03l2 == ["H1.R01.K03.U10B", "H1.R01.K04.U05B"]
    # the new ToRs alternate between the two clusters along the loop
    par = [x for x in new.devices if x.role is Role.TOR and x.name.endswith("B") and x.rack.startswith("H1.R01")]
    assert {(x.loop_position or 0) % 2 == x.cluster for x in par} == {True}
    assert devices["H1.R01.K04.U10B"].loop_position == 0


def test_rewiring_that_moves_cables() -> None:
    h = hall(ports=2)
    nofab = FabricSpec(FabricKind.NONE)
    one_loop = generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, loop=8, fabric=nofab))
    two_loops = generate_plan(h, WiringSpec(pattern=Pattern.SIDE_TO_SIDE, ports=2, loop=4, fabric=nofab))
    d = diff_plans(one_loop, two_loops)
    # splitting each row's loop in two re-patches the port-2 cables that now close the shorter
    # loops: per row, the servers of positions 0 and 4 (r = 4 each) -> 2 * 2 * 4 = 16 moves
    assert len(d.moved) == 16
    assert len(d.kept) + len(d.moved) + len(d.removed) == len(one_loop.cables)
    assert len(d.kept) + len(d.moved) + len(d.added) == len(two_loops.cables)
    # the back edge got shorter
    assert summarize(two_loops).max_raw_mm < summarize(one_loop).max_raw_mm


def test_plan_rows_for_bulk_insert() -> None:
    from loopline.domain.wiring import CABLE_COLUMNS, DEVICE_COLUMNS

    p = generate_plan(hall(ports=1), WiringSpec(pattern=Pattern.SINGLE_HOMED, ports=1))
    rows = list(p.cable_rows())
    assert len(rows) == len(p.cables) and len(rows[0]) == len(CABLE_COLUMNS)
    assert dict(zip(CABLE_COLUMNS, rows[0], strict=True))["cable_id"] == p.cables[0].cable_id
    devs = list(p.device_rows())
    assert len(devs) == len(p.devices) and len(devs[0]) == len(DEVICE_COLUMNS)


def test_single_homed_10g_plus_a_25g_subways_loop() -> None:
    # today's single-homed 10G racks; the upgrade adds one 25G port per server on a parallel
    # set of ToRs wired as a side-to-side loop per row (l = 8), Type 2 over the two rows' clusters
    h = hall(ports=1, port_gbps=10.0, spare_nic_ports=1, rows_per_cluster=1)
    old = generate_plan(h, WiringSpec(pattern=Pattern.SINGLE_HOMED, ports=1, rows_per_cluster=1))
    par = ParallelPorts(ports=1, gbps=25.0, clusters=2, pattern=Pattern.SIDE_TO_SIDE, loop=8)
    new = generate_plan(h, WiringSpec(pattern=Pattern.SINGLE_HOMED, ports=1, rows_per_cluster=1, parallel=par))
    d = diff_plans(old, new)
    assert (len(d.moved), len(d.removed), len(d.kept)) == (0, 0, len(old.cables))
    assert len(new.loops) == 2  # the new ToRs form one loop per row; the old ToRs none
    old_tors = [x for x in new.devices if x.role is Role.TOR and not x.name.endswith("B")]
    new_tors = [x for x in new.devices if x.role is Role.TOR and x.name.endswith("B")]
    assert all(x.loop is None for x in old_tors)
    assert sorted((x.loop, x.loop_position) for x in new_tors) == [(i, j) for i in (0, 1) for j in range(8)]


def test_upgrade_plan_helper() -> None:
    from loopline.domain.wiring import upgrade_plan

    h = hall(ports=3)
    old = generate_plan(h, WiringSpec(pattern=Pattern.PAIRED_ROW, ports=2))
    new, d = upgrade_plan(old, h, WiringSpec(pattern=Pattern.PAIRED_ROW, ports=3))
    # p = 3 adds each server's clockwise neighbour: 64 cables, nothing moves
    assert (len(d.kept), len(d.added), len(d.moved), len(d.removed)) == (len(old.cables), 64, 0, 0)
    assert len(new.cables) == len(old.cables) + 64
