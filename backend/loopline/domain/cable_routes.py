"""The polyline a routed cable follows, for drawing it (its length is what `routing` measures).

Between racks a cable climbs (or drops) to the tray level, runs along x, then along y, and comes
back down; inside a rack, or along the rack faces (paper), it runs vertically first. The polyline's
Manhattan length equals the cable's raw routed length.
"""

from __future__ import annotations

from itertools import pairwise

from loopline.domain.routing import Via

Point3 = tuple[int, int, int]


def route_points(via: Via, level_mm: int, same_rack: bool, a: Point3, b: Point3) -> list[Point3]:
    """`level_mm`: height of the tray (Via.TRAY) or of the cable run under the floor (negative)."""
    ax, ay, az = a
    bx, by, bz = b
    if same_rack or via is Via.FACES:
        return _dedupe([a, (ax, ay, bz), (bx, ay, bz), b])
    return _dedupe([a, (ax, ay, level_mm), (bx, ay, level_mm), (bx, by, level_mm), b])


def polyline_length_mm(points: list[Point3]) -> int:
    return sum(abs(x1 - x0) + abs(y1 - y0) + abs(z1 - z0) for (x0, y0, z0), (x1, y1, z1) in pairwise(points))


def _dedupe(points: list[Point3]) -> list[Point3]:
    out = [points[0]]
    for p in points[1:]:
        if p != out[-1]:
            out.append(p)
    return out
