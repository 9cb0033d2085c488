"""Validation rules for a layout: geometry, rack units, ports, aisles and oversubscription.

Pure functions over `loopline.domain.layout`. Each rule returns `Issue`s; an `error` makes a
layout invalid (the API refuses the write with 422), a `warning` is shown but accepted.

Issue fields are paths in the layout document the API and the export use, with names instead
of indexes where the document has names, e.g. ``rows[R01].racks[R01-03].position_m`` or
``rows[R01].racks[R01-03].logical_racks[1].base_u``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from loopline.domain.layout import (
    FabricSettings,
    FabricType,
    Hall,
    LogicalRack,
    NetworkRackPlacement,
    Rack,
    RackRole,
    Row,
)

DEFAULT_MIN_COLD_AISLE_MM = 1200
DEFAULT_MIN_HOT_AISLE_MM = 900


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class AisleKind(StrEnum):
    COLD = "cold"
    """Rack fronts (server ports) face the aisle from both sides."""
    HOT = "hot"
    """Rack backs face the aisle from both sides."""
    MIXED = "mixed"
    """A front faces a back: the hot exhaust of one row blows into the intake of the other."""


@dataclass(frozen=True, slots=True)
class Issue:
    severity: Severity
    code: str
    field: str
    message: str


@dataclass(frozen=True, slots=True)
class Aisle:
    """The strip between two parallel rows facing it, `width_mm` wide.

    `x0..y1` is the strip's bounding box on the floor (where the two rows overlap along their axis);
    `min_width_mm` is the hall's minimum for an aisle of this kind (`aisle_minimum_mm`).
    """

    kind: AisleKind
    row_a: str
    row_b: str
    width_mm: int
    x0_mm: int
    y0_mm: int
    x1_mm: int
    y1_mm: int
    min_width_mm: int

    @property
    def too_narrow(self) -> bool:
        return self.width_mm < self.min_width_mm


@dataclass(frozen=True, slots=True)
class LayerLoad:
    """Oversubscription of one switch layer: traffic it can receive from below over what it can send up.

    `ratio` is total downlink over total uplink capacity (None for the top layer, which has no
    uplinks); `worst_ratio` is the highest ratio of any single switch (ToR layer) or cluster.
    """

    layer: str
    switches: int
    downlink_gbps: float
    uplink_gbps: float
    ratio: float | None
    worst_ratio: float | None


def rack_path(row: Row, rack: Rack) -> str:
    return f"rows[{row.name}].racks[{rack.name}]"


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_geometry(hall: Hall) -> list[Issue]:
    """Racks inside the hall and not overlapping each other (touching is fine)."""
    issues: list[Issue] = []
    boxes: list[tuple[tuple[int, int, int, int], Row, Rack]] = []
    for row in hall.rows:
        for rack in row.racks:
            box = row.footprint(rack)
            boxes.append((box, row, rack))
            x0, y0, x1, y1 = box
            if x0 < 0 or y0 < 0 or x1 > hall.width_mm or y1 > hall.depth_mm:
                issues.append(
                    Issue(
                        Severity.ERROR,
                        "rack_outside_hall",
                        f"{rack_path(row, rack)}.position_m",
                        f"rack {rack.name!r} of row {row.name!r} spans x {x0 / 1000:g}..{x1 / 1000:g} m, "
                        f"y {y0 / 1000:g}..{y1 / 1000:g} m, outside the hall floor "
                        f"({hall.width_mm / 1000:g} x {hall.depth_mm / 1000:g} m)",
                    )
                )
    # Compare racks only within a row and between rows whose footprints intersect.
    by_row: dict[int, list[tuple[tuple[int, int, int, int], Row, Rack]]] = {}
    for item in boxes:
        by_row.setdefault(id(item[1]), []).append(item)
    groups = list(by_row.values())
    extents = [_extent(g) for g in groups]
    for i, group in enumerate(groups):
        issues += _sweep(group, group)
        for j in range(i + 1, len(groups)):
            if _overlaps(extents[i], extents[j]):
                issues += _sweep(group, groups[j])
    return issues


Boxed = tuple[tuple[int, int, int, int], Row, Rack]


def _extent(group: list[Boxed]) -> tuple[int, int, int, int]:
    return (
        min(b[0][0] for b in group),
        min(b[0][1] for b in group),
        max(b[0][2] for b in group),
        max(b[0][3] for b in group),
    )


def _sweep(a: list[Boxed], b: list[Boxed]) -> list[Issue]:
    """Overlapping pairs between `a` and `b` (or within `a` when they are the same list), by a sweep along x."""
    same = a is b
    tagged = sorted(
        [(box, 0, row, rack) for box, row, rack in a] + ([] if same else [(box, 1, row, rack) for box, row, rack in b]),
        key=lambda t: t[0][0],
    )
    issues: list[Issue] = []
    for i, (box, side, row, rack) in enumerate(tagged):
        for other_box, other_side, other_row, other_rack in tagged[i + 1 :]:
            if other_box[0] >= box[2]:
                break
            if (same or side != other_side) and _overlaps(box, other_box):
                first, second = sorted(((row, rack), (other_row, other_rack)), key=lambda rr: (rr[0].name, rr[1].name))
                issues.append(
                    Issue(
                        Severity.ERROR,
                        "rack_overlap",
                        f"{rack_path(*second)}.position_m",
                        f"rack {second[1].name!r} of row {second[0].name!r} overlaps rack "
                        f"{first[1].name!r} of row {first[0].name!r}",
                    )
                )
    return issues


def occupied_units(rack: Rack) -> Iterator[tuple[int, int, str]]:
    """(lowest U, highest U, field path suffix) of everything mounted in the rack."""
    for i, lr in enumerate(rack.logical_racks):
        yield lr.base_u, lr.top_u, f"logical_racks[{i}].base_u"
    for sw in rack.fabric_switches:
        yield sw.u, sw.u + sw.model.height_u - 1, f"fabric_switches[{sw.name}].u"


def check_units(row: Row, rack: Rack) -> list[Issue]:
    """Every logical rack and fabric switch inside 1..height_u, and no two sharing a U."""
    issues: list[Issue] = []
    base = rack_path(row, rack)
    height = rack.rack_type.height_u
    spans = sorted(occupied_units(rack))
    for lo, hi, path in spans:
        if lo < 1 or hi > height:
            issues.append(
                Issue(
                    Severity.ERROR,
                    "u_out_of_rack",
                    f"{base}.{path}",
                    f"occupies U{lo}..U{hi} but rack {rack.name!r} has U1..U{height}",
                )
            )
    # Sorted by lowest U: a span collides when it starts at or below the highest U seen so far.
    reach: tuple[int, int, str] | None = None
    for lo, hi, path in spans:
        if reach is not None and lo <= reach[1]:
            issues.append(
                Issue(
                    Severity.ERROR,
                    "u_collision",
                    f"{base}.{path}",
                    f"U{lo} is already used by {reach[2]} (U{reach[0]}..U{reach[1]}) in rack {rack.name!r}",
                )
            )
        if reach is None or hi > reach[1]:
            reach = (lo, hi, path)
    return issues


def check_logical_rack(path: str, lr: LogicalRack) -> list[Issue]:
    """`p <= NIC ports` and `q >= r*p` (the ToR has a server-facing port for every cabled server port)."""
    issues: list[Issue] = []
    if lr.ports_used > lr.server_model.nic_ports:
        issues.append(
            Issue(
                Severity.ERROR,
                "ports_beyond_nic",
                f"{path}.ports_used",
                f"{lr.ports_used} ports per server, but server model {lr.server_model.name!r} has "
                f"{lr.server_model.nic_ports} NIC ports",
            )
        )
    needed = lr.servers * lr.ports_used
    if needed > lr.tor_model.server_ports:
        issues.append(
            Issue(
                Severity.ERROR,
                "tor_ports_short",
                f"{path}.tor_model",
                f"{lr.servers} servers x {lr.ports_used} ports need {needed} server-facing ToR ports, "
                f"but {lr.tor_model.name!r} has {lr.tor_model.server_ports}",
            )
        )
    return issues


def check_contents(row: Row, rack: Rack) -> list[Issue]:
    issues = check_units(row, rack)
    for i, lr in enumerate(rack.logical_racks):
        issues += check_logical_rack(f"{rack_path(row, rack)}.logical_racks[{i}]", lr)
    return issues


def _axis(row: Row) -> int:
    """0 when the row runs along x, 1 when along y."""
    return 0 if row.direction in (0, 180) else 1


def aisle_minimum_mm(kind: AisleKind, min_cold_mm: int, min_hot_mm: int) -> int:
    """The narrowest an aisle of `kind` may be: a cold aisle the hall's cold minimum, a hot or mixed one
    (exhaust on at least one side) the hot minimum."""
    return min_cold_mm if kind is AisleKind.COLD else min_hot_mm


def derive_aisles(
    hall: Hall, min_cold_mm: int = DEFAULT_MIN_COLD_AISLE_MM, min_hot_mm: int = DEFAULT_MIN_HOT_AISLE_MM
) -> list[Aisle]:
    """Aisles between parallel rows that overlap along their axis, nearest neighbour on each side, each
    with the hall's minimum width for its kind. No distance cut-off: the nearest row across is the aisle."""
    rows = [row for row in hall.rows if row.racks]
    boxes = {row.name: row.row_footprint() for row in rows}
    aisles: list[Aisle] = []
    for a in rows:
        ax = _axis(a)
        a0, a1 = (boxes[a.name][0], boxes[a.name][2]) if ax == 0 else (boxes[a.name][1], boxes[a.name][3])
        a_far = boxes[a.name][3] if ax == 0 else boxes[a.name][2]  # far edge along the normal axis
        best: tuple[int, Row, int, int] | None = None
        for b in rows:
            if b is a or _axis(b) != ax:
                continue
            bb = boxes[b.name]
            b0, b1 = (bb[0], bb[2]) if ax == 0 else (bb[1], bb[3])
            b_near = bb[1] if ax == 0 else bb[0]
            lo, hi = max(a0, b0), min(a1, b1)
            gap = b_near - a_far
            if hi <= lo or gap <= 0:
                continue
            if best is None or gap < best[0]:
                best = (gap, b, lo, hi)
        if best is None:
            continue
        gap, b, lo, hi = best
        # Which faces look into the strip: a looks towards +normal axis, b towards -normal axis.
        a_front = a.facing()[1 - ax] > 0
        b_front = b.facing()[1 - ax] < 0
        kind = AisleKind.COLD if a_front and b_front else AisleKind.HOT if not (a_front or b_front) else AisleKind.MIXED
        box = (lo, a_far, hi, a_far + gap) if ax == 0 else (a_far, lo, a_far + gap, hi)
        aisles.append(Aisle(kind, a.name, b.name, gap, *box, aisle_minimum_mm(kind, min_cold_mm, min_hot_mm)))
    aisles.sort(key=lambda aisle: (aisle.row_a, aisle.row_b))
    return aisles


