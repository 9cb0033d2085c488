"""The physical plant of a hall as the facility checks see it: feeds, cooling, load limits, trays.

Pure, immutable values. The database layer builds them (with every default filled in); the checks
(`loopline.domain.facility.checks`) read only these and the layout (`loopline.domain.layout`).

Units: watts, kilograms, millimetres, volts, amperes; kW only where a person types a budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from loopline.domain.layout import FabricSwitch, Hall
from loopline.domain.layout_rules import Issue


class Airflow(StrEnum):
    """Which way air crosses a device, from the rack's front (the face the layout calls `front`)."""

    FRONT_TO_REAR = "front-to-rear"
    REAR_TO_FRONT = "rear-to-front"
    SIDE = "side"


class CoolingKind(StrEnum):
    AIR = "air"
    REAR_DOOR = "rear-door"
    LIQUID = "liquid"


class TrayLevel(StrEnum):
    ABOVE_RACKS = "above-racks"
    """Overhead, along the rows (the tray a cable reaches first when it leaves its rack)."""
    CROSS_AISLE = "cross-aisle"
    """Overhead, across the rows and aisles."""
    UNDER_FLOOR = "under-floor"
    """In the raised-floor void (plans routed `via` floor)."""


@dataclass(frozen=True, slots=True)
class DeviceFacts:
    """What the checks need of a server, switch or PDU model. None: the catalog does not know it
    (a check that needs it says so and which model lacks it; it never guesses)."""

    typical_w: float | None = None
    max_w: float | None = None
    weight_kg: float | None = None
    airflow: Airflow | None = None
    source: str = ""
    """Datasheet or standard the figures come from (URL or document name); "" for a user's entry."""


@dataclass(frozen=True, slots=True)
class CableFacts:
    """What the tray and weight checks need of a cable part (DAC, AOC, fibre cord/trunk)."""

    od_mm: float | None = None
    kg_per_m: float | None = None
    min_bend_radius_mm: float | None = None
    """Loaded (installed under tension), the larger of a datasheet's two figures."""
    signal_only: bool = True
    """Data cable (a tray of only these may fill to the signal-only limit)."""
    source: str = ""


@dataclass(frozen=True, slots=True)
class OpticFacts:
    """A transceiver: watts per module (one at each end of a fibre link)."""

    max_w: float | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class PduModel:
    name: str
    outlets: int
    weight_kg: float | None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Feed:
    """One power feed of a rack. `voltage_v` is line-to-neutral: a feed carries
    `voltage_v x breaker_a x phases x power_factor` W, continuously at most `continuous_fraction` of that."""

    name: str
    """"A" or "B"."""
    voltage_v: float = 230.0
    phases: int = 1
    breaker_a: float = 32.0
    pdu: str | None = None
    """PDU model name (a `PduModel` in the catalog); None: none specified (no PDU weight counted)."""


@dataclass(frozen=True, slots=True)
class RackFacility:
    feeds: tuple[Feed, ...] = (Feed("A"), Feed("B"))
    """One feed, or two (A/B, N+N: each alone must carry the whole rack)."""
    power_budget_kw: float | None = None
    """None: no budget of its own beyond its feeds."""
    cooling_kw: float | None = None
    """None: cooled by the row's (or the hall's) cooling only."""
    cooling_kind: CoolingKind = CoolingKind.AIR
    static_load_kg: float | None = None
    """None: the rack type's rating when the catalog knows it."""


@dataclass(frozen=True, slots=True)
class TraySpec:
    width_mm: int
    usable_depth_mm: int
    load_kg_per_m: float

    @property
    def area_mm2(self) -> int:
        return self.width_mm * self.usable_depth_mm


def _sourced_default(name: str) -> Any:
    """A default that is a catalog fact, from its one owner (imported late: it imports this module)."""
    from loopline.domain.facility import catalog_facts

    value = getattr(catalog_facts, name)
    assert value is not None, f"catalog_facts.{name} has no sourced value"
    return value


@dataclass(frozen=True, slots=True)
class HallFacility:
    floor_load_kg_m2: float = field(default_factory=lambda: _sourced_default("DEFAULT_FLOOR_LOAD_KG_M2"))
    """TIA-942's recommended distributed floor load (`catalog_facts.DEFAULT_FLOOR_LOAD_SOURCE`)."""
    row_cooling_kw: dict[str, float] = field(default_factory=dict)
    """Row name -> cooling of that row (kW); rows not named share `hall_cooling_kw`."""
    hall_cooling_kw: float | None = None
    power_factor: float = 1.0
    continuous_fraction: float = 0.8
    """Continuous load as a fraction of a feed's capacity (80 %: NEC 210.20(A) / common practice)."""
    max_phase_imbalance_pct: float = 10.0
    max_tray_fill_pct: float = 40.0
    max_signal_tray_fill_pct: float = 50.0
    tray_bend_radius_mm: float = 50.0
    """Inside radius of the trays' corner fittings and waterfalls: the radius every routed bend takes."""
    trays: dict[TrayLevel, TraySpec] = field(
        default_factory=lambda: dict.fromkeys(TrayLevel, _sourced_default("DEFAULT_TRAY"))
    )
    """The tray every run of a level has unless `tray_runs` names it; by default the named product
    of `catalog_facts.DEFAULT_TRAY_SOURCE` at every level."""
    tray_runs: dict[str, TraySpec] = field(default_factory=dict)
    """Run name (e.g. "T3") -> its own tray, edited in the editor."""


