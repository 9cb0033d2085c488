"""Weight (DESIGN §6): what a rack carries against its static load, and what it puts on the floor.

- A rack carries its devices, the PDUs of its feeds, a structured plan's patch panels and their
  cassettes, and the cables inside it: a cable between racks
  weighs on each end's rack for its vertical run from the port to the tray (or floor) level, and an
  in-rack cable with its whole length; the cable's run along the tray weighs on the tray.
- Static load: a rack's rating is for what it carries (EIA/vendor static load ratings exclude the
  cabinet's own weight), so that sum is held against `RackFacility.static_load_kg`, else the rack
  type's rating.
- Floor: what it carries plus the cabinet's own weight, over its footprint (width x depth), against
  the hall's floor rating (kg/m²).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from loopline.domain.cable_routes import polyline_length_mm
from loopline.domain.facility.devices import DeviceGroup
from loopline.domain.facility.facts import CatalogKind, MissingFacts
from loopline.domain.facility.model import CableFacts, DeviceFacts, MountedPanel, Plant, RackFacility, RoutedCable
from loopline.domain.layout import Rack
from loopline.domain.layout_rules import Issue, Severity

WEIGHT_CHECK = "rack weight and floor load"
FLOOR_CHECK = "floor load"
STATIC_CHECK = "static load"
_UNKNOWN_CABLE = CableFacts()
_UNKNOWN_DEVICE = DeviceFacts()


@dataclass(frozen=True, slots=True)
class RackWeight:
    devices_kg: float
    pdus_kg: float
    cables_kg: float
    own_kg: float
    """The cabinet itself (0 when the catalog does not know it: noted as missing)."""
    panels_kg: float = 0.0
    """A structured plan's patch panels and their cassettes (0 for what the catalog has no weight of)."""

    @property
    def carried_kg(self) -> float:
        return self.devices_kg + self.pdus_kg + self.cables_kg + self.panels_kg

    @property
    def on_floor_kg(self) -> float:
        return self.carried_kg + self.own_kg


def _vertical(p: tuple[int, int, int], q: tuple[int, int, int]) -> bool:
    return p[0] == q[0] and p[1] == q[1]


def in_rack_cable_mm(cables: Iterable[RoutedCable]) -> dict[str, tuple[Counter[str], Counter[str]]]:
    """Rack -> (cable part -> mm of such cables inside the rack, cable part -> how many cable ends
    (or in-rack cables) those mm are); see the module docstring."""
    out: dict[str, tuple[Counter[str], Counter[str]]] = {}

    def add(rack: str, part: str, mm: int) -> None:
        counters = out.get(rack)
        if counters is None:
            counters = out[rack] = (Counter(), Counter())
        counters[0][part] += mm
        counters[1][part] += 1

    for c in cables:
        pts = c.points
        if len(pts) < 2:
            continue
        if c.rack_a == c.rack_b:
            add(c.rack_a, c.part_number, polyline_length_mm(list(pts)))
            continue
        i = 0
        while i + 1 < len(pts) and _vertical(pts[i], pts[i + 1]):
            i += 1
        if i:
            add(c.rack_a, c.part_number, abs(pts[i][2] - pts[0][2]))
        j = len(pts) - 1
        while j > 0 and _vertical(pts[j - 1], pts[j]):
            j -= 1
        if j < len(pts) - 1:
            add(c.rack_b, c.part_number, abs(pts[-1][2] - pts[j][2]))
    return out


