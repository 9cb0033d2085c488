"""The report as a whole: defaults, order of the issues, totals, and bad settings refused by field."""

from __future__ import annotations

from dataclasses import replace

import pytest
from facility_plants import OK_SERVER, OK_SWITCH, SERVER, TOR, cable, feeds, hall, hall_facility, lr, plant, row

from loopline.domain.errors import DomainError
from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import CableFacts, DeviceFacts, RackFacility, TraySpec
from loopline.domain.layout_rules import Severity


def test_a_rack_without_settings_has_the_defaults_and_errors_come_first() -> None:
    # No RackFacility for R01-02: two 230 V 32 A feeds (limit 5.888 kW each). 10 x 700 W = 7 kW: N+N error.
    # Servers with no typical_w: a warning, listed after the errors though the rack comes first.
    h = hall(row("R01", 1200, [(lr(1),), (lr(10),)]))
    facts = {SERVER.name: DeviceFacts(max_w=700.0, weight_kg=0.0)}
    report = facility_report(plant(h, racks={}, servers=facts, switches={TOR.name: OK_SWITCH}))
    assert [(i.severity, i.code, i.field) for i in report.issues] == [
        (Severity.ERROR, "feed_not_redundant", "rows[R01].racks[R01-02].feeds"),
        (Severity.WARNING, "fact_missing", "catalog.server_models[S1].typical_w"),
    ]
    assert [(r.rack, r.row, r.max_w, len(r.feeds)) for r in report.racks] == [
        ("R01-01", "R01", 700.0, 2),
        ("R01-02", "R01", 7_000.0, 2),
    ]
    assert report.totals.max_w == 7_700.0
    assert report.totals.typical_w == 0.0
    assert report.totals.incomplete == ("typical_w",), "0 W typical leaves out ten servers: at least, not exactly"
    assert report.totals.fullest_tray is None
    assert report.totals.fullest_tray_pct == 0.0


def test_the_fullest_tray_is_the_highest_fill() -> None:
    # 10 cables R01-01 -> R01-02 (tiles 1..2 of T1) and 10 more R01-02 -> R01-03 (tiles 2..3): tile 2
    # (1,200..1,800) carries 20.
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),), (lr(1),)]))
    routed = tuple(cable(h, ("R01-01", 1), ("R01-02", 1), "P", label=f"a{i}") for i in range(10)) + tuple(
        cable(h, ("R01-02", 1), ("R01-03", 1), "P", label=f"b{i}") for i in range(10)
    )
    report = facility_report(plant(h, cables={"P": CableFacts(10.0, 0.1, 10.0)}, routed=routed))
    assert [(s.name, s.cables) for s in report.trays] == [("T1-1", 10), ("T1-2", 20), ("T1-3", 10)]
    assert report.totals.fullest_tray == "T1-2"
    assert report.totals.incomplete == ()
    # 20 x pi x 5² = 1,570.8 mm² of 30,000: 5.24 %.
    assert report.totals.fullest_tray_pct == pytest.approx(20 * 3.141592653589793 * 25 / 30_000 * 100)


def test_cables_ending_in_racks_the_hall_no_longer_has_are_named() -> None:
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    kept = cable(h, ("R01-01", 1), ("R01-02", 1), "P", label="kept")
    gone = replace(kept, label="gone", rack_b="R09-09")
    report = facility_report(plant(h, cables={"P": CableFacts(10.0, 0.1, 10.0)}, routed=(kept, gone, gone)))
    assert [(i.severity, i.code, i.field, i.message) for i in report.issues] == [
        (
            Severity.WARNING,
            "plan_racks_gone",
            "cables[gone]",
            "2 cables of the plan end in racks the hall no longer has (e.g. 'gone' in 'R09-09'): their optics and "
            "in-rack weight are counted on no rack; regenerate the plan",
        )
    ]
    assert facility_report(plant(h, cables={"P": CableFacts(10.0, 0.1, 10.0)}, routed=(kept,))).issues == ()


@pytest.mark.parametrize(
    ("lacking", "incomplete"),
    [
        ({"max_w": None}, ("max_w", "heat_w")),
        ({"weight_kg": None}, ("weight_kg",)),
        ({"od_mm": None}, ("fullest_tray",)),
        ({"kg_per_m": None}, ("weight_kg",)),
    ],
)
def test_a_total_that_leaves_something_out_says_so(lacking: dict[str, None], incomplete: tuple[str, ...]) -> None:
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    device = {k: v for k, v in lacking.items() if k in ("max_w", "weight_kg")}
    cable_facts = {k: v for k, v in lacking.items() if k in ("od_mm", "kg_per_m")}
    p = plant(
        h,
        servers={SERVER.name: replace(OK_SERVER, **device)},  # type: ignore[arg-type]
        cables={"P": replace(CableFacts(10.0, 0.1, 10.0), **cable_facts)},  # type: ignore[arg-type]
        routed=(cable(h, ("R01-01", 1), ("R01-02", 1), "P"),),
    )
    assert facility_report(p).totals.incomplete == incomplete


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"floor_load_kg_m2": 0.0}, "floor_load_kg_m2"),
        ({"power_factor": 1.2}, "power_factor"),
        ({"continuous_fraction": 0.0}, "continuous_fraction"),
        ({"tray_runs": {"T1": TraySpec(0, 100, 75.0)}}, "tray_runs[T1]"),
    ],
)
def test_bad_hall_settings_are_refused_naming_the_field(change: dict[str, object], field: str) -> None:
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    p = plant(h, facility=hall_facility(**change), routed=(cable(h, ("R01-01", 1), ("R01-02", 1), "P"),))
    with pytest.raises(DomainError) as err:
        facility_report(p)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("feed", "field", "reason"),
    [
        (("A", 230, 4, 16), "rows[R01].racks[R01-01].feeds[A].phases", "must be 1, 2 or 3, not 4"),
        (("A", 0, 1, 16), "rows[R01].racks[R01-01].feeds[A].voltage_v", "must be > 0, not 0"),
        (("A", 230, 1, -1), "rows[R01].racks[R01-01].feeds[A].breaker_a", "must be > 0, not -1"),
    ],
)
def test_a_bad_feed_is_refused_naming_the_rack_and_feed(
    feed: tuple[str, float, int, float], field: str, reason: str
) -> None:
    h = hall(row("R01", 1200, [(lr(1),)]))
    with pytest.raises(DomainError) as err:
        facility_report(plant(h, racks={"R01-01": RackFacility(feeds=feeds(feed))}))
    assert (err.value.field, err.value.reason) == (field, reason)
