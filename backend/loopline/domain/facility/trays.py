"""Cable trays (DESIGN §6): fill and weight per tray segment, and every routed bend.

The tray system is derived from the routes, deterministically (`cable_routes.route_points`: a cable
between racks climbs from its port to the tray level, or drops under the floor, runs along x, then
along y, and comes back down):

- A cable's tray legs are its horizontal legs at the height it first climbs (or drops) to, when that
  height is above both ports (overhead) or below both (under the floor). An in-rack cable, or one
  routed along the rack faces (the paper geometry), runs at a port's height and uses no tray.
- A run is one straight line of tray: the legs on one line (axis, the fixed coordinate across it,
  height). Its level: under-floor below z = 0; otherwise above-racks along the rows' axis (the axis
  most rows run along, x on a tie) and cross-aisle across it. Runs are named T1, T2, ... sorted by
  level (above-racks, cross-aisle, under-floor), axis (x, y), fixed coordinate and height.
- A run is cut at the floor's tile lines (multiples of `hall.tile_mm` from the hall's origin) into
  segments `T<run>-<k>`, k = 1 for the tile that holds the run's low end. A cable is in a segment
  when its leg covers any length of that tile.
- Fill: the cables' cross-sections (pi x OD² / 4) over the tray's width x usable depth, in %.
  A segment whose cables are all `signal_only` may fill to the hall's `max_signal_tray_fill_pct`
  (50 %); any other cable in it holds it to `max_tray_fill_pct` (40 %).
- Weight: the cables' kg/m summed against the tray's rating.
- The tray of a run is `HallFacility.tray_runs[run]`, else the hall's tray for its level.

Counting is per run with difference arrays over its tiles: a leg adds its load at its first tile and
takes it off after its last, and one running sum gives every tile, so a leg costs the same however
many tiles it spans. Cables with the same tray legs and part (every cable between the same two rack
faces) are counted once with their number.

Bends: every corner of a routed polyline (port to tray, x to y, tray to port) is bent at the hall's
`tray_bend_radius_mm`. A cable part whose loaded minimum bend radius is larger gets one warning: it
names the first such cable (by label) and its first corner, and counts the others of that part.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from loopline.domain.errors import DomainError
from loopline.domain.facility.facts import CatalogKind, MissingFacts, plural
from loopline.domain.facility.model import (
    CableFacts,
    HallFacility,
    Plant,
    Point3,
    RoutedCable,
    TrayLevel,
    TraySegmentLoad,
    TraySpec,
)
from loopline.domain.layout import Hall
from loopline.domain.layout_rules import Issue, Severity

FILL_CHECK = "tray fill"
TRAY_WEIGHT_CHECK = "tray weight"
BEND_CHECK = "bend radius"
_LEVELS = (TrayLevel.ABOVE_RACKS, TrayLevel.CROSS_AISLE, TrayLevel.UNDER_FLOOR)
_UNKNOWN = CableFacts()

RunKey = tuple[int, int, int, int]
"""(level index in `_LEVELS`, axis 0 = x / 1 = y, fixed coordinate across the axis, height)."""


@dataclass(frozen=True, slots=True)
class Run:
    name: str
    key: RunKey
    low_mm: int
    """Its extent along its axis: the lowest and highest coordinate any leg reaches."""
    high_mm: int
    spec: TraySpec

    @property
    def level(self) -> TrayLevel:
        return _LEVELS[self.key[0]]

    def point(self, along_mm: int) -> Point3:
        _, axis, fixed, z = self.key
        return (along_mm, fixed, z) if axis == 0 else (fixed, along_mm, z)


@dataclass(frozen=True, slots=True)
class TraySystem:
    runs: dict[RunKey, Run]
    tile_mm: int
    rows_axis: int
    segments: tuple[TraySegmentLoad, ...]
    """Every segment that carries at least one cable, in run order then along the run."""

    def segment_name(self, key: RunKey, tile: int) -> str:
        run = self.runs[key]
        return f"{run.name}-{tile - run.low_mm // self.tile_mm + 1}"


def rows_axis(hall: Hall) -> int:
    """0 when most rows (with racks) run along x, 1 when most run along y."""
    along_y = sum(1 for row in hall.rows if row.racks and row.direction in (90, 270))
    along_x = sum(1 for row in hall.rows if row.racks and row.direction in (0, 180))
    return 1 if along_y > along_x else 0


def _tray_interior(points: tuple[Point3, ...]) -> tuple[Point3, ...] | None:
    """The points between the climb and the descent, when the cable's first turn is above (or below)
    both of its ports; None when it uses no tray."""
    if len(points) < 4:
        return None
    z = points[1][2]
    za, zb = points[0][2], points[-1][2]
    if (z > za and z > zb) or (z < za and z < zb):
        return points[1:-1]
    return None


def _legs(interior: tuple[Point3, ...]) -> list[tuple[int, int, int, int, int]]:
    """(axis, fixed, height, low, high) of each straight horizontal leg at the tray height."""
    z = interior[0][2]
    out: list[tuple[int, int, int, int, int]] = []
    for (x0, y0, z0), (x1, y1, z1) in pairwise(interior):
        if z0 != z or z1 != z:
            continue
        if y0 == y1 and x0 != x1:
            out.append((0, y0, z, min(x0, x1), max(x0, x1)))
        elif x0 == x1 and y0 != y1:
            out.append((1, x0, z, min(y0, y1), max(y0, y1)))
    return out


def _level(axis: int, z: int, along_rows: int) -> int:
    if z < 0:
        return 2
    return 0 if axis == along_rows else 1


def _spec(facility: HallFacility, name: str, level: TrayLevel) -> TraySpec:
    own = facility.tray_runs.get(name)
    spec = own if own is not None else facility.trays.get(level)
    field = f"tray_runs[{name}]" if own is not None else f"trays[{level.value}]"
    if spec is None:
        raise DomainError(field, f"the hall has no tray for level {level.value}")
    if spec.width_mm <= 0 or spec.usable_depth_mm <= 0 or spec.load_kg_per_m <= 0:
        raise DomainError(field, "width, usable depth and load rating must be > 0")
    return spec


def tray_system(plant: Plant, missing: MissingFacts) -> TraySystem:
    hall, facility = plant.hall, plant.facility
    tile = hall.tile_mm
    if tile <= 0:
        raise DomainError("tile_mm", "must be > 0 to cut tray runs into segments")
    along_rows = rows_axis(hall)

    routes: Counter[tuple[tuple[Point3, ...], str]] = Counter()
    for c in plant.routed:
        interior = _tray_interior(c.points)
        if interior is not None:
            routes[(interior, c.part_number)] += 1

    run_legs: dict[RunKey, list[tuple[int, int, str, int]]] = {}
    in_trays: Counter[str] = Counter()
    for (interior, part), n in routes.items():
        legs = _legs(interior)
        if legs:
            in_trays[part] += n
        for axis, fixed, z, low, high in legs:
            key = (_level(axis, z, along_rows), axis, fixed, z)
            run_legs.setdefault(key, []).append((low, high, part, n))

    # Per part: cross-section (mm²), kg/m, and whether it lets a tray fill to the signal-only limit.
    per_part: dict[str, tuple[float, float, int]] = {}
    for part, n in sorted(in_trays.items()):
        facts = plant.cables.get(part, _UNKNOWN)
        if facts.od_mm is None:
            missing.note(CatalogKind.CABLE, part, "od_mm", FILL_CHECK, n, "cable")
        if facts.kg_per_m is None:
            missing.note(CatalogKind.CABLE, part, "kg_per_m", TRAY_WEIGHT_CHECK, n, "cable")
        area = math.pi * facts.od_mm**2 / 4 if facts.od_mm is not None else 0.0
        per_part[part] = (area, facts.kg_per_m or 0.0, 0 if facts.signal_only else 1)

    runs: dict[RunKey, Run] = {}
    segments: list[TraySegmentLoad] = []
    for index, key in enumerate(sorted(run_legs), 1):
        on_run = run_legs[key]
        name = f"T{index}"
        low, high = min(leg[0] for leg in on_run), max(leg[1] for leg in on_run)
        run = Run(name, key, low, high, _spec(facility, name, _LEVELS[key[0]]))
        runs[key] = run
        segments += _segments(run, on_run, per_part, tile, facility)
    return TraySystem(runs, tile, along_rows, tuple(segments))


def _segments(
    run: Run,
    legs: list[tuple[int, int, str, int]],
    per_part: dict[str, tuple[float, float, int]],
    tile: int,
    facility: HallFacility,
) -> list[TraySegmentLoad]:
    first = run.low_mm // tile
    size = (run.high_mm - 1) // tile - first + 2
    area = [0.0] * size
    weight = [0.0] * size
    count = [0] * size
    # Cables that are not signal-only: one holds its segment to the general limit.
    other = [0] * size
    for low, high, part, n in legs:
        a, w, p = per_part[part]
        i, j = low // tile - first, (high - 1) // tile - first + 1
        area[i] += n * a
        area[j] -= n * a
        weight[i] += n * w
        weight[j] -= n * w
        count[i] += n
        count[j] -= n
        if p:
            other[i] += n
            other[j] -= n
    out: list[TraySegmentLoad] = []
    spec = run.spec
    s_area = s_weight = 0.0
    s_count = s_other = 0
    for k in range(size - 1):
        s_area += area[k]
        s_weight += weight[k]
        s_count += count[k]
        s_other += other[k]
        if s_count <= 0:
            continue
        start = max((first + k) * tile, run.low_mm)
        end = min((first + k + 1) * tile, run.high_mm)
        limit = facility.max_tray_fill_pct if s_other else facility.max_signal_tray_fill_pct
        out.append(
            TraySegmentLoad(
                name=f"{run.name}-{k + 1}",
                run=run.name,
                level=run.level,
                start=run.point(start),
                end=run.point(end),
                cables=s_count,
                fill_pct=max(0.0, s_area) / spec.area_mm2 * 100,
                limit_pct=limit,
                kg_per_m=max(0.0, s_weight),
                load_kg_per_m=spec.load_kg_per_m,
            )
        )
    return out


def check_trays(system: TraySystem, facility: HallFacility) -> list[Issue]:
    issues: list[Issue] = []
    by_name = {run.name: run for run in system.runs.values()}
    for seg in system.segments:
        run = by_name[seg.run]
        tray = f"{run.spec.width_mm} x {run.spec.usable_depth_mm} mm"
        if seg.fill_pct > seg.limit_pct:
            signal = " (signal-only tray)" if seg.limit_pct == facility.max_signal_tray_fill_pct else ""
            issues.append(
                Issue(
                    Severity.ERROR,
                    "tray_fill",
                    f"trays[{seg.name}]",
                    f"tray segment {seg.name} ({seg.level.value}, {tray}) is {seg.fill_pct:.1f} % full with "
                    f"{plural(seg.cables, 'cable')}, over its {seg.limit_pct:g} % limit{signal}",
                )
            )
        if seg.kg_per_m > seg.load_kg_per_m:
            issues.append(
                Issue(
                    Severity.ERROR,
                    "tray_overload",
                    f"trays[{seg.name}]",
                    f"tray segment {seg.name} ({seg.level.value}, {tray}) carries {seg.kg_per_m:,.1f} kg/m of "
                    f"{plural(seg.cables, 'cable')}, over its rating of {seg.load_kg_per_m:g} kg/m "
                    f"({seg.kg_per_m / seg.load_kg_per_m * 100:.0f} %)",
                )
            )
    return issues


def _corners(points: tuple[Point3, ...]) -> list[int]:
    """Indexes of the points where the polyline turns."""
    out: list[int] = []
    for i in range(1, len(points) - 1):
        a, b, c = points[i - 1], points[i], points[i + 1]
        d0 = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        d1 = (c[0] - b[0], c[1] - b[1], c[2] - b[2])
        # Axis-aligned legs: a turn is a change of the axis that moves.
        if [v != 0 for v in d0] != [v != 0 for v in d1]:
            out.append(i)
    return out


def _where(system: TraySystem, cable: RoutedCable, i: int) -> str:
    """Where corner `i` of a cable is: on which tray segment, or in which rack."""
    pts = cable.points
    interior = _tray_interior(pts)
    if interior is not None and pts[i][2] == interior[0][2]:
        # The corner ends the leg before it or starts the one after it; name the tile it is in.
        for j in (i, i - 1):
            if j >= 1 and j + 1 <= len(pts) - 2:
                legs = _legs((pts[j], pts[j + 1]))
                if legs:
                    axis, fixed, z, low, high = legs[0]
                    key = (_level(axis, z, system.rows_axis), axis, fixed, z)
                    coord = pts[i][axis]
                    t = low // system.tile_mm if coord == low else (high - 1) // system.tile_mm
                    return f"on tray segment {system.segment_name(key, t)}"
    # Off the trays: inside a rack, or along the rack faces (paper geometry).
    rack = cable.rack_a if i <= len(pts) // 2 else cable.rack_b
    return f"off the trays, by rack {rack}"


def check_bends(plant: Plant, system: TraySystem, parts: Counter[str], missing: MissingFacts) -> list[Issue]:
    """`parts`: part number -> how many routed cables of it (every part of the plan)."""
    radius = plant.facility.tray_bend_radius_mm
    tight: dict[str, float] = {}
    for part, n in sorted(parts.items()):
        bend = plant.cables.get(part, _UNKNOWN).min_bend_radius_mm
        if bend is None:
            missing.note(CatalogKind.CABLE, part, "min_bend_radius_mm", BEND_CHECK, n, "cable")
        elif bend > radius:
            tight[part] = bend
    if not tight:
        return []
    first: dict[str, tuple[RoutedCable, int]] = {}
    cables: Counter[str] = Counter()
    corners: Counter[str] = Counter()
    for c in plant.routed:
        if c.part_number not in tight:
            continue
        turns = _corners(c.points)
        if not turns:
            continue
        cables[c.part_number] += 1
        corners[c.part_number] += len(turns)
        seen = first.get(c.part_number)
        if seen is None or c.label < seen[0].label:
            first[c.part_number] = (c, turns[0])
    issues: list[Issue] = []
    for part in sorted(first):
        cable, i = first[part]
        x, y, z = cable.points[i]
        more_cables, more_corners = cables[part] - 1, corners[part] - len(_corners(cable.points))
        others = (
            f"; {plural(more_cables, 'more cable')} of this part turn at {plural(more_corners, 'more corner')}"
            if more_cables
            else ""
        )
        own = len(_corners(cable.points)) - 1
        also = f" (and {plural(own, 'more corner')} of its own)" if own else ""
        issues.append(
            Issue(
                Severity.WARNING,
                "bend_too_tight",
                f"cables[{cable.label}].points[{i}]",
                f"cable {cable.label!r} ({part}, minimum bend radius {tight[part]:g} mm) turns at ({x}, {y}, {z}) mm "
                f"{_where(system, cable, i)}{also} bent at the hall's {radius:g} mm radius{others}",
            )
        )
    return issues
