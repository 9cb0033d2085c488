"""Diff between two plans (an upgrade is a new plan diffed against the existing one).

Cables are matched by their stable ID (a function of their two ports):
- kept: same ID in both plans (``changed`` lists the kept ones whose part or ordered length differ);
- moved: an old cable that is gone while one of its ports now carries a new cable (a re-patch);
- added: new cables that are not the new end of a move; removed: old cables not kept nor moved;
- hardware added/removed: devices (by name) present in only one plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from loopline.domain import bom
from loopline.domain.layout import Hall
from loopline.domain.routing import DEFAULT_GEOMETRY, GeometryPreset
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import StructuredPlant, StructuredSettings
from loopline.domain.wiring.generate import generate_plan
from loopline.domain.wiring.model import WiringPlan
from loopline.domain.wiring.spec import WiringSpec


class DiffStatus(StrEnum):
    KEPT = "kept"
    ADDED = "added"
    MOVED = "moved"
    REMOVED = "removed"


class DiffCable(bom.BomCable, Protocol):
    """What the diff reads of a cable: a domain `Cable` or a stored row."""

    @property
    def cable_id(self) -> str: ...
    @property
    def a_port(self) -> str: ...
    @property
    def b_port(self) -> str: ...


@dataclass(slots=True)
class PlanDiff:
    kept: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    """(old cable ID, new cable ID)."""
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    hardware_added: dict[str, list[str]] = field(default_factory=dict)
    """role -> device names."""
    hardware_removed: dict[str, list[str]] = field(default_factory=dict)

    def counts(self) -> dict[str, object]:
        return {
            "kept": len(self.kept),
            "added": len(self.added),
            "moved": len(self.moved),
            "removed": len(self.removed),
            "changed": len(self.changed),
            "hardware_added": {k: len(v) for k, v in self.hardware_added.items()},
            "hardware_removed": {k: len(v) for k, v in self.hardware_removed.items()},
        }

    def new_ids(self, status: DiffStatus) -> list[str]:
        """Cable IDs of the new plan (kept, added, moved: the new cable) or the old (removed)."""
        if status is DiffStatus.MOVED:
            return [new for _, new in self.moved]
        return list(getattr(self, status.value))


def diff_plans(old: WiringPlan, new: WiringPlan) -> PlanDiff:
    return diff_cables(
        old.cables, new.cables, {x.name: x.role for x in old.devices}, {x.name: x.role for x in new.devices}
    )


def diff_cables(
    old_cables: Sequence[DiffCable],
    new_cables: Sequence[DiffCable],
    old_devices: Mapping[str, str],
    new_devices: Mapping[str, str],
) -> PlanDiff:
    """The diff of two plans given as their cables and their devices (name -> role)."""
    old_by_id = {c.cable_id: c for c in old_cables}
    new_ids = {c.cable_id for c in new_cables}
    d = PlanDiff()
    fresh_by_port: dict[tuple[str, str], str] = {}
    for c in new_cables:
        o = old_by_id.get(c.cable_id)
        if o is None:
            fresh_by_port[(c.a_device, c.a_port)] = c.cable_id
            fresh_by_port[(c.b_device, c.b_port)] = c.cable_id
        else:
            d.kept.append(c.cable_id)
            if o.part_number != c.part_number or o.ordered_mm != c.ordered_mm:
                d.changed.append(c.cable_id)
    matched: set[str] = set()
    for c in old_cables:
        if c.cable_id in new_ids:
            continue
        to = fresh_by_port.get((c.a_device, c.a_port)) or fresh_by_port.get((c.b_device, c.b_port))
        if to is not None and to not in matched:
            matched.add(to)
            d.moved.append((c.cable_id, to))
        else:
            d.removed.append(c.cable_id)
    d.added = [c.cable_id for c in new_cables if c.cable_id not in old_by_id and c.cable_id not in matched]
    for name, role in new_devices.items():
        if name not in old_devices:
            d.hardware_added.setdefault(str(role), []).append(name)
    for name, role in old_devices.items():
        if name not in new_devices:
            d.hardware_removed.setdefault(str(role), []).append(name)
    return d


@dataclass(frozen=True, slots=True)
class UpgradeMaterials:
    """The bill of materials of an upgrade alone: what to buy and what it frees."""

    buy: bom.Materials
    """New cables (added, the new end of a move, a kept cable whose part or length changed) and
    their transceivers, new switches, NICs new servers' ports need."""
    freed: bom.Materials
    """Removed cables (and the old end of a move, the old part of a changed one), their
    transceivers, switches that are gone, NICs no longer needed."""