def rack_weight(
    plant: Plant,
    rack: Rack,
    facility: RackFacility,
    groups: list[DeviceGroup],
    in_rack: tuple[Counter[str], Counter[str]] | None,
    missing: MissingFacts,
    panels: Sequence[MountedPanel] = (),
) -> RackWeight:
    devices = 0.0
    for g in groups:
        if g.facts.weight_kg is None:
            missing.note(g.kind, g.model, "weight_kg", WEIGHT_CHECK, g.count, g.noun)
        else:
            devices += g.count * g.facts.weight_kg
    pdus = 0.0
    for feed in facility.feeds:
        if feed.pdu is None:
            continue
        model = plant.pdus.get(feed.pdu)
        if model is None or model.weight_kg is None:
            missing.note(CatalogKind.PDU, feed.pdu, "weight_kg", WEIGHT_CHECK, 1, "PDU")
        else:
            pdus += model.weight_kg
    cables = 0.0
    cable_mm, cable_ends = in_rack if in_rack is not None else (Counter[str](), Counter[str]())
    for part, mm in cable_mm.items():
        kg_per_m = plant.cables.get(part, _UNKNOWN_CABLE).kg_per_m
        if kg_per_m is None:
            missing.note(CatalogKind.CABLE, part, "kg_per_m", WEIGHT_CHECK, cable_ends[part], "cable end")
        else:
            cables += mm / 1000 * kg_per_m
    panels_kg = _panels_kg(plant, panels, missing)
    type_name = rack.rack_type.name
    own = plant.rack_types.get(type_name)
    if own is None or own.weight_kg is None:
        missing.note(CatalogKind.RACK_TYPE, type_name, "weight_kg", FLOOR_CHECK, 1, "rack")
        own_kg = 0.0
    else:
        own_kg = own.weight_kg
    return RackWeight(devices, pdus, cables, own_kg, panels_kg)


def _panels_kg(plant: Plant, panels: Sequence[MountedPanel], missing: MissingFacts) -> float:
    """The panels' and their cassettes' weight; a model without one is noted missing, never guessed."""
    total = 0.0
    for p in panels:
        facts = plant.panel_models.get(p.model, _UNKNOWN_DEVICE)
        if facts.weight_kg is None:
            missing.note(CatalogKind.PANEL, p.model, "weight_kg", WEIGHT_CHECK, 1, "panel")
        else:
            total += facts.weight_kg
        if p.cassette is None or not p.cassettes:
            continue
        facts = plant.cassette_models.get(p.cassette, _UNKNOWN_DEVICE)
        if facts.weight_kg is None:
            missing.note(CatalogKind.CASSETTE, p.cassette, "weight_kg", WEIGHT_CHECK, p.cassettes, "cassette")
        else:
            total += p.cassettes * facts.weight_kg
    return total


def static_load_kg(plant: Plant, rack: Rack, facility: RackFacility, missing: MissingFacts) -> float | None:
    if facility.static_load_kg is not None:
        return facility.static_load_kg
    rating = plant.rack_static_load_kg.get(rack.rack_type.name)
    if rating is None:
        missing.note(CatalogKind.RACK_TYPE, rack.rack_type.name, "static_load_kg", STATIC_CHECK, 1, "rack")
    return rating


def footprint_m2(rack: Rack) -> float:
    return rack.rack_type.width_mm * rack.rack_type.depth_mm / 1_000_000


def kg(value: float) -> str:
    return f"{value:,.1f}".removesuffix(".0")


def check_static_load(path: str, rack_name: str, weight: RackWeight, limit_kg: float | None) -> list[Issue]:
    if limit_kg is None or weight.carried_kg <= limit_kg:
        return []
    panels = f", panels {kg(weight.panels_kg)}" if weight.panels_kg else ""
    return [
        Issue(
            Severity.ERROR,
            "rack_static_load",
            f"{path}.static_load_kg",
            f"rack {rack_name!r} carries {kg(weight.carried_kg)} kg (devices {kg(weight.devices_kg)}, PDUs "
            f"{kg(weight.pdus_kg)}, cables {kg(weight.cables_kg)}{panels}), over its static load of {kg(limit_kg)} kg "
            f"({weight.carried_kg / limit_kg * 100:.0f} %)",
        )
    ]


def check_floor_load(path: str, rack: Rack, weight: RackWeight, rating_kg_m2: float) -> list[Issue]:
    area = footprint_m2(rack)
    per_m2 = weight.on_floor_kg / area
    if per_m2 <= rating_kg_m2:
        return []
    t = rack.rack_type
    return [
        Issue(
            Severity.ERROR,
            "floor_load",
            path,
            f"rack {rack.name!r} puts {kg(weight.on_floor_kg)} kg (its own {kg(weight.own_kg)} kg included) on "
            f"{area:g} m² ({t.width_mm / 1000:g} x {t.depth_mm / 1000:g} m): {kg(per_m2)} kg/m², over the floor's "
            f"rating of {kg(rating_kg_m2)} kg/m² ({per_m2 / rating_kg_m2 * 100:.0f} %)",
        )
    ]