Point3 = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class RoutedCable:
    """One cable of a plan as routed (`loopline.domain.cable_routes.route_points`)."""

    label: str
    part_number: str
    points: tuple[Point3, ...]
    rack_a: str
    rack_b: str
    """The racks of its two ends (equal for an in-rack cable): its length inside a rack (the
    vertical runs from a port to the tray) weighs on that rack, and each end's optic draws there."""
    optic: str | None = None
    """Part whose watts per end each end draws (a fibre link's transceiver, an AOC or active copper
    cable itself, keyed in `Plant.optics`); None for passive copper."""


@dataclass(frozen=True, slots=True)
class FittedOptic:
    """Transceivers a structured plan's plant fits in the device ports of one rack (`count` of one
    part): one per port, however many logical links share it (a broken-out 400G port's optic once)."""

    rack: str
    part: str
    """Keyed in `Plant.optics` like a routed cable's optic."""
    count: int


@dataclass(frozen=True, slots=True)
class MountedPanel:
    """A structured plan's patch panel in its rack, with the cassettes (or adapter plates) fitted."""

    rack: str
    model: str
    """Keyed in `Plant.panel_models`."""
    cassette: str | None
    """Keyed in `Plant.cassette_models`; None: no cassettes."""
    cassettes: int


@dataclass(frozen=True, slots=True)
class Plant:
    """Everything the checks read besides the layout itself."""

    hall: Hall
    facility: HallFacility
    racks: dict[str, RackFacility]
    """Rack name -> its facility (every rack of the hall)."""
    servers: dict[str, DeviceFacts]
    """Server model name -> facts."""
    switches: dict[str, DeviceFacts]
    rack_types: dict[str, DeviceFacts]
    """Rack type name -> its own weight (`weight_kg`) and source; static load in `rack_static_load_kg`."""
    rack_static_load_kg: dict[str, float]
    pdus: dict[str, PduModel]
    cables: dict[str, CableFacts] = field(default_factory=dict)
    optics: dict[str, OpticFacts] = field(default_factory=dict)
    routed: tuple[RoutedCable, ...] = ()
    """Empty without a plan: the checks then cover devices only (no optics, cables or trays). In a
    structured plan: the cords, trunks and breakout cables of its plant in place of the logical links
    the plant carries (a trunk once, however many links run through it)."""
    fitted_optics: tuple[FittedOptic, ...] = ()
    """A structured plan's optics per device port (its routed cords and trunks draw none)."""
    panels: tuple[MountedPanel, ...] = ()
    """A structured plan's patch panels (their weight counts on their rack)."""
    panel_models: dict[str, DeviceFacts] = field(default_factory=dict)
    """Patch panel model name (the structured catalog's) -> facts (weight)."""
    cassette_models: dict[str, DeviceFacts] = field(default_factory=dict)
    """Cassette or adapter plate name (the structured catalog's) -> facts (weight)."""
    plan_switches: dict[str, tuple[FabricSwitch, ...]] = field(default_factory=dict)
    """Rack name -> the switches a plan mounts there itself, beside the layout's (a rail fabric's
    leaves): they draw, weigh and take their Us like the layout's."""


# --- What the checks answer (`checks.facility_report`) ---------------------------------------


@dataclass(frozen=True, slots=True)
class FeedLoad:
    feed: str
    capacity_w: float
    """V x A x phases x power factor."""
    limit_w: float
    """capacity x continuous fraction (80 %)."""
    load_w: float
    """What this feed must carry: the whole rack's maximum draw (alone, when the rack has two)."""
    phase_w: tuple[float, ...]
    """Per phase (one entry for a single-phase feed)."""


@dataclass(frozen=True, slots=True)
class RackLoad:
    rack: str
    row: str
    typical_w: float
    max_w: float
    """Devices + optics at their maximum: the draw the feeds, the budget and the cooling must take."""
    budget_w: float | None
    cooling_w: float | None
    """The rack's own cooling, None when it has none (the row's or hall's then applies)."""
    weight_kg: float
    static_load_kg: float | None
    floor_kg_m2: float
    """(weight + the rack's own) over its footprint."""
    feeds: tuple[FeedLoad, ...]
    worst_pct: float
    """The highest of its ratios (draw / budget, feed load / limit, heat / cooling, weight / load
    limit, floor / rating) in %: what the heat map colours."""
    worst: str
    """Which ratio `worst_pct` is, in words (e.g. "feed A at 476 % of its 80 % limit")."""


@dataclass(frozen=True, slots=True)
class TraySegmentLoad:
    name: str
    """Run and segment, e.g. "T3-12"."""
    run: str
    level: TrayLevel
    start: Point3
    end: Point3
    cables: int
    fill_pct: float
    limit_pct: float
    kg_per_m: float
    load_kg_per_m: float
    """The tray's rating."""


@dataclass(frozen=True, slots=True)
class FacilityTotals:
    typical_w: float
    max_w: float
    heat_w: float
    weight_kg: float
    fullest_tray: str | None
    fullest_tray_pct: float
    incomplete: tuple[str, ...] = ()
    """The totals above that leave something out for a missing catalog fact (e.g. "typical_w" when a
    model has no typical figure): at least what they say; the `fact_missing` warnings name what."""


@dataclass(frozen=True, slots=True)
class FacilityReport:
    issues: tuple[Issue, ...]
    """Layout-rule format (`loopline.domain.layout_rules.Issue`); errors and warnings both
    reported, neither refuses a write: an over-budget rack is a finding, not malformed input."""
    racks: tuple[RackLoad, ...]
    trays: tuple[TraySegmentLoad, ...]
    """Segments that carry at least one cable."""
    totals: FacilityTotals
