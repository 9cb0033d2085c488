"""Diff between two plans (an upgrade is a new plan diffed against the existing one).

Cables are matched by their stable ID (a function of their two ports):
- kept: same ID in both plans (``changed`` lists the kept ones whose part or ordered length differ);
- moved: an old cable that is gone while one of its ports now carries a new cable (a re-patch);
- added: new cables that are not the new end of a move; removed: old cables not kept nor moved;
- hardware added/removed: devices (by name) present in only one plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loopline.domain.layout import Hall
from loopline.domain.routing import DEFAULT_GEOMETRY, GeometryPreset
from loopline.domain.wiring.generate import generate_plan
from loopline.domain.wiring.model import WiringPlan
from loopline.domain.wiring.spec import WiringSpec


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


def diff_plans(old: WiringPlan, new: WiringPlan) -> PlanDiff:
    old_by_id = {c.cable_id: c for c in old.cables}
    new_by_id = {c.cable_id: c for c in new.cables}
    d = PlanDiff()
    fresh_by_port: dict[tuple[str, str], str] = {}
    for c in new.cables:
        o = old_by_id.get(c.cable_id)
        if o is None:
            fresh_by_port[(c.a_device, c.a_port)] = c.cable_id
            fresh_by_port[(c.b_device, c.b_port)] = c.cable_id
        else:
            d.kept.append(c.cable_id)
            if o.part_number != c.part_number or o.ordered_mm != c.ordered_mm:
                d.changed.append(c.cable_id)
    matched: set[str] = set()
    for c in old.cables:
        if c.cable_id in new_by_id:
            continue
        to = fresh_by_port.get((c.a_device, c.a_port)) or fresh_by_port.get((c.b_device, c.b_port))
        if to is not None and to not in matched:
            matched.add(to)
            d.moved.append((c.cable_id, to))
        else:
            d.removed.append(c.cable_id)
    d.added = [c.cable_id for c in new.cables if c.cable_id not in old_by_id and c.cable_id not in matched]
    old_devs = {x.name: x.role for x in old.devices}
    new_devs = {x.name: x.role for x in new.devices}
    for name, role in new_devs.items():
        if name not in old_devs:
            d.hardware_added.setdefault(role.value, []).append(name)
    for name, role in old_devs.items():
        if name not in new_devs:
            d.hardware_removed.setdefault(role.value, []).append(name)
    return d


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
