"""Trays and bends, hand-derived: the tray system named from the routes, fill, weight, bends.

Geometry (facility_plants): R01 fronts y = 2,400; its racks' port faces are at x = 900, 1,500, 2,100;
the tray is at z = 2,167 mm; tiles are 600 mm. A cable R01-01 -> R01-03 runs along x from 900 to
2,100 at y = 2,400: tiles 1 (900..1,200), 2 (1,200..1,800) and 3 (1,800..2,100) of that line.
"""

from __future__ import annotations

import math

import pytest
from facility_plants import TRAY_Z, cable, hall, hall_facility, lr, plant, row

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import (
    CableFacts,
    FacilityReport,
    RoutedCable,
    TrayLevel,
    TraySegmentLoad,
    TraySpec,
)
from loopline.domain.layout import Hall, Side
from loopline.domain.layout_rules import Issue, Severity
from loopline.domain.routing import Via


def one_row() -> Hall:
    return hall(row("R01", 1200, [(lr(40),), (lr(40),), (lr(40),)]))


def bundle(h: Hall, n: int, part: str, a: str = "R01-01", b: str = "R01-03") -> tuple[RoutedCable, ...]:
    """`n` cables between two racks, their ends spread over U1..U40."""
    return tuple(cable(h, (a, 1 + i % 40), (b, 1 + i % 40), part, label=f"{part}-{i:05d}") for i in range(n))


def report_for(h: Hall, routed: tuple[RoutedCable, ...], facts: CableFacts, **kw: object) -> FacilityReport:
    return facility_report(plant(h, cables={"P": facts}, routed=routed, **kw))  # type: ignore[arg-type]


def fill(n: int, od_mm: float, area_mm2: float = 300 * 100) -> float:
    return n * math.pi * od_mm**2 / 4 / area_mm2 * 100


def test_the_issue_example_1200_cables_of_3_mm_fill_a_300_by_100_tray_to_28_3_pct() -> None:
    h = one_row()
    report = report_for(h, bundle(h, 1200, "P"), CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=20.0))
    assert report.issues == ()
    expected = 1200 * math.pi * 1.5**2 / 30_000 * 100
    assert round(expected, 1) == 28.3
    assert report.trays == tuple(
        TraySegmentLoad(
            name=f"T1-{k}",
            run="T1",
            level=TrayLevel.ABOVE_RACKS,
            start=(x0, 2400, TRAY_Z),
            end=(x1, 2400, TRAY_Z),
            cables=1200,
            fill_pct=pytest.approx(expected),  # type: ignore[arg-type]
            limit_pct=50.0,
            kg_per_m=pytest.approx(12.0),  # type: ignore[arg-type]
            load_kg_per_m=75.0,
        )
        for k, (x0, x1) in enumerate(((900, 1200), (1200, 1800), (1800, 2100)), 1)
    )
    assert report.totals.fullest_tray == "T1-1"
    assert report.totals.fullest_tray_pct == pytest.approx(expected)


def test_fill_over_the_limit_and_the_signal_only_allowance() -> None:
    h = one_row()
    routed = bundle(h, 1200, "P")
    # 3.8 mm: 45.4 %: within the signal-only 50 %, over 40 % once the cables are not signal-only.
    assert fill(1200, 3.8) == pytest.approx(45.36, abs=0.01)
    assert report_for(h, routed, CableFacts(od_mm=3.8, kg_per_m=0.01, min_bend_radius_mm=20.0)).issues == ()
    power = report_for(h, routed, CableFacts(od_mm=3.8, kg_per_m=0.01, min_bend_radius_mm=20.0, signal_only=False))
    assert [i.field for i in power.issues] == ["trays[T1-1]", "trays[T1-2]", "trays[T1-3]"]
    assert power.issues[0] == Issue(
        Severity.ERROR,
        "tray_fill",
        "trays[T1-1]",
        "tray segment T1-1 (above-racks, 300 x 100 mm) is 45.4 % full with 1,200 cables, over its 40 % limit",
    )
    # 4.0 mm: 50.3 %, over the signal-only limit too.
    (first, *_) = report_for(h, routed, CableFacts(od_mm=4.0, kg_per_m=0.01, min_bend_radius_mm=20.0)).issues
    assert first.message == (
        "tray segment T1-1 (above-racks, 300 x 100 mm) is 50.3 % full with 1,200 cables, over its 50 % limit "
        "(signal-only tray)"
    )