def check_aisles(aisles: Iterable[Aisle]) -> list[Issue]:
    """Warnings: aisles narrower than their minimum (`derive_aisles` sets it from the hall), mixed aisles."""
    issues: list[Issue] = []
    for aisle in aisles:
        minimum = aisle.min_width_mm
        if aisle.too_narrow:
            issues.append(
                Issue(
                    Severity.WARNING,
                    "aisle_too_narrow",
                    f"rows[{aisle.row_b}].y_m",
                    f"{aisle.kind} aisle between rows {aisle.row_a!r} and {aisle.row_b!r} is "
                    f"{aisle.width_mm / 1000:g} m wide, below the minimum of {minimum / 1000:g} m",
                )
            )
        if aisle.kind is AisleKind.MIXED:
            issues.append(
                Issue(
                    Severity.WARNING,
                    "aisle_mixed",
                    f"rows[{aisle.row_b}].front",
                    f"rows {aisle.row_a!r} and {aisle.row_b!r} face the same aisle with a front and a back: "
                    "hot exhaust blows into cold intake",
                )
            )
    return issues


def clusters(hall: Hall, rows_per_cluster: int) -> list[list[Row]]:
    """Compute rows (rows holding compute racks) ordered by name, grouped `rows_per_cluster` at a time."""
    compute = sorted(
        (row for row in hall.rows if any(r.role is RackRole.COMPUTE for r in row.racks)), key=lambda r: r.name
    )
    size = max(1, rows_per_cluster)
    return [compute[i : i + size] for i in range(0, len(compute), size)]


