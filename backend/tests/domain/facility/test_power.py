"""Power checks, hand-derived: feeds (single and N+N), the rack budget, phase balance, optics."""

from __future__ import annotations

import pytest
from facility_plants import OK_SERVER, OK_SWITCH, SERVER, TOR, cable, feeds, hall, hall_facility, lr, plant, row

from loopline.domain.facility.checks import facility_report
from loopline.domain.facility.model import DeviceFacts, FacilityReport, FeedLoad, OpticFacts, RackFacility
from loopline.domain.layout_rules import Issue, Severity

RACK = "rows[R01].racks[R01-01]"


def servers_at(max_w: float, typical_w: float = 0.0) -> dict[str, DeviceFacts]:
    return {SERVER.name: DeviceFacts(typical_w=typical_w, max_w=max_w, weight_kg=0.0, airflow=OK_SERVER.airflow)}


def one_rack(servers: int, rack: RackFacility, server_w: float, **kw: object) -> FacilityReport:
    h = hall(row("R01", 1200, [(lr(servers),)]))
    return facility_report(plant(h, racks={"R01-01": rack}, servers=servers_at(server_w), **kw))  # type: ignore[arg-type]


def test_the_issue_example_n_plus_n_names_the_rack_and_both_feeds() -> None:
    # 40 servers x 700 W = 28 kW (the ToR draws nothing here, as in the issue's example) on
    # 2 x (230 V, 32 A, 1 phase) at PF 1: 7.36 kW each, continuous limit 0.8 x 7.36 = 5.888 kW.
    report = one_rack(40, RackFacility(feeds=feeds(("A", 230, 1, 32), ("B", 230, 1, 32))), 700.0)
    terms = "80 % of 230 V x 32 A x 1 phase x PF 1 = 7.36 kW"
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "feed_not_redundant",
            f"{RACK}.feeds",
            "rack 'R01-01' draws up to 28 kW; with 2 feeds (N+N) each must carry the whole rack alone, but "
            f"feeds A and B cannot: feed A takes at most 5.888 kW ({terms}); feed B takes at most 5.888 kW ({terms})",
        ),
    )
    (load,) = report.racks
    assert load.max_w == 28_000
    assert [f.feed for f in load.feeds] == ["A", "B"]
    for f in load.feeds:
        assert f.capacity_w == pytest.approx(7_360)
        assert f.limit_w == pytest.approx(5_888)
        assert f.load_w == 28_000
        assert f.phase_w == (28_000,)
    # 28,000 / 5,888 = 475.5 %: the feeds are the worst ratio, the first of two equal ones named.
    assert load.worst_pct == pytest.approx(475.54, abs=0.01)
    assert load.worst == "feed A at 476 % of its 80 % limit"


def test_n_plus_n_names_only_the_feed_that_cannot_carry_the_rack() -> None:
    # 8 servers x 700 W = 5.6 kW: feed A (32 A, limit 5.888 kW) carries it, feed B (16 A, 2.944 kW) cannot.
    report = one_rack(8, RackFacility(feeds=feeds(("A", 230, 1, 32), ("B", 230, 1, 16))), 700.0)
    (issue,) = report.issues
    assert (issue.code, issue.field) == ("feed_not_redundant", f"{RACK}.feeds")
    assert "but feed B cannot: feed B takes at most 2.944 kW (80 % of 230 V x 16 A x 1 phase x PF 1 = 3.68 kW)" in (
        issue.message
    )
    assert "feed A" not in issue.message


def test_a_single_feed_over_its_continuous_limit() -> None:
    # 230 V x 16 A = 3.68 kW, limit 2.944 kW. 10 x 300 W = 3.0 kW: 102 %; 9 x 300 W = 2.7 kW fits.
    single = RackFacility(feeds=feeds(("A", 230, 1, 16)))
    report = one_rack(10, single, 300.0)
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "feed_over_limit",
            f"{RACK}.feeds[A]",
            "rack 'R01-01' draws up to 3 kW, 102 % of the 2.944 kW continuous limit of feed A "
            "(80 % of 230 V x 16 A x 1 phase x PF 1 = 3.68 kW)",
        ),
    )
    assert one_rack(9, single, 300.0).issues == ()


def test_the_power_factor_and_the_continuous_fraction_are_the_halls() -> None:
    # PF 0.9, 100 % continuous: 230 x 16 x 0.9 = 3,312 W. 11 x 300 W = 3.3 kW fits, 12 (3.6 kW) does not.
    single = RackFacility(feeds=feeds(("A", 230, 1, 16)))
    hf = hall_facility(power_factor=0.9, continuous_fraction=1.0)
    assert one_rack(11, single, 300.0, facility=hf).issues == ()
    (issue,) = one_rack(12, single, 300.0, facility=hf).issues
    assert issue.code == "feed_over_limit"
    assert "3.312 kW continuous limit of feed A (100 % of 230 V x 16 A x 1 phase x PF 0.9 = 3.312 kW)" in issue.message


