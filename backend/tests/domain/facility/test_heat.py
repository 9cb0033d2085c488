"""Heat (rack, row and hall cooling) and airflow against the aisles, hand-derived."""

from __future__ import annotations

from facility_plants import OK_SERVER, OK_SWITCH, SERVER, TOR, feeds, hall, hall_facility, lr, plant, row

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import Airflow, DeviceFacts, RackFacility
from loopline.domain.layout import Hall, ServerModel, Side, SwitchModel
from loopline.domain.layout_rules import Issue, Severity


def big(h: Hall) -> dict[str, RackFacility]:
    """Every rack on 2 x 63 A single-phase feeds (limit 0.8 x 14.49 = 11.592 kW): cooling is what these test."""
    return {rk.name: RackFacility(feeds=feeds(("A", 230, 1, 63), ("B", 230, 1, 63))) for r in h.rows for rk in r.racks}


def watts(max_w: float) -> dict[str, DeviceFacts]:
    return {SERVER.name: DeviceFacts(typical_w=0.0, max_w=max_w, weight_kg=0.0, airflow=Airflow.FRONT_TO_REAR)}


def test_a_rack_over_its_own_cooling() -> None:
    # 20 x 600 W = 12 kW against 10 kW of rear-door cooling: 120 %. The feeds (2 x 32 A 3-phase) carry it.
    h = hall(row("R01", 1200, [(lr(20),)]))
    rf = RackFacility(feeds=feeds(("A", 230, 3, 32), ("B", 230, 3, 32)), cooling_kw=10.0)
    report = facility_report(plant(h, racks={"R01-01": rf}, servers=watts(600.0)))
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "rack_cooling",
            "rows[R01].racks[R01-01].cooling_kw",
            "rack 'R01-01' turns up to 12 kW into heat, over its own cooling of 10 kW (120 %)",
        ),
    )
    assert report.racks[0].cooling_w == 10_000
    assert report.racks[0].worst == "heat at 120 % of its 10 kW cooling"


def test_a_row_over_its_cooling_counts_what_rack_cooling_leaves_to_the_room() -> None:
    # Two racks of 10 x 800 W = 8 kW each: 16 kW into a row cooled for 15 kW -> error naming the row.
    h = hall(row("R01", 1200, [(lr(10),), (lr(10),)]))
    cool = hall_facility(row_cooling_kw={"R01": 15.0})
    report = facility_report(plant(h, facility=cool, racks=big(h), servers=watts(800.0)))
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "row_cooling",
            "rows[R01]",
            "row 'R01' puts up to 16 kW of heat into the room, over its cooling of 15 kW (107 %)",
        ),
    )
    # A 5 kW rear door on the second rack takes 5 of its 8 kW: 8 + 3 = 11 kW reach the row's cooling.
    racks = big(h) | {"R01-02": RackFacility(feeds=big(h)["R01-02"].feeds, cooling_kw=5.0)}
    report = facility_report(plant(h, facility=cool, racks=racks, servers=watts(800.0)))
    assert [i.code for i in report.issues] == ["rack_cooling"]


def test_the_hall_cooling_takes_the_rows_without_their_own() -> None:
    # R01 (8 kW) has its own 10 kW; R02 (2 racks, 16 kW) shares the hall's 12 kW -> error for the hall only.
    h = hall(row("R01", 1200, [(lr(10),)]), row("R02", 6000, [(lr(10),), (lr(10),)]))
    cool = hall_facility(row_cooling_kw={"R01": 10.0}, hall_cooling_kw=12.0)
    report = facility_report(plant(h, facility=cool, racks=big(h), servers=watts(800.0)))
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "hall_cooling",
            "hall_cooling_kw",
            "rows R02 of the hall put up to 16 kW of heat into the room, over the hall's cooling of 12 kW (133 %)",
        ),
    )
    # Without row cooling the hall's takes every row: 24 kW against 30 kW is fine, against 20 kW not.
    cool30, cool20 = hall_facility(hall_cooling_kw=30.0), hall_facility(hall_cooling_kw=20.0)
    assert facility_report(plant(h, facility=cool30, racks=big(h), servers=watts(800.0))).issues == ()
    (issue,) = facility_report(plant(h, facility=cool20, racks=big(h), servers=watts(800.0))).issues
    assert issue.message.startswith("every row of the hall put up to 24 kW of heat into the room")


