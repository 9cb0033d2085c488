"""Properties of the facility checks (Hypothesis): power, weight and tray fill are additive over any
partition of the devices and cables, and removing a device never adds an error or raises a ratio."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from facility_plants import cable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import (
    Airflow,
    CableFacts,
    DeviceFacts,
    Feed,
    HallFacility,
    OpticFacts,
    PduModel,
    Plant,
    RackFacility,
    RoutedCable,
    TrayLevel,
    TraySpec,
)
from loopline.domain.layout import (
    FabricSwitch,
    Hall,
    LogicalRack,
    Point,
    Rack,
    Row,
    ServerModel,
    Side,
    SwitchModel,
)
from loopline.domain.layout_rules import Severity
from loopline.domain.routing import Via

SERVERS = (ServerModel("S1"), ServerModel("S2", height_u=2))
SWITCHES = (SwitchModel("T1"), SwitchModel("T2"))
PARTS = ("P1", "P2", "P3")
OPTICS = ("O1", "O2")

maybe_w = st.sampled_from([None, 0.0, 150.0, 450.0, 1_200.0])
maybe_kg = st.sampled_from([None, 0.0, 9.5, 25.0, 60.0])
device_facts = st.builds(
    DeviceFacts, typical_w=maybe_w, max_w=maybe_w, weight_kg=maybe_kg, airflow=st.sampled_from([None, *Airflow])
)
cable_facts = st.builds(
    CableFacts,
    od_mm=st.sampled_from([None, 2.0, 4.5, 9.0]),
    kg_per_m=st.sampled_from([None, 0.01, 0.05, 0.3]),
    min_bend_radius_mm=st.sampled_from([None, 20.0, 60.0]),
    signal_only=st.booleans(),
)
feed = st.builds(
    Feed,
    name=st.just("A"),
    voltage_v=st.sampled_from([120.0, 230.0]),
    phases=st.sampled_from([1, 3]),
    breaker_a=st.sampled_from([16.0, 32.0]),
    pdu=st.sampled_from([None, "PDU", "PDU-unknown"]),
)


@st.composite
def rack_facility(draw: st.DrawFn) -> RackFacility:
    a = draw(feed)
    two = draw(st.booleans())
    return RackFacility(
        feeds=(a, replace(draw(feed), name="B")) if two else (a,),
        power_budget_kw=draw(st.sampled_from([None, 2.0, 10.0])),
        cooling_kw=draw(st.sampled_from([None, 1.0, 8.0])),
        static_load_kg=draw(st.sampled_from([None, 200.0, 1_000.0])),
    )


@st.composite
def rack_contents(draw: st.DrawFn) -> tuple[tuple[LogicalRack, ...], tuple[FabricSwitch, ...]]:
    lrs = tuple(
        LogicalRack(
            servers=draw(st.integers(1, 5)),
            server_model=draw(st.sampled_from(SERVERS)),
            tor_model=draw(st.sampled_from(SWITCHES)),
            base_u=1 + 12 * i,
            ports_used=1,
        )
        for i in range(draw(st.integers(0, 2)))
    )
    switches = tuple(
        FabricSwitch(f"F{i}", "spine", draw(st.sampled_from(SWITCHES)), 30 + 2 * i)
        for i in range(draw(st.integers(0, 2)))
    )
    return lrs, switches


@st.composite
def plants(draw: st.DrawFn) -> Plant:
    rows: list[Row] = []
    layouts = [(1200, Side.LEFT), draw(st.sampled_from([(3600, Side.RIGHT), (6000, Side.LEFT)]))]
    for r in range(draw(st.integers(1, 2))):
        y, front = layouts[r]
        racks = []
        for k in range(draw(st.integers(1, 3))):
            lrs, switches = draw(rack_contents())
            racks.append(Rack(f"R{r}-{k}", position_mm=600 * k, logical_racks=lrs, fabric_switches=switches))
        rows.append(Row(f"R{r}", Point(600, y), 0, front, tuple(racks)))
    hall = Hall("H1", 20_000, 20_000, tuple(rows), raised_floor_mm=600, tile_mm=draw(st.sampled_from([300, 600])))
    names = [rk.name for row in rows for rk in row.racks]
    routed: list[RoutedCable] = []
    for i in range(draw(st.integers(0, 25))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        c = cable(
            hall,
            (a, draw(st.integers(1, 40))),
            (b, draw(st.integers(1, 40))),
            draw(st.sampled_from(PARTS)),
            label=f"c{i:03d}",
            optic=draw(st.sampled_from([None, *OPTICS])),
            via=draw(st.sampled_from([Via.TRAY, Via.FLOOR])),
        )
        routed.append(c)
    tray = TraySpec(draw(st.sampled_from([20, 300])), 20, draw(st.sampled_from([0.5, 75.0])))
    facility = HallFacility(
        row_cooling_kw=draw(st.sampled_from([{}, {"R0": 3.0}])),
        hall_cooling_kw=draw(st.sampled_from([None, 4.0])),
        floor_load_kg_m2=draw(st.sampled_from([200.0, 1_200.0])),
        tray_bend_radius_mm=draw(st.sampled_from([10.0, 50.0])),
        trays={level: tray for level in TrayLevel},
    )
    return Plant(
        hall=hall,
        facility=facility,
        racks={n: draw(rack_facility()) for n in names},
        servers={m.name: draw(device_facts) for m in SERVERS},
        switches={m.name: draw(device_facts) for m in SWITCHES},
        rack_types={"42U 600x1200": DeviceFacts(weight_kg=draw(st.sampled_from([None, 120.0])))},
        rack_static_load_kg=draw(st.sampled_from([{}, {"42U 600x1200": 800.0}])),
        pdus={"PDU": PduModel("PDU", 24, draw(st.sampled_from([None, 6.0])))},
        cables={p: draw(cable_facts) for p in PARTS},
        optics={o: OpticFacts(draw(st.sampled_from([None, 3.5, 12.0]))) for o in OPTICS},
        routed=tuple(routed),
    )


def with_contents(plant: Plant, keep_device: object, keep_cable: object) -> Plant:
    """The plant with only the logical racks, fabric switches and cables the predicates keep."""
    rows = tuple(
        replace(
            row,
            racks=tuple(
                replace(
                    rk,
                    logical_racks=tuple(lr for i, lr in enumerate(rk.logical_racks) if keep_device(rk.name, "lr", i)),  # type: ignore[operator]
                    fabric_switches=tuple(
                        sw
                        for i, sw in enumerate(rk.fabric_switches)
                        if keep_device(rk.name, "sw", i)  # type: ignore[operator]
                    ),
                )
                for rk in row.racks
            ),
        )
        for row in plant.hall.rows
    )
    routed = tuple(c for i, c in enumerate(plant.routed) if keep_cable(i))  # type: ignore[operator]
    return replace(plant, hall=replace(plant.hall, rows=rows), routed=routed)


@dataclass(frozen=True)
class Loads:
    typical: dict[str, float]
    max: dict[str, float]
    carried: dict[str, float]
    segments: dict[tuple[object, ...], tuple[float, float, int]]


def loads(plant: Plant) -> Loads:
    report = facility_report(plant)
    tile = plant.hall.tile_mm
    segments: dict[tuple[object, ...], tuple[float, float, int]] = {}
    for s in report.trays:
        # Named by where it is (names depend on which runs exist): level, line, height, tile.
        axis = 0 if s.start[1] == s.end[1] else 1
        key = (s.level, axis, s.start[1 - axis], s.start[2], min(s.start[axis], s.end[axis]) // tile)
        segments[key] = (s.fill_pct, s.kg_per_m, s.cables)
    return Loads(
        {r.rack: r.typical_w for r in report.racks},
        {r.rack: r.max_w for r in report.racks},
        {r.rack: r.weight_kg for r in report.racks},
        segments,
    )


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(plants(), st.randoms(use_true_random=False))
def test_power_weight_and_fill_are_additive_over_any_partition(plant: Plant, rnd: object) -> None:
    side: dict[object, bool] = {}

    def in_a(*key: object) -> bool:
        if key not in side:
            side[key] = rnd.random() < 0.5  # type: ignore[attr-defined]
        return side[key]

    whole = loads(plant)
    a = loads(with_contents(plant, in_a, in_a))
    b = loads(with_contents(plant, lambda *k: not in_a(*k), lambda i: not in_a(i)))
    empty = loads(with_contents(plant, lambda *k: False, lambda i: False))
    for rack in whole.max:
        assert whole.max[rack] == pytest.approx(a.max[rack] + b.max[rack])
        assert whole.typical[rack] == pytest.approx(a.typical[rack] + b.typical[rack])
        # What a rack carries has a part of its own (its PDUs), in every part: count it once.
        base = empty.carried[rack]
        assert whole.carried[rack] - base == pytest.approx((a.carried[rack] - base) + (b.carried[rack] - base))
    assert set(whole.segments) == set(a.segments) | set(b.segments)
    for key, (fill, kg_m, n) in whole.segments.items():
        fa, ka, na = a.segments.get(key, (0.0, 0.0, 0))
        fb, kb, nb = b.segments.get(key, (0.0, 0.0, 0))
        assert fill == pytest.approx(fa + fb)
        assert kg_m == pytest.approx(ka + kb)
        assert n == na + nb


def without_one_device(plant: Plant, pick: int) -> Plant | None:
    """The plant with one device fewer (a server, a logical rack's last server with its ToR, or a fabric switch)."""
    devices = [
        (row_i, rack_i, kind, i)
        for row_i, row in enumerate(plant.hall.rows)
        for rack_i, rk in enumerate(row.racks)
        for kind, items in (("lr", rk.logical_racks), ("sw", rk.fabric_switches))
        for i in range(len(items))
    ]
    if not devices:
        return None
    row_i, rack_i, kind, i = devices[pick % len(devices)]
    rows = list(plant.hall.rows)
    rk = rows[row_i].racks[rack_i]
    if kind == "sw":
        rk = replace(rk, fabric_switches=rk.fabric_switches[:i] + rk.fabric_switches[i + 1 :])
    else:
        lr = rk.logical_racks[i]
        lrs = list(rk.logical_racks)
        if lr.servers > 1:
            lrs[i] = replace(lr, servers=lr.servers - 1)
        else:
            del lrs[i]
        rk = replace(rk, logical_racks=tuple(lrs))
    racks = list(rows[row_i].racks)
    racks[rack_i] = rk
    rows[row_i] = replace(rows[row_i], racks=tuple(racks))
    return replace(plant, hall=replace(plant.hall, rows=tuple(rows)))


@SETTINGS
@given(plants(), st.integers(0, 1_000))
def test_removing_a_device_never_adds_an_error_or_raises_a_ratio(plant: Plant, pick: int) -> None:
    smaller = without_one_device(plant, pick)
    if smaller is None:
        return
    before, after = facility_report(plant), facility_report(smaller)
    errors_before = {(i.code, i.field) for i in before.issues if i.severity is Severity.ERROR}
    errors_after = {(i.code, i.field) for i in after.issues if i.severity is Severity.ERROR}
    assert errors_after <= errors_before
    worst_before = {r.rack: r.worst_pct for r in before.racks}
    for r in after.racks:
        assert r.worst_pct <= worst_before[r.rack] + 1e-9