def upgrade_materials(
    d: PlanDiff,
    old_cables: Iterable[DiffCable],
    new_cables: Iterable[DiffCable],
    old_devices: Iterable[bom.BomDevice],
    new_devices: Iterable[bom.BomDevice],
    server_port_gbps: Mapping[str, float] | None = None,
    old_plant: StructuredPlant | None = None,
    new_plant: StructuredPlant | None = None,
) -> UpgradeMaterials:
    """With structured plants, a link a plant carries is bought as the plant's items, not as a cable:
    the change buys the items and optics the new plant has that the old one had not (by ID; a moved
    or re-sized item is bought again and its old self freed), and a link that goes from direct to
    structured frees its cable (or the other way, buys one)."""
    old_cables = list(old_cables)
    new_cables = list(new_cables)
    old_devices = list(old_devices)
    new_devices = list(new_devices)
    changed = set(d.changed)
    bought = set(d.added) | {n for _, n in d.moved} | changed
    freed = set(d.removed) | {o for o, _ in d.moved} | changed
    gone = {n for names in d.hardware_removed.values() for n in names}
    fresh = {n for names in d.hardware_added.values() for n in names}
    speeds = server_port_gbps or {}
    old_nics = bom.server_nics(old_cables, old_devices, speeds)
    new_nics = bom.server_nics(new_cables, new_devices, speeds)
    nic_buy: dict[str, tuple[str, ...]] = {}
    nic_free: dict[str, tuple[str, ...]] = {}
    for server in old_nics.keys() | new_nics.keys():
        before, after = old_nics.get(server, ()), new_nics.get(server, ())
        if before != after:  # a NIC is replaced, not re-cabled
            nic_buy[server] = tuple(x for x in after if x not in before)
            nic_free[server] = tuple(x for x in before if x not in after)
    carried_old = frozenset(x.cable_id for x in old_plant.steps) if old_plant else frozenset()
    carried_new = frozenset(x.cable_id for x in new_plant.steps) if new_plant else frozenset()
    plant_buy, plant_free = _plant_change_materials(old_plant, new_plant)
    return UpgradeMaterials(
        buy=bom.combine(
            bom.cable_materials(
                c for c in new_cables
                if c.cable_id not in carried_new and (c.cable_id in bought or c.cable_id in carried_old)
            ),
            plant_buy,
            bom.switch_materials(x for x in new_devices if x.name in fresh),
            bom.nic_materials(nic_buy),
        ),
        freed=bom.combine(
            bom.cable_materials(
                c for c in old_cables
                if c.cable_id not in carried_old and (c.cable_id in freed or c.cable_id in carried_new)
            ),
            plant_free,
            bom.switch_materials(x for x in old_devices if x.name in gone),
            bom.nic_materials(nic_free),
        ),
    )  # fmt: skip


def _plant_change_materials(
    old: StructuredPlant | None, new: StructuredPlant | None
) -> tuple[bom.Materials, bom.Materials]:
    """What of `new`'s plant `old`'s lacks (to buy) and what of `old`'s is gone (freed): cable items
    and panels by ID (one that differs counts as a new one and a freed one), optics by port and part."""
    if old is None and new is None:
        return bom.Materials(), bom.Materials()
    catalog = builtin_catalog()
    empty = StructuredPlant(settings=(new or old or StructuredPlant(StructuredSettings())).settings)
    old, new = old or empty, new or empty

    def missing(have: StructuredPlant, want: StructuredPlant) -> StructuredPlant:
        items = set(have.items)
        panels = set(have.panels)
        optics = set(have.optics)
        return StructuredPlant(
            settings=want.settings,
            panels=[p for p in want.panels if p not in panels],
            items=[i for i in want.items if i not in items],
            optics=[o for o in want.optics if o not in optics],
        )

    return bom.plant_materials(missing(old, new), catalog), bom.plant_materials(missing(new, old), catalog)


