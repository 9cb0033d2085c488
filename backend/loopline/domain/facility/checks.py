"""Every facility check over one hall: `facility_report(plant) -> FacilityReport` (issue 28, item 3).

Power (`power`), heat and airflow (`heat`), weight (`weight`), trays and bends (`trays`); facts the
catalog lacks are reported once each (`facts`). Issues use the layout rules' format and field paths
(``rows[R01].racks[R01-03].feeds[A]``, ``rows[R01]``, ``trays[T3-12]``), errors first, otherwise in
a stable order: racks in the hall's order (each rack's power, heat, airflow and weight findings),
then rows and the hall, trays in run order, bends, missing facts.

A rack the plant has no `RackFacility` for has the defaults (two 230 V 32 A single-phase feeds, no
budget or cooling of its own): a new hall works without anything filled in.
"""

from __future__ import annotations

from collections import Counter

from loopline.domain.errors import DomainError
from loopline.domain.facility.devices import device_groups
from loopline.domain.facility.facts import CatalogKind, MissingFacts, plural
from loopline.domain.facility.heat import check_airflow, check_rack_cooling, check_room_cooling, intakes, left_to_room_w
from loopline.domain.facility.model import (
    FacilityReport,
    FacilityTotals,
    FeedLoad,
    HallFacility,
    MountedPanel,
    Plant,
    RackFacility,
    RackLoad,
)
from loopline.domain.facility.power import (
    check_budget,
    check_feeds,
    check_phases,
    device_draw,
    feed_loads,
    fitted_optic_ports,
    kw,
    optic_ends,
    optic_watts,
)
from loopline.domain.facility.trays import check_bends, check_trays, tray_system
from loopline.domain.facility.weight import (
    RackWeight,
    check_floor_load,
    check_static_load,
    footprint_m2,
    in_rack_cable_mm,
    kg,
    rack_weight,
    static_load_kg,
)
from loopline.domain.layout_rules import Issue, Severity, rack_path

DEFAULT_RACK = RackFacility()


def _validate(plant: Plant) -> None:
    f = plant.facility
    if f.floor_load_kg_m2 <= 0:
        raise DomainError("floor_load_kg_m2", "must be > 0")
    if not 0 < f.power_factor <= 1:
        raise DomainError("power_factor", "must be > 0 and at most 1")
    if not 0 < f.continuous_fraction <= 1:
        raise DomainError("continuous_fraction", "must be > 0 and at most 1")
    for row in plant.hall.rows:
        for rack in row.racks:
            for feed in plant.racks.get(rack.name, DEFAULT_RACK).feeds:
                field = f"{rack_path(row, rack)}.feeds[{feed.name}]"
                if feed.voltage_v <= 0:
                    raise DomainError(f"{field}.voltage_v", f"must be > 0, not {feed.voltage_v:g}")
                if feed.breaker_a <= 0:
                    raise DomainError(f"{field}.breaker_a", f"must be > 0, not {feed.breaker_a:g}")
                if feed.phases not in (1, 2, 3):
                    raise DomainError(f"{field}.phases", f"must be 1, 2 or 3, not {feed.phases}")


def _worst(
    facility: HallFacility,
    rack: RackFacility,
    max_w: float,
    feeds: tuple[FeedLoad, ...],
    cooling_w: float | None,
    weight: RackWeight,
    static_kg: float | None,
    floor_kg_m2: float,
) -> tuple[float, str]:
    """The highest of the rack's ratios, in %, and which it is (the first on a tie)."""
    ratios: list[tuple[float, str]] = []
    if rack.power_budget_kw is not None and rack.power_budget_kw > 0:
        pct = max_w / (rack.power_budget_kw * 1000) * 100
        ratios.append((pct, f"draw at {pct:.0f} % of its {rack.power_budget_kw:g} kW budget"))
    for load in feeds:
        pct = load.load_w / load.limit_w * 100
        ratios.append((pct, f"feed {load.feed} at {pct:.0f} % of its {facility.continuous_fraction * 100:g} % limit"))
    if cooling_w is not None and cooling_w > 0:
        pct = max_w / cooling_w * 100
        ratios.append((pct, f"heat at {pct:.0f} % of its {kw(cooling_w)} kW cooling"))
    if static_kg is not None and static_kg > 0:
        pct = weight.carried_kg / static_kg * 100
        ratios.append((pct, f"weight at {pct:.0f} % of its {kg(static_kg)} kg static load"))
    pct = floor_kg_m2 / facility.floor_load_kg_m2 * 100
    ratios.append((pct, f"floor load at {pct:.0f} % of the floor's {kg(facility.floor_load_kg_m2)} kg/m²"))
    best = ratios[0]
    for ratio in ratios[1:]:
        if ratio[0] > best[0]:
            best = ratio
    return best


_TOTALS_NEEDING: dict[str, set[tuple[str | None, str]]] = {
    "typical_w": {(None, "typical_w"), (CatalogKind.OPTIC[0], "max_w")},
    "max_w": {(None, "max_w")},
    "heat_w": {(None, "max_w")},
    "weight_kg": {(None, "weight_kg"), (None, "kg_per_m")},
    "fullest_tray": {(None, "od_mm")},
}
"""Each total and the (kind, fact) whose absence leaves something out of it (kind None: any; an
optic's max_w is also its typical figure)."""