def test_tray_weight_over_its_rating() -> None:
    # 1,200 x 0.07 kg/m = 84 kg/m on a 75 kg/m tray: 112 %.
    h = one_row()
    report = report_for(h, bundle(h, 1200, "P"), CableFacts(od_mm=2.0, kg_per_m=0.07, min_bend_radius_mm=20.0))
    assert [i.code for i in report.issues] == ["tray_overload"] * 3
    assert report.issues[1] == Issue(
        Severity.ERROR,
        "tray_overload",
        "trays[T1-2]",
        "tray segment T1-2 (above-racks, 300 x 100 mm) carries 84.0 kg/m of 1,200 cables, over its rating of "
        "75 kg/m (112 %)",
    )


def test_a_run_of_its_own_overrides_the_levels_tray() -> None:
    h = one_row()
    wide = hall_facility(tray_runs={"T1": TraySpec(600, 100, 150.0)})
    report = report_for(
        h, bundle(h, 1200, "P"), CableFacts(od_mm=3.0, kg_per_m=0.1, min_bend_radius_mm=20.0), facility=wide
    )
    assert report.issues == ()  # 120 kg/m on 150 kg/m
    assert report.trays[0].fill_pct == pytest.approx(fill(1200, 3.0, 600 * 100))


def test_runs_are_named_by_level_axis_and_line_and_cut_at_the_tiles() -> None:
    # R01 fronts y = 2,400; R02 (front on its origin line) fronts y = 3,600. A cable R01-01 -> R02-03 runs
    # along x at y = 2,400 (900..2,100), then across at x = 2,100 (2,400..3,600); one R02-01 -> R01-03
    # along x at y = 3,600, then across at x = 2,100 back to 2,400. Under the floor (void 600 mm, level
    # -300 mm) a third cable R01-02 -> R02-02 runs straight across at x = 1,500.
    h = Hall(
        "H1",
        20_000,
        20_000,
        rows=(
            row("R01", 1200, [(lr(1),), (lr(1),), (lr(1),)]),
            row("R02", 3600, [(lr(1),), (lr(1),), (lr(1),)], front=Side.RIGHT),
        ),
        raised_floor_mm=600,
    )
    routed = (
        cable(h, ("R01-01", 1), ("R02-03", 1), "P", label="c1"),
        cable(h, ("R02-01", 1), ("R01-03", 1), "P", label="c2"),
        cable(h, ("R01-02", 1), ("R02-02", 1), "P", label="c3", via=Via.FLOOR),
    )
    report = report_for(h, routed, CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=20.0))
    got = [(s.name, s.level, s.start, s.end, s.cables) for s in report.trays]
    above, across, under = TrayLevel.ABOVE_RACKS, TrayLevel.CROSS_AISLE, TrayLevel.UNDER_FLOOR
    assert got == [
        ("T1-1", above, (900, 2400, TRAY_Z), (1200, 2400, TRAY_Z), 1),
        ("T1-2", above, (1200, 2400, TRAY_Z), (1800, 2400, TRAY_Z), 1),
        ("T1-3", above, (1800, 2400, TRAY_Z), (2100, 2400, TRAY_Z), 1),
        ("T2-1", above, (900, 3600, TRAY_Z), (1200, 3600, TRAY_Z), 1),
        ("T2-2", above, (1200, 3600, TRAY_Z), (1800, 3600, TRAY_Z), 1),
        ("T2-3", above, (1800, 3600, TRAY_Z), (2100, 3600, TRAY_Z), 1),
        ("T3-1", across, (2100, 2400, TRAY_Z), (2100, 3000, TRAY_Z), 2),
        ("T3-2", across, (2100, 3000, TRAY_Z), (2100, 3600, TRAY_Z), 2),
        ("T4-1", under, (1500, 2400, -300), (1500, 3000, -300), 1),
        ("T4-2", under, (1500, 3000, -300), (1500, 3600, -300), 1),
    ]