def test_the_rack_power_budget() -> None:
    # Budget 5 kW; 20 x 260 W = 5.2 kW (104 %) over it; 19 x 260 W = 4.94 kW within. The feeds (5.888 kW) carry both.
    budget = RackFacility(power_budget_kw=5.0)
    report = one_rack(20, budget, 260.0)
    assert report.issues == (
        Issue(
            Severity.ERROR,
            "rack_power_budget",
            f"{RACK}.power_budget_kw",
            "rack 'R01-01' draws up to 5.2 kW, over its power budget of 5 kW (104 %)",
        ),
    )
    assert report.racks[0].budget_w == 5_000
    assert report.racks[0].worst == "draw at 104 % of its 5 kW budget"
    assert one_rack(19, budget, 260.0).issues == ()


def test_phase_imbalance_on_a_three_phase_feed() -> None:
    # 3-phase feed 230 V 16 A: 11.04 kW, limit 8.832 kW. Servers at U1..U4 (500 W each), the ToR at U5 (0 W).
    # Round-robin in U order: U1 L1, U2 L2, U3 L3, U4 L1, U5 L2 -> 1000 / 500 / 500 W; mean 666.7 W,
    # the farthest phase 333.3 W from it: 50 % > 10 %.
    three = RackFacility(feeds=feeds(("A", 230, 3, 16)))
    report = one_rack(4, three, 500.0)
    assert report.issues == (
        Issue(
            Severity.WARNING,
            "phase_imbalance",
            f"{RACK}.feeds[A]",
            "rack 'R01-01' loads its phases unevenly (devices on the phases round-robin in U order, as PDU outlet "
            "banks alternate): feed A: 1 / 0.5 / 0.5 kW, 50.0 % from the mean; the hall allows 10 %",
        ),
    )
    (load,) = report.racks[0].feeds
    assert load == FeedLoad("A", pytest.approx(11_040), pytest.approx(8_832), 2_000, (1_000, 500, 500))  # type: ignore[arg-type]
    # Three servers: 500 W on each phase (the ToR's 0 W on L1): balanced.
    assert one_rack(3, three, 500.0).issues == ()


def test_optics_draw_in_the_rack_of_each_end() -> None:
    # Two racks, one optic link between them (3.5 W per end) and one passive cable: each rack gets 3.5 W.
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    routed = (
        cable(h, ("R01-01", 1), ("R01-02", 1), "FIBRE", optic="SR4"),
        cable(h, ("R01-01", 1), ("R01-02", 1), "DAC"),
    )
    report = facility_report(
        plant(h, servers=servers_at(100.0, 80.0), optics={"SR4": OpticFacts(max_w=3.5)}, routed=routed)
    )
    assert [(r.rack, r.typical_w, r.max_w) for r in report.racks] == [("R01-01", 83.5, 103.5), ("R01-02", 83.5, 103.5)]
    assert report.totals.max_w == 207.0
    assert report.totals.typical_w == 167.0
    assert report.totals.heat_w == 207.0


def test_an_optic_without_watts_is_named_never_counted_as_zero() -> None:
    h = hall(row("R01", 1200, [(lr(1),), (lr(1),)]))
    routed = tuple(cable(h, ("R01-01", 1), ("R01-02", 1), "FIBRE", optic="LR4", label=f"c{i}") for i in range(3))
    report = facility_report(plant(h, optics={}, routed=routed))
    facts = [i for i in report.issues if i.code == "fact_missing" and "optics" in i.field]
    assert facts == [
        Issue(
            Severity.WARNING,
            "fact_missing",
            "catalog.optics[LR4].max_w",
            "optic part 'LR4' has no max_w: the power and cooling check counted nothing for 6 cable ends of it",
        )
    ]


def test_a_rack_with_devices_and_no_feed() -> None:
    report = one_rack(2, RackFacility(feeds=()), 100.0)
    assert report.issues == (
        Issue(
            Severity.ERROR, "rack_no_feed", f"{RACK}.feeds", "rack 'R01-01' draws up to 0.2 kW but has no power feed"
        ),
    )


def test_devices_without_max_w_are_named_once_per_model() -> None:
    # Two racks of 10 servers and a ToR whose models lack max_w: one warning per (model, fact).
    h = hall(row("R01", 1200, [(lr(10),), (lr(10),)]))
    no_power = DeviceFacts(weight_kg=1.0, airflow=OK_SERVER.airflow)
    report = facility_report(plant(h, servers={SERVER.name: no_power}, switches={TOR.name: OK_SWITCH}))
    assert [(i.field, i.message) for i in report.issues] == [
        (
            "catalog.server_models[S1].max_w",
            "server model 'S1' has no max_w: the power and cooling check counted nothing for 20 servers of it",
        ),
        (
            "catalog.server_models[S1].typical_w",
            "server model 'S1' has no typical_w: the typical power total check counted nothing for 20 servers of it",
        ),
    ]
    assert all(i.severity is Severity.WARNING and i.code == "fact_missing" for i in report.issues)