def _ratio(down: float, up: float) -> float | None:
    return round(down / up, 3) if up > 0 else None


def oversubscription(hall: Hall, fabric: FabricSettings) -> list[LayerLoad]:
    """Oversubscription at each layer of the fabric, computed from the hall's contents.

    ToR: cabled server ports (`r * p * port speed`) over `tor_uplinks * tor_uplink_gbps`.
    Aggregation (fat_tree, vl2): per cluster, the ToR uplinks of the cluster over the
    aggregation switches' uplinks. Spine/core: the top layer, no uplinks.
    """
    tor_up = fabric.tor_uplinks * fabric.tor_uplink_gbps
    layers: list[LayerLoad] = []
    tors = 0
    down_total = 0.0
    worst: float | None = None
    cluster_downs: list[float] = []
    for cluster in clusters(hall, fabric.rows_per_cluster):
        cluster_tors = 0
        for row in cluster:
            for rack in row.racks:
                if rack.role is not RackRole.COMPUTE:
                    continue
                for lr in rack.logical_racks:
                    down = lr.servers * lr.ports_used * lr.server_model.port_gbps
                    down_total += down
                    cluster_tors += 1
                    r = _ratio(down, tor_up)
                    if r is not None and (worst is None or r > worst):
                        worst = r
        tors += cluster_tors
        cluster_downs.append(cluster_tors * tor_up)
    layers.append(LayerLoad("tor", tors, down_total, tors * tor_up, _ratio(down_total, tors * tor_up), worst))
    fabric_down = tors * tor_up
    if fabric.fabric_type is FabricType.LEAF_SPINE:
        layers.append(LayerLoad("spine", fabric.spines, fabric_down, 0.0, None, None))
        return layers
    agg_up = fabric.aggs_per_cluster * fabric.agg_uplinks * fabric.agg_uplink_gbps
    n_clusters = len(cluster_downs)
    worst_agg = max((r for d in cluster_downs if (r := _ratio(d, agg_up)) is not None), default=None)
    layers.append(
        LayerLoad(
            "agg",
            n_clusters * fabric.aggs_per_cluster,
            fabric_down,
            n_clusters * agg_up,
            _ratio(fabric_down, n_clusters * agg_up),
            worst_agg,
        )
    )
    layers.append(LayerLoad("core", fabric.cores, n_clusters * agg_up, 0.0, None, None))
    return layers


