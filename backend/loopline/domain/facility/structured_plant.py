"""A structured plan's passive plant as the facility checks see it (issue 29 item 2).

In a structured plan the ToR uplinks' logical links (the direct plan's cables, one per lane where a
port breaks out) are not what is pulled through the trays: the plant's cords, trunks and breakout
cables are. So the checks take the plant's cables in place of the logical links it carries
(those with a chain), each routed like a cable (`cable_routes.route_points` between its two ends), a
trunk once however many links it carries; a link the builder could not lay out stays a direct
cable, as the plan's summary counts it. A panel's ports are where a device's would be at the
panel's U: its rack's port face (the front, in a geometry with every port on the cold aisle) at
the height `routing.device_z_mm` gives, as the builder measured its cords and trunks.

The plant's optics are fitted per device port (`FittedOptic`: a broken-out 400G port's optic once,
each lane's far end its own); its cables are passive and draw nothing. Physical and power facts
are the structured catalog's (`Trunk.physical`, `PatchCord.physical`, `BreakoutCable.physical`,
`Optic.power`); a figure it lacks stays missing, and the check that needs it says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from loopline.domain.cable_routes import route_points
from loopline.domain.facility.model import CableFacts, FittedOptic, MountedPanel, OpticFacts, Point3, RoutedCable
from loopline.domain.labels import rack_name
from loopline.domain.layout import Hall
from loopline.domain.routing import GeometryPreset, Via, device_z_mm, ports_xy
from loopline.domain.structured.catalog import StructuredCatalog

End = tuple[Point3 | None, str]
"""Where an item end's ports are (None: its rack is no longer in the hall) and its rack's full name."""

PanelAt = tuple[str, str, int, str, str | None, int]
"""A stored panel as the checks read it: (panel id, rack's full name, U, model, cassette, cassettes)."""

PlantCableEnds = tuple[str, str, str, str]
"""A stored cord, trunk or breakout cable: (label, part, end A, end B), an end a device name or a panel id."""


def panel_ends(
    panels: Iterable[PanelAt], hall: Hall, geometry: GeometryPreset, catalog: StructuredCatalog
) -> dict[str, End]:
    """Panel id -> where its ports are (see the module docstring)."""
    racks = {rack_name(hall.name, row.name, rack.name): (row, rack) for row in hall.rows for rack in row.racks}
    heights = {p.name: p.height_u for p in catalog.panels}
    out: dict[str, End] = {}
    for panel_id, rack_full, u, model, _, _ in panels:
        found = racks.get(rack_full)
        if found is None:
            out[panel_id] = (None, rack_full)
            continue
        row, rack = found
        height_u = heights.get(model)
        if height_u is None:
            height_u = catalog.panel(model).height_u  # raises: the stored plant names a panel the catalog lacks
        x, y = ports_xy(geometry, row, rack)
        out[panel_id] = ((x, y, device_z_mm(geometry, rack, u, height_u)), rack_full)
    return out


def plant_cables(
    cables: Iterable[PlantCableEnds],
    panels: Mapping[str, End],
    devices: Mapping[str, tuple[Point3, str]],
    via: Via,
    level_mm: int,
    short_names: Mapping[str, str],
) -> list[RoutedCable]:
    """Every cord, trunk and breakout cable of the plant, once, along its route. `panels`: panel id ->
    `End` (`panel_ends`); `devices`: device name -> (port point, rack's full name), as the plan stored
    them; `short_names`: a rack's full name -> the layout's name. A cable with an end in a rack the
    hall no longer has keeps no points (the report names such cables; it is not routed)."""
    out: list[RoutedCable] = []
    append = out.append
    for label, part, a_end, b_end in cables:
        a, a_rack = panels.get(a_end) or devices[a_end]
        b, b_rack = panels.get(b_end) or devices[b_end]
        points: tuple[Point3, ...] = ()
        if a is not None and b is not None:
            points = tuple(route_points(via, level_mm, a_rack == b_rack, a, b))
        append(RoutedCable(label, part, points, short_names.get(a_rack, a_rack), short_names.get(b_rack, b_rack)))
    return out


def fitted_optics(
    optics: Iterable[tuple[str, str]], devices: Mapping[str, tuple[Point3, str]], short_names: Mapping[str, str]
) -> tuple[FittedOptic, ...]:
    """The plant's optics, (device, part) one per device port, counted per rack (the layout's name) and part."""
    counts = Counter((devices[device][1], part) for device, part in optics)
    return tuple(FittedOptic(short_names.get(rack, rack), part, n) for (rack, part), n in counts.items())


def mounted_panels(panels: Iterable[PanelAt], short_names: Mapping[str, str]) -> tuple[MountedPanel, ...]:
    return tuple(
        MountedPanel(short_names.get(rack, rack), model, cassette, cassettes)
        for _, rack, _, model, cassette, cassettes in panels
    )


def cable_facts(catalog: StructuredCatalog) -> dict[str, CableFacts]:
    """The structured catalog's cables by name -> their physical facts (as sourced: None stays None)."""
    facts = {c.name: c.physical for c in catalog.cords}
    facts.update((t.name, t.physical) for t in catalog.trunks)
    facts.update((b.name, b.physical) for b in catalog.breakout_cables)
    return facts


def optic_facts(catalog: StructuredCatalog) -> dict[str, OpticFacts]:
    """The structured catalog's optics by part -> watts, where it has a figure (the others are named missing)."""
    return {o.part: o.power for o in catalog.optics if o.power is not None}
