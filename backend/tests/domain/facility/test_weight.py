"""Weight checks, hand-derived: what a rack carries against its static load, and its floor load."""

from __future__ import annotations

import pytest
from facility_plants import OK_SWITCH, RACK_TYPE, SERVER, TOR, TRAY_Z, cable, hall, hall_facility, lr, plant, row

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import (
    Airflow,
    CableFacts,
    DeviceFacts,
    Feed,
    PduModel,
    RackFacility,
)
from loopline.domain.layout import U_MM
from loopline.domain.layout_rules import Issue, Severity


def heavy(server_kg: float, tor_kg: float) -> dict[str, dict[str, DeviceFacts]]:
    air = Airflow.FRONT_TO_REAR
    return {
        "servers": {SERVER.name: DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=server_kg, airflow=air)},
        "switches": {TOR.name: DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=tor_kg, airflow=air)},
    }


Z_U1 = round(0.5 * U_MM)  # 22 mm: the centre of U1
Z_U10 = round(9.5 * U_MM)  # 422 mm


def test_a_rack_over_its_static_load() -> None:
    # Carried: 40 servers x 20 kg + a 10 kg ToR + 2 PDUs x 5 kg + the cable's vertical run in the rack
    # (port at 22 mm up to the tray at 2,167 mm: 2.145 m x 1 kg/m) = 822.145 kg, over 800 kg: 103 %.
    h = hall(row("R01", 1200, [(lr(40),), (lr(1),)]))
    pdu = "PDU-16A"
    rf = RackFacility(feeds=(Feed("A", pdu=pdu), Feed("B", pdu=pdu)), static_load_kg=800.0)
    routed = (cable(h, ("R01-01", 1), ("R01-02", 1), "CAT6A"),)
    report = facility_report(
        plant(
            h,
            racks={"R01-01": rf, "R01-02": RackFacility()},
            pdus={pdu: PduModel(pdu, outlets=24, weight_kg=5.0)},
            cables={"CAT6A": CableFacts(od_mm=6.0, kg_per_m=1.0, min_bend_radius_mm=25.0)},
            routed=routed,
            **heavy(20.0, 10.0),  # type: ignore[arg-type]
        )
    )
    assert TRAY_Z - Z_U1 == 2_145
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "rack_static_load",
            "rows[R01].racks[R01-01].static_load_kg",
            "rack 'R01-01' carries 822.1 kg (devices 810, PDUs 10, cables 2.1), over its static load of 800 kg (103 %)",
        ),
    )
    first, second = report.racks
    assert first.weight_kg == pytest.approx(822.145)
    assert first.static_load_kg == 800.0
    assert first.worst == "weight at 103 % of its 800 kg static load"
    # The second rack carries its server, ToR and the cable's other vertical run: 20 + 10 + 2.145 kg.
    assert second.weight_kg == pytest.approx(32.145)
    assert second.static_load_kg == 10_000.0  # the rack type's rating (the helper's catalog)


def test_the_rack_types_rating_applies_without_a_rack_limit_and_its_absence_is_named() -> None:
    h = hall(row("R01", 1200, [(lr(40),)]))
    (issue,) = facility_report(plant(h, static_load_kg=700.0, **heavy(20.0, 10.0))).issues  # type: ignore[arg-type]
    assert (issue.code, issue.message) == (
        "rack_static_load",
        "rack 'R01-01' carries 810 kg (devices 810, PDUs 0, cables 0), over its static load of 700 kg (116 %)",
    )
    report = facility_report(plant(h, static_load_kg=None, **heavy(20.0, 10.0)))  # type: ignore[arg-type]
    assert report.issues == (
        Issue(
            Severity.WARNING,
            "fact_missing",
            f"catalog.rack_types[{RACK_TYPE}].static_load_kg",
            f"rack type {RACK_TYPE!r} has no static_load_kg: the static load check counted nothing for 1 rack of it",
        ),
    )
    assert report.racks[0].static_load_kg is None


def test_an_in_rack_cable_weighs_its_whole_length_on_its_rack() -> None:
    # U1 to U10 in one rack, same face: 400 mm at 2 kg/m = 0.8 kg.
    h = hall(row("R01", 1200, [(lr(10),)]))
    routed = (cable(h, ("R01-01", 1), ("R01-01", 10), "DAC"),)
    facts = {"DAC": CableFacts(od_mm=5.0, kg_per_m=2.0, min_bend_radius_mm=10.0)}
    report = facility_report(plant(h, cables=facts, routed=routed, **heavy(0.0, 0.0)))  # type: ignore[arg-type]
    assert Z_U10 - Z_U1 == 400
    assert report.racks[0].weight_kg == pytest.approx(0.8)
    assert report.trays == ()


def test_a_rack_over_the_floor_rating() -> None:
    # 150 kg cabinet + 40 x 25 kg + a 10 kg ToR = 1,160 kg on 0.6 x 1.2 = 0.72 m²: 1,611.1 kg/m² > 1,200 (134 %).
    h = hall(row("R01", 1200, [(lr(40),)]))
    report = facility_report(
        plant(h, rack_types={RACK_TYPE: DeviceFacts(weight_kg=150.0)}, **heavy(25.0, 10.0))  # type: ignore[arg-type]
    )
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "floor_load",
            "rows[R01].racks[R01-01]",
            "rack 'R01-01' puts 1,160 kg (its own 150 kg included) on 0.72 m² (0.6 x 1.2 m): 1,611.1 kg/m², over "
            "the floor's rating of 1,200 kg/m² (134 %)",
        ),
    )
    (load,) = report.racks
    assert load.weight_kg == 1_010.0
    assert load.floor_kg_m2 == pytest.approx(1_611.11, abs=0.01)
    assert load.worst == "floor load at 134 % of the floor's 1,200 kg/m²"
    assert report.totals.weight_kg == 1_160.0
    # 36 servers: 150 + 900 + 10 = 1,060 kg / 0.72 = 1,472 kg/m²; a 1,500 kg/m² floor holds it.

    h36 = hall(row("R01", 1200, [(lr(36),)]))
    strong = hall_facility(floor_load_kg_m2=1_500.0)
    rt = {RACK_TYPE: DeviceFacts(weight_kg=150.0)}
    assert facility_report(plant(h36, facility=strong, rack_types=rt, **heavy(25.0, 10.0))).issues == ()  # type: ignore[arg-type]


def test_missing_weights_are_named() -> None:
    h = hall(row("R01", 1200, [(lr(2),)]))
    no_weight = DeviceFacts(typical_w=0.0, max_w=0.0, airflow=Airflow.FRONT_TO_REAR)
    rf = RackFacility(feeds=(Feed("A", pdu="PDU-X"),))
    report = facility_report(
        plant(h, racks={"R01-01": rf}, servers={SERVER.name: no_weight}, switches={TOR.name: OK_SWITCH}, rack_types={})
    )
    assert [(i.code, i.field) for i in report.issues] == [
        ("fact_missing", "catalog.pdus[PDU-X].weight_kg"),
        ("fact_missing", f"catalog.rack_types[{RACK_TYPE}].weight_kg"),
        ("fact_missing", "catalog.server_models[S1].weight_kg"),
    ]
    assert report.issues[2].message == (
        "server model 'S1' has no weight_kg: the rack weight and floor load check counted nothing for 2 servers of it"
    )
