"""What a plan asks of the plant, and what changes from one plan to another, in numbers and in words
(issue 28 item 5): "adds 38 kW at most (24 kW typical) and 120 kg, and fills tray T3-12 to 47 %".

Pure: the facility report's totals (`checks.facility_report(plant).totals`, one per plan of a hall)
in, differences out. Nothing here judges a limit: the checks do.
"""

from __future__ import annotations

from dataclasses import dataclass

from loopline.domain.facility.model import FacilityTotals


@dataclass(frozen=True, slots=True)
class FacilityChange:
    """`new` minus `old`: watts and kilograms (negative: less), and the fullest tray after and before."""

    typical_w: float
    max_w: float
    heat_w: float
    weight_kg: float
    fullest_tray: str | None
    fullest_tray_pct: float
    was_fullest_tray: str | None
    was_fullest_tray_pct: float
    incomplete: tuple[str, ...]
    """The totals (`FacilityTotals.incomplete`'s names) that either plan leaves something out of: their
    differences above are not known, and `words` does not state them as known."""
    words: str


def _power(watts: float) -> str:
    """38,400 W -> "38.4 kW", 38,000 -> "38 kW", 1,000 -> "1 kW"; under a kW in watts: 20 -> "20 W"."""
    if round(abs(watts)) < 1000:
        return f"{round(abs(watts))} W"
    return f"{round(abs(watts) / 1000, 1):g} kW"


def _kg(kg: float) -> str:
    return f"{round(abs(kg)):,}"


def _power_words(max_w: float, typical_w: float, unknown: frozenset[str]) -> str:
    """A total that leaves something out in either plan has no known difference: with max_w (and so
    every draw) incomplete the figure counts only the devices whose draw is known, and says so; with
    only typical_w incomplete the typical figure is left out, and that is said."""
    if "max_w" in unknown:
        same = round(max_w) == 0
        base = "draws the same power" if same else f"{'adds' if max_w > 0 else 'removes'} {_power(max_w)} at most"
        return f"{base} counting only the devices whose draw is known"
    if "typical_w" in unknown:
        if round(max_w) == 0:
            return "draws the same power at most (typical not known for every device)"
        return f"{'adds' if max_w > 0 else 'removes'} {_power(max_w)} at most (typical not known for every device)"
    if round(max_w) == 0 and round(typical_w) == 0:
        return "draws the same power"
    verb = "adds" if max_w > 0 or (round(max_w) == 0 and typical_w > 0) else "removes"
    typical = f" ({_power(typical_w)} typical)" if round(typical_w) != 0 else ""
    return f"{verb} {_power(max_w)} at most{typical}"


def _weight_words(kg: float, unknown: frozenset[str]) -> str:
    if "weight_kg" in unknown:
        return "changes the weight by an amount not known for every part"
    if round(kg) == 0:
        return ""
    return f"{'adds' if kg > 0 else 'takes off'} {_kg(kg)} kg"


def _fill(pct: float, at_least: bool) -> str:
    """A plan whose tray fill leaves out a cable without a diameter fills its trays at least so far."""
    return f"{'at least ' if at_least else ''}{pct:.0f} %"


def _tray_words(old: FacilityTotals, new: FacilityTotals) -> str:
    old_part, new_part = "fullest_tray" in old.incomplete, "fullest_tray" in new.incomplete
    if new.fullest_tray is None:
        return "leaves every tray empty" if old.fullest_tray is not None else ""
    was = ""
    if old.fullest_tray is None:
        was = " (no cable in a tray before)"
    elif old.fullest_tray == new.fullest_tray and round(old.fullest_tray_pct) != round(new.fullest_tray_pct):
        was = f" (was {_fill(old.fullest_tray_pct, old_part)})"
    elif old.fullest_tray != new.fullest_tray:
        was = f" (the fullest was {old.fullest_tray} at {_fill(old.fullest_tray_pct, old_part)})"
    unknown = ", not every cable's diameter known" if old_part or new_part else ""
    return f"fills tray {new.fullest_tray} to {_fill(new.fullest_tray_pct, new_part)}{was}{unknown}"


def facility_change(old: FacilityTotals, new: FacilityTotals) -> FacilityChange:
    """`new` against `old` (two plans of one hall, or a plan and its upgrade). `words` reads after a
    subject ("This upgrade " / "Plan B "): e.g. "adds 38 kW at most (24 kW typical) and 120 kg, and
    fills tray T3-12 to 47 % (was 31 %)". A total either plan leaves something out of (`incomplete`)
    is not stated as known: "adds 38 kW at most (typical not known for every device)"."""
    d_max, d_typ = new.max_w - old.max_w, new.typical_w - old.typical_w
    d_kg = new.weight_kg - old.weight_kg
    unknown = frozenset(old.incomplete) | frozenset(new.incomplete)
    power, weight = _power_words(d_max, d_typ, unknown), _weight_words(d_kg, unknown)
    tray = _tray_words(old, new)
    if weight.startswith("adds") and power.startswith("adds"):
        first = f"{power} and {weight.removeprefix('adds ')}"  # "adds 38 kW at most and 120 kg"
    else:
        first = f"{power}, {weight}" if weight else power
    words = f"{first}, and {tray}" if tray else first
    return FacilityChange(
        typical_w=d_typ,
        max_w=d_max,
        heat_w=new.heat_w - old.heat_w,
        weight_kg=d_kg,
        fullest_tray=new.fullest_tray,
        fullest_tray_pct=new.fullest_tray_pct,
        was_fullest_tray=old.fullest_tray,
        was_fullest_tray_pct=old.fullest_tray_pct,
        incomplete=tuple(dict.fromkeys((*old.incomplete, *new.incomplete))),  # the checks' order
        words=words,
    )
