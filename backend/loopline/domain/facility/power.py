"""Power: what a rack draws at most and whether its feeds carry it (DESIGN §6, issue 28).

- A rack's maximum draw is its servers' and switches' `max_w` plus the watts of every optic end in
  it (a routed cable's transceiver, AOC or active copper end draws in the rack of that end; a
  structured plan's optics per device port, `Plant.fitted_optics`, in the device's rack). Its
  typical draw counts the devices' `typical_w` and the optics at their only figure, `max_w`.
- A feed carries V x A x phases x power factor (the hall's) watts; continuously at most the hall's
  continuous fraction of that (80 %): its limit.
- One feed: the rack's maximum must be within its limit. Two feeds (A/B, N+N): either may fail, so
  each alone must carry the whole rack; every feed that cannot is named in one error.
- Phases: PDU outlet banks alternate phases, so a multi-phase feed takes the rack's devices
  round-robin in U order (the lowest device on L1, the next on L2, ...); the optics' watts are split
  evenly (a cable knows its rack, not the device it plugs into). Imbalance = max |P_i - mean| / mean.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from loopline.domain.facility.devices import DeviceGroup, units_in_order
from loopline.domain.facility.facts import CatalogKind, MissingFacts
from loopline.domain.facility.model import (
    Feed,
    FeedLoad,
    FittedOptic,
    HallFacility,
    OpticFacts,
    RackFacility,
    RoutedCable,
)
from loopline.domain.layout_rules import Issue, Severity

POWER_CHECK = "power and cooling"
TYPICAL_CHECK = "typical power total"
_UNKNOWN_OPTIC = OpticFacts()


def kw(watts: float) -> str:
    """Watts as kW for a message, to the watt: ``5.888``, ``28``, ``1.56``."""
    return f"{round(watts) / 1000:,.3f}".rstrip("0").rstrip(".")


def feed_capacity_w(feed: Feed, facility: HallFacility) -> float:
    return feed.voltage_v * feed.breaker_a * feed.phases * facility.power_factor


def feed_limit_w(feed: Feed, facility: HallFacility) -> float:
    return feed_capacity_w(feed, facility) * facility.continuous_fraction


def optic_ends(cables: Iterable[RoutedCable]) -> dict[str, Counter[str]]:
    """Rack -> optic part -> how many cable ends with that part draw in the rack."""
    ends: dict[str, Counter[str]] = {}
    for c in cables:
        if c.optic is None:
            continue
        for rack in (c.rack_a, c.rack_b):
            counter = ends.get(rack)
            if counter is None:
                counter = ends[rack] = Counter()
            counter[c.optic] += 1
    return ends


def fitted_optic_ports(fitted: Iterable[FittedOptic]) -> dict[str, Counter[str]]:
    """Rack -> optic part -> how many device ports of the rack a structured plant fits it in."""
    ports: dict[str, Counter[str]] = {}
    for f in fitted:
        counter = ports.get(f.rack)
        if counter is None:
            counter = ports[f.rack] = Counter()
        counter[f.part] += f.count
    return ports


def optic_watts(
    ends: Counter[str] | None, optics: dict[str, OpticFacts], missing: MissingFacts, noun: str = "cable end"
) -> float:
    """The watts of `ends` (part -> how many); `noun`: what one of them is, for a missing figure."""
    if not ends:
        return 0.0
    total = 0.0
    for part, n in ends.items():
        w = optics.get(part, _UNKNOWN_OPTIC).max_w
        if w is None:
            missing.note(CatalogKind.OPTIC, part, "max_w", POWER_CHECK, n, noun)
        else:
            total += n * w
    return total


def device_draw(groups: list[DeviceGroup], missing: MissingFacts) -> tuple[float, float]:
    """(typical, maximum) W of the rack's devices."""
    typical = maximum = 0.0
    for g in groups:
        if g.facts.max_w is None:
            missing.note(g.kind, g.model, "max_w", POWER_CHECK, g.count, g.noun)
        else:
            maximum += g.count * g.facts.max_w
        if g.facts.typical_w is None:
            missing.note(g.kind, g.model, "typical_w", TYPICAL_CHECK, g.count, g.noun)
        else:
            typical += g.count * g.facts.typical_w
    return typical, maximum


def phase_loads(groups: list[DeviceGroup], optic_w: float, phases: int) -> tuple[float, ...]:
    """Each phase's share of the rack's maximum draw (see the module docstring)."""
    loads = [optic_w / phases] * phases
    for i, (_, g) in enumerate(units_in_order(groups)):
        loads[i % phases] += g.facts.max_w or 0.0
    return tuple(loads)


