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
    words: str


def _power(watts: float) -> str:
    """38,400 W -> "38.4 kW", 38,000 -> "38 kW", 1,000 -> "1 kW"; under a kW in watts: 20 -> "20 W"."""
    if round(abs(watts)) < 1000:
        return f"{round(abs(watts))} W"
    return f"{round(abs(watts) / 1000, 1):g} kW"


def _kg(kg: float) -> str:
    return f"{round(abs(kg)):,}"


def _power_words(max_w: float, typical_w: float) -> str:
    if round(max_w) == 0 and round(typical_w) == 0:
        return "draws the same power"
    verb = "adds" if max_w > 0 or (round(max_w) == 0 and typical_w > 0) else "removes"
    typical = f" ({_power(typical_w)} typical)" if round(typical_w) != 0 else ""
    return f"{verb} {_power(max_w)} at most{typical}"


def _weight_words(kg: float) -> str:
    if round(kg) == 0:
        return ""
    return f"{'adds' if kg > 0 else 'takes off'} {_kg(kg)} kg"


def _tray_words(old: FacilityTotals, new: FacilityTotals) -> str:
    if new.fullest_tray is None:
        return "leaves every tray empty" if old.fullest_tray is not None else ""
    was = ""
    if old.fullest_tray is None:
        was = " (no cable in a tray before)"
    elif old.fullest_tray == new.fullest_tray and round(old.fullest_tray_pct) != round(new.fullest_tray_pct):
        was = f" (was {old.fullest_tray_pct:.0f} %)"
    elif old.fullest_tray != new.fullest_tray:
        was = f" (the fullest was {old.fullest_tray} at {old.fullest_tray_pct:.0f} %)"
    return f"fills tray {new.fullest_tray} to {new.fullest_tray_pct:.0f} %{was}"


def facility_change(old: FacilityTotals, new: FacilityTotals) -> FacilityChange:
    """`new` against `old` (two plans of one hall, or a plan and its upgrade). `words` reads after a
    subject ("This upgrade " / "Plan B "): e.g. "adds 38 kW at most (24 kW typical) and 120 kg, and
    fills tray T3-12 to 47 % (was 31 %)"."""
    d_max, d_typ = new.max_w - old.max_w, new.typical_w - old.typical_w
    d_kg = new.weight_kg - old.weight_kg
    power, weight, tray = _power_words(d_max, d_typ), _weight_words(d_kg), _tray_words(old, new)
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
        words=words,
    )