def upgrade_plan(
    existing: WiringPlan,
    hall: Hall,
    spec: WiringSpec,
    *,
    geometry: GeometryPreset = DEFAULT_GEOMETRY,
) -> tuple[WiringPlan, PlanDiff]:
    """Generate the plan for `spec` on `hall` and diff it against the `existing` plan."""
    new = generate_plan(hall, spec, geometry=geometry)
    return new, diff_plans(existing, new)


# ---------------------------------------------------------------- structured plants (issue 29)


@dataclass(slots=True)
class ItemChanges:
    """One kind of a plant's items, old against new, matched by item ID (derived from names, so an
    item that stays where it was keeps its ID)."""

    kept: int = 0
    added: int = 0
    removed: int = 0
    moved: int = 0
    """Same ID, other ends or route (a trunk re-run between other panels)."""
    changed: int = 0
    """Same ID and ends, another part or ordered length (a trunk re-sized)."""

    def to_json(self) -> dict[str, int]:
        return {"kept": self.kept, "added": self.added, "removed": self.removed, "moved": self.moved,
                "changed": self.changed}  # fmt: skip


@dataclass(slots=True)
class PlantDiff:
    """What an upgrade changes in the passive plant, segment by segment; a direct plan has none."""

    trunks: ItemChanges = field(default_factory=ItemChanges)
    cords: ItemChanges = field(default_factory=ItemChanges)
    breakout_cables: ItemChanges = field(default_factory=ItemChanges)
    panels: ItemChanges = field(default_factory=ItemChanges)

    def words(self) -> str:
        """The change in a sentence for the planner: "no trunk moves; 96 cords added"."""
        t = self.trunks
        parts = ["no trunk moves" if not t.moved else f"{_n(t.moved, 'trunk')} {'moves' if t.moved == 1 else 'move'}"]
        for what, changes in (("trunk", t), ("cord", self.cords), ("breakout cable", self.breakout_cables),
                              ("panel", self.panels)):  # fmt: skip
            if changes.added:
                parts.append(f"{_n(changes.added, what)} added")
            if changes.removed:
                parts.append(f"{_n(changes.removed, what)} removed")
            if changes.changed:
                parts.append(f"{_n(changes.changed, what)} re-sized")
            if what == "cord" and not changes.added and not changes.removed:
                parts.append("no cord changes")
        return "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "trunks": self.trunks.to_json(),
            "cords": self.cords.to_json(),
            "breakout_cables": self.breakout_cables.to_json(),
            "panels": self.panels.to_json(),
            "words": self.words(),
        }


def _n(count: int, what: str) -> str:
    return f"{count} {what}" + ("" if count == 1 else "s")


def diff_plants(old: StructuredPlant | None, new: StructuredPlant | None) -> PlantDiff:
    """`new`'s plant against `old`'s (None: a direct plan, no plant): items of each kind and panels."""
    out = PlantDiff()
    kinds = {
        SegmentKind.TRUNK: out.trunks,
        SegmentKind.CORD: out.cords,
        SegmentKind.BREAKOUT: out.breakout_cables,
    }
    before = {i.item_id: i for i in (old.items if old else ()) if i.kind in kinds}
    after = {i.item_id: i for i in (new.items if new else ()) if i.kind in kinds}
    for item_id, item in after.items():
        changes = kinds[item.kind]
        was = before.get(item_id)
        if was is None:
            changes.added += 1
        elif (was.a_end, was.a_port, was.b_end, was.b_port, was.route) != (
            item.a_end, item.a_port, item.b_end, item.b_port, item.route
        ):  # fmt: skip
            changes.moved += 1
        elif (was.part, was.ordered_mm) != (item.part, item.ordered_mm):
            changes.changed += 1
        else:
            changes.kept += 1
    for item_id, item in before.items():
        if item_id not in after:
            kinds[item.kind].removed += 1
    old_panels = {p.panel_id: p for p in (old.panels if old else ())}
    new_panels = {p.panel_id: p for p in (new.panels if new else ())}
    for panel_id, panel in new_panels.items():
        was_panel = old_panels.get(panel_id)
        if was_panel is None:
            out.panels.added += 1
        elif (was_panel.model, was_panel.cassette, was_panel.cassettes) != (
            panel.model,
            panel.cassette,
            panel.cassettes,
        ):
            out.panels.changed += 1
        else:
            out.panels.kept += 1
    out.panels.removed = sum(1 for p in old_panels if p not in new_panels)
    return out