REVERSED = ServerModel("S-rev")
SIDEWAYS = SwitchModel("T-side")
FACTS = {
    "servers": {SERVER.name: OK_SERVER, REVERSED.name: DeviceFacts(max_w=0.0, typical_w=0.0, weight_kg=0.0,
                                                                   airflow=Airflow.REAR_TO_FRONT)},
    "switches": {TOR.name: OK_SWITCH, SIDEWAYS.name: DeviceFacts(max_w=0.0, typical_w=0.0, weight_kg=0.0,
                                                                 airflow=Airflow.SIDE)},
}  # fmt: skip


def test_devices_blowing_against_a_cold_aisle_are_named_with_rack_and_u() -> None:
    # R01 fronts y = 2,400, R02 (front on its origin line) fronts y = 3,600: a 1.2 m cold aisle between.
    odd = lr(3, server=REVERSED, tor=SIDEWAYS)
    h = hall(row("R01", 1200, [(odd,), (lr(3),)]), row("R02", 3600, [(lr(3),)], front=Side.RIGHT))
    report = facility_report(plant(h, **FACTS))  # type: ignore[arg-type]
    assert report.issues == (
        Issue(
            Severity.WARNING,
            "airflow_against_aisle",
            "rows[R01].racks[R01-01].logical_racks[0].server_model",
            "3 servers of model 'S-rev' at U1-U3 of rack 'R01-01' blow rear-to-front, but row 'R01' fronts the cold "
            "aisle between rows R01 and R02: they take in hot exhaust and blow into the cold aisle",
        ),
        Issue(
            Severity.WARNING,
            "airflow_side",
            "rows[R01].racks[R01-01].logical_racks[0].tor_model",
            "1 switch of model 'T-side' at U4 of rack 'R01-01' blows side to side, but row 'R01' fronts the cold "
            "aisle between rows R01 and R02 and expects front-to-rear: the neighbours' exhaust or intake is in the way",
        ),
    )


def test_a_row_backing_onto_a_hot_aisle_expects_front_to_rear_too() -> None:
    # R02's back (y = 4,800) and R03's back (its origin line y = 6,000) face a hot aisle; R03's front faces nothing.
    odd = lr(2, server=REVERSED)
    h = hall(
        row("R01", 1200, [(lr(1),)]),
        row("R02", 3600, [(lr(1),)], front=Side.RIGHT),
        row("R03", 6000, [(odd,)]),
    )
    report = facility_report(plant(h, **FACTS))  # type: ignore[arg-type]
    assert [(i.code, i.field) for i in report.issues] == [
        ("airflow_against_aisle", "rows[R03].racks[R03-01].logical_racks[0].server_model")
    ]
    assert "row 'R03' backs onto the hot aisle between rows R02 and R03" in report.issues[0].message


def test_a_lone_row_has_no_aisle_to_judge_airflow_by() -> None:
    h = hall(row("R01", 1200, [(lr(3, server=REVERSED, tor=SIDEWAYS),)]))
    assert facility_report(plant(h, **FACTS)).issues == ()  # type: ignore[arg-type]


def test_unknown_airflow_is_named_where_the_aisles_judge_it() -> None:
    h = hall(row("R01", 1200, [(lr(3),)]), row("R02", 3600, [(lr(3),)], front=Side.RIGHT))
    no_air = DeviceFacts(max_w=0.0, typical_w=0.0, weight_kg=0.0)
    report = facility_report(plant(h, servers={SERVER.name: no_air}))
    assert report.issues == (
        Issue(
            Severity.WARNING,
            "fact_missing",
            "catalog.server_models[S1].airflow",
            "server model 'S1' has no airflow: the airflow check counted nothing for 6 servers of it",
        ),
    )