def check_fabric(hall: Hall, fabric: FabricSettings) -> list[Issue]:
    """Warnings: ToRs without enough uplink ports for `tor_uplinks`, or uplink ports slower than asked."""
    issues: list[Issue] = []
    seen: set[str] = set()
    for row in hall.rows:
        for rack in row.racks:
            for i, lr in enumerate(rack.logical_racks):
                model = lr.tor_model
                if model.name in seen:
                    continue
                if model.uplink_ports < fabric.tor_uplinks or model.uplink_gbps < fabric.tor_uplink_gbps:
                    seen.add(model.name)
                    issues.append(
                        Issue(
                            Severity.WARNING,
                            "tor_uplinks_short",
                            f"{rack_path(row, rack)}.logical_racks[{i}].tor_model",
                            f"fabric asks for {fabric.tor_uplinks} x {fabric.tor_uplink_gbps:g}G uplinks per ToR, "
                            f"but {model.name!r} has {model.uplink_ports} x {model.uplink_gbps:g}G",
                        )
                    )
    return issues


def check_network_racks(hall: Hall, fabric: FabricSettings) -> list[Issue]:
    """Warnings: network racks not where the fabric settings put them, or fabric switch counts that
    differ from the settings (only once some fabric switches are placed)."""
    issues: list[Issue] = []
    placement = fabric.network_rack_placement
    for row in hall.rows:
        ordered = sorted(row.racks, key=lambda r: r.position_mm)
        network = [i for i, r in enumerate(ordered) if r.role is RackRole.NETWORK]
        if not network:
            continue
        last = len(ordered) - 1
        misplaced: list[Rack] = []
        if placement is NetworkRackPlacement.DEDICATED_ROW:
            misplaced = [] if len(network) == len(ordered) else [ordered[i] for i in network]
        elif placement is NetworkRackPlacement.END_OF_ROW:
            # A block of network racks touching either end of the row.
            at_start = network == list(range(len(network)))
            at_end = network == list(range(last - len(network) + 1, last + 1))
            misplaced = [] if at_start or at_end else [ordered[i] for i in network]
        else:
            misplaced = [ordered[i] for i in network if i in (0, last) and len(network) < len(ordered)]
        for rack in misplaced:
            issues.append(
                Issue(
                    Severity.WARNING,
                    "network_rack_placement",
                    f"{rack_path(row, rack)}.position_m",
                    f"network rack {rack.name!r} is not placed {placement.value.replace('_', ' ')}, "
                    "as the fabric settings say",
                )
            )
    placed: dict[str, int] = {}
    for row in hall.rows:
        for rack in row.racks:
            for sw in rack.fabric_switches:
                placed[sw.role] = placed.get(sw.role, 0) + 1
    if placed:
        n_clusters = len(clusters(hall, fabric.rows_per_cluster))
        wanted = (
            {"spine": fabric.spines}
            if fabric.fabric_type is FabricType.LEAF_SPINE
            else {"agg": fabric.aggs_per_cluster * n_clusters, "core": fabric.cores}
        )
        for role, count in wanted.items():
            if placed.get(role, 0) != count:
                issues.append(
                    Issue(
                        Severity.WARNING,
                        "fabric_switch_count",
                        f"fabric.{'spines' if role == 'spine' else 'cores' if role == 'core' else 'aggs_per_cluster'}",
                        f"the fabric settings ask for {count} {role} switches in this hall, "
                        f"{placed.get(role, 0)} are placed in network racks",
                    )
                )
    return issues


def validate_hall(
    hall: Hall,
    *,
    min_cold_mm: int = DEFAULT_MIN_COLD_AISLE_MM,
    min_hot_mm: int = DEFAULT_MIN_HOT_AISLE_MM,
    fabric: FabricSettings | None = None,
) -> list[Issue]:
    """Every rule: errors first, then warnings."""
    issues = check_geometry(hall)
    for row in hall.rows:
        for rack in row.racks:
            issues += check_contents(row, rack)
    issues += check_aisles(derive_aisles(hall, min_cold_mm, min_hot_mm))
    if fabric is not None:
        issues += check_fabric(hall, fabric)
        issues += check_network_racks(hall, fabric)
    issues.sort(key=lambda i: i.severity is not Severity.ERROR)
    return issues