def test_cables_along_the_rack_faces_or_inside_a_rack_use_no_tray() -> None:
    h = one_row()
    routed = (
        cable(h, ("R01-01", 1), ("R01-03", 5), "P", via=Via.FACES),
        cable(h, ("R01-01", 1), ("R01-01", 30), "P"),
    )
    assert report_for(h, routed, CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=20.0)).trays == ()


def test_a_bend_tighter_than_the_cables_minimum_names_the_cable_and_the_corner() -> None:
    # A 25 mm (loaded) fibre through tray corners of 20 mm radius: one warning for the part, naming the first
    # cable by label and its first corner, where it turns from its climb onto the tray (x = 900: T1-1).
    h = one_row()
    routed = bundle(h, 3, "P")
    hf = hall_facility(tray_bend_radius_mm=20.0)
    facts = CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=25.0)
    report = report_for(h, routed, facts, facility=hf)
    assert report.issues == (
        Issue(
            Severity.WARNING,
            "bend_too_tight",
            "cables[P-00000].points[1]",
            f"cable 'P-00000' (P, minimum bend radius 25 mm) turns at (900, 2400, {TRAY_Z}) mm on tray segment T1-1 "
            "(and 1 more corner of its own) bent at the hall's 20 mm radius; 2 more cables of this part turn at "
            "4 more corners",
        ),
    )
    # At 25 mm (or wider) the fibre bends within its minimum: no warning.
    assert report_for(h, routed, facts, facility=hall_facility(tray_bend_radius_mm=25.0)).issues == ()


def test_a_corner_at_the_far_end_of_a_leg_is_named_by_the_tile_the_leg_ends_in() -> None:
    from loopline.domain.facility.facts import MissingFacts
    from loopline.domain.facility.trays import _where, tray_system

    h = one_row()
    (c,) = bundle(h, 1, "P")
    p = plant(h, cables={"P": CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=25.0)}, routed=(c,))
    system = tray_system(p, MissingFacts())
    assert _where(system, c, 2) == "on tray segment T1-3"  # (2,100, 2,400): the leg 900..2,100 ends in tile 3


def test_cable_facts_the_trays_need_are_named() -> None:
    h = one_row()
    report = report_for(h, bundle(h, 4, "P"), CableFacts())
    assert [(i.field, i.message) for i in report.issues] == [
        (
            "catalog.cables[P].kg_per_m",
            "cable part 'P' has no kg_per_m: the rack weight and floor load check counted nothing for 8 cable ends "
            "of it; the tray weight check counted nothing for 4 cables of it",
        ),
        (
            "catalog.cables[P].min_bend_radius_mm",
            "cable part 'P' has no min_bend_radius_mm: the bend radius check counted nothing for 4 cables of it",
        ),
        (
            "catalog.cables[P].od_mm",
            "cable part 'P' has no od_mm: the tray fill check counted nothing for 4 cables of it",
        ),
    ]


def test_a_bend_off_the_trays_is_named_by_its_rack() -> None:
    # Along the rack faces (paper): up from U1 (22 mm) to U5's height (200 mm) at R01-01, then along x.
    h = one_row()
    c = cable(h, ("R01-01", 1), ("R01-03", 5), "P", via=Via.FACES, label="faces")
    assert c.points == ((900, 2400, 22), (900, 2400, 200), (2100, 2400, 200))
    facts = CableFacts(od_mm=3.0, kg_per_m=0.01, min_bend_radius_mm=25.0)
    (issue,) = report_for(h, (c,), facts, facility=hall_facility(tray_bend_radius_mm=20.0)).issues
    assert (issue.field, issue.message) == (
        "cables[faces].points[1]",
        "cable 'faces' (P, minimum bend radius 25 mm) turns at (900, 2400, 200) mm off the trays, by rack R01-01 "
        "bent at the hall's 20 mm radius",
    )
