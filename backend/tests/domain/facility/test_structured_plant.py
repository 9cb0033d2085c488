"""A structured plan's panels and per-port optics in the facility checks, hand-derived (the plant's
cables are routed cables like any other: `tests/api/test_facility_structured.py` routes them)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from facility_plants import SERVER, TOR, hall, lr, plant, row

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import (
    Airflow,
    DeviceFacts,
    FittedOptic,
    MountedPanel,
    OpticFacts,
    RackFacility,
)
from loopline.domain.layout_rules import Issue, Severity

AIR = Airflow.FRONT_TO_REAR


def test_panels_and_cassettes_weigh_on_their_rack() -> None:
    # Carried by R01-01: 40 servers x 20 kg + a 10 kg ToR = 810 kg, and a 2 kg panel with 3 cassettes
    # of 0.25 kg = 2.75 kg: 812.75 kg over 800 kg (101.6 %).
    h = hall(row("R01", 1200, [(lr(40),), (lr(1),)]))
    base = plant(
        h,
        racks={"R01-01": RackFacility(static_load_kg=800.0), "R01-02": RackFacility()},
        servers={SERVER.name: DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=20.0, airflow=AIR)},
        switches={TOR.name: DeviceFacts(typical_w=0.0, max_w=0.0, weight_kg=10.0, airflow=AIR)},
    )
    report = facility_report(
        replace(
            base,
            panels=(MountedPanel("R01-01", "P1", "C1", 3),),
            panel_models={"P1": DeviceFacts(weight_kg=2.0)},
            cassette_models={"C1": DeviceFacts(weight_kg=0.25)},
        )
    )
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "rack_static_load",
            "rows[R01].racks[R01-01].static_load_kg",
            "rack 'R01-01' carries 812.8 kg (devices 810, PDUs 0, cables 0, panels 2.8), over its static load of "
            "800 kg (102 %)",
        ),
    )
    assert [r.weight_kg for r in report.racks] == [pytest.approx(812.75), pytest.approx(30.0)]
    assert report.totals.weight_kg == pytest.approx(842.75)


def test_a_panel_without_a_weight_is_named_and_counts_nothing() -> None:
    h = hall(row("R01", 1200, [(lr(1),)]))
    report = facility_report(
        replace(plant(h), panels=(MountedPanel("R01-01", "P1", "C1", 2), MountedPanel("R01-01", "P1", None, 0)))
    )
    assert report.racks[0].weight_kg == 0.0
    assert [(i.field, i.message) for i in report.issues] == [
        (
            "catalog.cassettes[C1].weight_kg",
            "cassette model 'C1' has no weight_kg: the rack weight and floor load check counted nothing for "
            "2 cassettes of it",
        ),
        (
            "catalog.panels[P1].weight_kg",
            "panel model 'P1' has no weight_kg: the rack weight and floor load check counted nothing for "
            "2 panels of it",
        ),
    ]
    assert report.totals.incomplete == ("weight_kg",)


def test_fitted_optics_draw_in_their_rack_once_per_port() -> None:
    # R01-01: 2 ports of a 9 W optic (18 W) and 3 of a part without a figure (named, per port);
    # R01-02: 4 x 3.5 W = 14 W. Devices draw nothing (the helper's facts).
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    report = facility_report(
        replace(
            plant(h, optics={"DR4": OpticFacts(max_w=9.0), "DR": OpticFacts(max_w=3.5)}),
            fitted_optics=(
                FittedOptic("R01-01", "DR4", 2),
                FittedOptic("R01-01", "X", 3),
                FittedOptic("R01-02", "DR", 4),
            ),
        )
    )
    assert [(r.rack, r.max_w, r.typical_w) for r in report.racks] == [("R01-01", 18.0, 18.0), ("R01-02", 14.0, 14.0)]
    assert [(i.field, i.message) for i in report.issues] == [
        (
            "catalog.optics[X].max_w",
            "optic part 'X' has no max_w: the power and cooling check counted nothing for 3 ports of it",
        ),
    ]
    assert report.totals.incomplete == ("typical_w", "max_w", "heat_w")
