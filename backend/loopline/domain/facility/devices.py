"""What is mounted in a rack, as the facility checks count it: groups of one model mounted together."""

from __future__ import annotations

from dataclasses import dataclass

from loopline.domain.facility.facts import CatalogKind, Kind, plural
from loopline.domain.facility.model import DeviceFacts, Plant
from loopline.domain.layout import FabricSwitch, Rack

_UNKNOWN = DeviceFacts()


@dataclass(frozen=True, slots=True)
class DeviceGroup:
    """A logical rack's servers, its ToR, or one fabric switch."""

    kind: Kind
    model: str
    facts: DeviceFacts
    units: tuple[int, ...]
    """Lowest U of each device, bottom to top."""
    height_u: int
    path: str
    """Field path inside the rack, e.g. ``logical_racks[0].server_model``."""

    @property
    def count(self) -> int:
        return len(self.units)

    @property
    def noun(self) -> str:
        return "server" if self.kind is CatalogKind.SERVER else "switch"

    def describe(self) -> str:
        """``40 servers``, ``1 switch``."""
        return plural(self.count, self.noun)


def device_groups(plant: Plant, rack: Rack) -> list[DeviceGroup]:
    """Every device of the rack, grouped, ordered by their lowest U. A model the plant does not
    know has no facts (every check that needs one then says so)."""
    groups: list[DeviceGroup] = []
    for i, lr in enumerate(rack.logical_racks):
        server, tor = lr.server_model, lr.tor_model
        groups.append(
            DeviceGroup(
                CatalogKind.SERVER,
                server.name,
                plant.servers.get(server.name, _UNKNOWN),
                tuple(lr.server_us()),
                server.height_u,
                f"logical_racks[{i}].server_model",
            )
        )
        groups.append(
            DeviceGroup(
                CatalogKind.SWITCH,
                tor.name,
                plant.switches.get(tor.name, _UNKNOWN),
                (lr.tor_u(),),
                tor.height_u,
                f"logical_racks[{i}].tor_model",
            )
        )
    for sw in rack.fabric_switches:
        groups.append(_switch(plant, sw, f"fabric_switches[{sw.name}].u"))
    for sw in plant.plan_switches.get(rack.name, ()):
        groups.append(_switch(plant, sw, f"plan.devices[{sw.name}].u"))
    groups.sort(key=lambda g: g.units[0] if g.units else 0)
    return [g for g in groups if g.units]


def _switch(plant: Plant, sw: FabricSwitch, path: str) -> DeviceGroup:
    facts = plant.switches.get(sw.model.name, _UNKNOWN)
    return DeviceGroup(CatalogKind.SWITCH, sw.model.name, facts, (sw.u,), sw.model.height_u, path)


def units_in_order(groups: list[DeviceGroup]) -> list[tuple[int, DeviceGroup]]:
    """(lowest U, group) of every single device, bottom to top."""
    return sorted(((u, g) for g in groups for u in g.units), key=lambda ug: ug[0])


def u_ranges(units: tuple[int, ...], height_u: int) -> str:
    """``U1-U15, U17-U31``: the Us devices of `height_u` occupy, runs of touching devices joined."""
    spans: list[tuple[int, int]] = []
    for u in sorted(units):
        top = u + height_u - 1
        if spans and u == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], top)
        else:
            spans.append((u, top))
    return ", ".join(f"U{lo}" if lo == hi else f"U{lo}-U{hi}" for lo, hi in spans)