def _incomplete(lacking: frozenset[tuple[str, str]]) -> tuple[str, ...]:
    return tuple(
        total
        for total, needs in _TOTALS_NEEDING.items()
        if any((kind is None or kind == k) and fact == f for kind, fact in needs for k, f in lacking)
    )


def _cables_outside_the_hall(plant: Plant) -> list[Issue]:
    """A plan's cables whose end racks the hall no longer has (moved or deleted since the plan was
    made): their optics and in-rack lengths count on no rack; said, never dropped silently."""
    racks = {rack.name for row in plant.hall.rows for rack in row.racks}
    strays = [c for c in plant.routed if c.rack_a not in racks or c.rack_b not in racks]
    if not strays:
        return []
    first = strays[0]
    gone = first.rack_a if first.rack_a not in racks else first.rack_b
    return [
        Issue(
            Severity.WARNING,
            "plan_racks_gone",
            f"cables[{first.label}]",
            f"{plural(len(strays), 'cable')} of the plan end in racks the hall no longer has (e.g. {first.label!r} "
            f"in {gone!r}): their optics and in-rack weight are counted on no rack; regenerate the plan",
        )
    ]


def facility_report(plant: Plant) -> FacilityReport:
    _validate(plant)
    hall, facility = plant.hall, plant.facility
    missing = MissingFacts()
    optics = optic_ends(plant.routed)
    fitted = fitted_optic_ports(plant.fitted_optics)
    panels: dict[str, list[MountedPanel]] = {}
    for panel in plant.panels:
        panels.setdefault(panel.rack, []).append(panel)
    in_rack = in_rack_cable_mm(plant.routed)
    intake = intakes(hall)
    issues: list[Issue] = []
    racks: list[RackLoad] = []
    heat_by_row: dict[str, float] = {}
    on_floor_kg = 0.0
    """What the racks put on the floor: what they carry and their own weight."""
    for row in hall.rows:
        heat_by_row[row.name] = 0.0
        for rack in row.racks:
            path = rack_path(row, rack)
            rf = plant.racks.get(rack.name, DEFAULT_RACK)
            groups = device_groups(plant, rack)
            typical_w, max_w = device_draw(groups, missing)
            optic_w = optic_watts(optics.get(rack.name), plant.optics, missing)
            if fitted:
                optic_w += optic_watts(fitted.get(rack.name), plant.optics, missing, "port")
            typical_w += optic_w
            max_w += optic_w
            feeds = feed_loads(rf, facility, groups, max_w, optic_w)
            issues += check_feeds(path, rack.name, rf, facility, feeds, max_w)
            issues += check_budget(path, rack.name, rf, max_w)
            issues += check_phases(path, rack.name, rf, facility, feeds)
            cooling_w = None if rf.cooling_kw is None else rf.cooling_kw * 1000
            issues += check_rack_cooling(path, rack.name, cooling_w, max_w)
            heat_by_row[row.name] += left_to_room_w(max_w, cooling_w)
            issues += check_airflow(path, rack.name, row, intake.get(row.name), groups, missing)
            weight = rack_weight(plant, rack, rf, groups, in_rack.get(rack.name), missing, panels.get(rack.name, ()))
            static_kg = static_load_kg(plant, rack, rf, missing)
            issues += check_static_load(path, rack.name, weight, static_kg)
            issues += check_floor_load(path, rack, weight, facility.floor_load_kg_m2)
            floor_kg_m2 = weight.on_floor_kg / footprint_m2(rack)
            on_floor_kg += weight.on_floor_kg
            worst_pct, worst = _worst(facility, rf, max_w, feeds, cooling_w, weight, static_kg, floor_kg_m2)
            racks.append(
                RackLoad(
                    rack=rack.name,
                    row=row.name,
                    typical_w=typical_w,
                    max_w=max_w,
                    budget_w=None if rf.power_budget_kw is None else rf.power_budget_kw * 1000,
                    cooling_w=cooling_w,
                    weight_kg=weight.carried_kg,
                    static_load_kg=static_kg,
                    floor_kg_m2=floor_kg_m2,
                    feeds=feeds,
                    worst_pct=worst_pct,
                    worst=worst,
                )
            )
    issues += check_room_cooling(facility, heat_by_row)
    system = tray_system(plant, missing)
    issues += check_trays(system, facility)
    issues += check_bends(plant, system, Counter(c.part_number for c in plant.routed), missing)
    issues += missing.issues()
    issues += _cables_outside_the_hall(plant)
    issues.sort(key=lambda i: i.severity is not Severity.ERROR)
    fullest = None
    for seg in system.segments:
        if fullest is None or seg.fill_pct > fullest.fill_pct:
            fullest = seg
    totals = FacilityTotals(
        typical_w=sum(r.typical_w for r in racks),
        max_w=sum(r.max_w for r in racks),
        heat_w=sum(r.max_w for r in racks),
        weight_kg=on_floor_kg,
        fullest_tray=None if fullest is None else fullest.name,
        fullest_tray_pct=0.0 if fullest is None else fullest.fill_pct,
        incomplete=_incomplete(missing.lacking()),
    )
    return FacilityReport(tuple(issues), tuple(racks), system.segments, totals)