def phase_imbalance_pct(phase_w: tuple[float, ...]) -> float:
    mean = sum(phase_w) / len(phase_w) if phase_w else 0.0
    if mean <= 0:
        return 0.0
    return max(abs(p - mean) for p in phase_w) / mean * 100


def feed_loads(
    rack: RackFacility, facility: HallFacility, groups: list[DeviceGroup], max_w: float, optic_w: float
) -> tuple[FeedLoad, ...]:
    """What each feed must carry: the whole rack's maximum (alone, when the rack has two)."""
    out: list[FeedLoad] = []
    for feed in rack.feeds:
        phases = phase_loads(groups, optic_w, feed.phases) if feed.phases > 1 else (max_w,)
        out.append(FeedLoad(feed.name, feed_capacity_w(feed, facility), feed_limit_w(feed, facility), max_w, phases))
    return tuple(out)


def _feed_terms(feed: Feed, facility: HallFacility) -> str:
    phase = "phase" if feed.phases == 1 else "phases"
    return (
        f"{facility.continuous_fraction * 100:g} % of {feed.voltage_v:g} V x {feed.breaker_a:g} A x "
        f"{feed.phases} {phase} x PF {facility.power_factor:g} = {kw(feed_capacity_w(feed, facility))} kW"
    )


def feeds_field(path: str, names: list[str], of: int) -> str:
    """The feed a finding is about, or all the rack's feeds when it has several (the finding is then
    about them together: which of them are named stays in the message)."""
    return f"{path}.feeds[{names[0]}]" if of == 1 else f"{path}.feeds"


def check_feeds(
    path: str, rack_name: str, rack: RackFacility, facility: HallFacility, loads: tuple[FeedLoad, ...], max_w: float
) -> list[Issue]:
    if not rack.feeds:
        if max_w <= 0:
            return []
        return [
            Issue(
                Severity.ERROR,
                "rack_no_feed",
                f"{path}.feeds",
                f"rack {rack_name!r} draws up to {kw(max_w)} kW but has no power feed",
            )
        ]
    failing = [(feed, load) for feed, load in zip(rack.feeds, loads, strict=True) if load.load_w > load.limit_w]
    if not failing:
        return []
    names = [feed.name for feed, _ in failing]
    if len(rack.feeds) == 1:
        feed, load = failing[0]
        return [
            Issue(
                Severity.ERROR,
                "feed_over_limit",
                feeds_field(path, names, 1),
                f"rack {rack_name!r} draws up to {kw(max_w)} kW, {max_w / load.limit_w * 100:.0f} % of the "
                f"{kw(load.limit_w)} kW continuous limit of feed {feed.name} ({_feed_terms(feed, facility)})",
            )
        ]
    each = "; ".join(
        f"feed {f.name} takes at most {kw(load.limit_w)} kW ({_feed_terms(f, facility)})" for f, load in failing
    )
    which = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return [
        Issue(
            Severity.ERROR,
            "feed_not_redundant",
            feeds_field(path, names, len(rack.feeds)),
            f"rack {rack_name!r} draws up to {kw(max_w)} kW; with {len(rack.feeds)} feeds (N+N) each must carry "
            f"the whole rack alone, but feed{'s' if len(names) > 1 else ''} {which} cannot: {each}",
        )
    ]


def check_budget(path: str, rack_name: str, rack: RackFacility, max_w: float) -> list[Issue]:
    if rack.power_budget_kw is None or max_w <= rack.power_budget_kw * 1000:
        return []
    return [
        Issue(
            Severity.ERROR,
            "rack_power_budget",
            f"{path}.power_budget_kw",
            f"rack {rack_name!r} draws up to {kw(max_w)} kW, over its power budget of {rack.power_budget_kw:g} kW "
            f"({max_w / (rack.power_budget_kw * 1000) * 100:.0f} %)",
        )
    ]


def check_phases(
    path: str, rack_name: str, rack: RackFacility, facility: HallFacility, loads: tuple[FeedLoad, ...]
) -> list[Issue]:
    unbalanced = [
        (load, pct)
        for load in loads
        if len(load.phase_w) > 1 and (pct := phase_imbalance_pct(load.phase_w)) > facility.max_phase_imbalance_pct
    ]
    if not unbalanced:
        return []
    names = [load.feed for load, _ in unbalanced]
    each = "; ".join(
        f"feed {load.feed}: {' / '.join(kw(p) for p in load.phase_w)} kW, {pct:.1f} % from the mean"
        for load, pct in unbalanced
    )
    return [
        Issue(
            Severity.WARNING,
            "phase_imbalance",
            feeds_field(path, names, len(rack.feeds)),
            f"rack {rack_name!r} loads its phases unevenly (devices on the phases round-robin in U order, "
            f"as PDU outlet banks alternate): {each}; the hall allows {facility.max_phase_imbalance_pct:g} %",
        )
    ]
