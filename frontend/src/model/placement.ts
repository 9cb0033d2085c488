/**
 * Where rows may stand, checked in the browser before anything is sent: the server's geometry rules
 * (`loopline/domain/layout_rules.py` `check_geometry`: every rack inside the hall floor, no two racks
 * overlapping, touching is fine), and the free-floor search that P and Ctrl+D use to place new rows
 * away from the walls and from other rows, keeping the hall's own minimum aisle widths.
 */
import { facing, rackBox, rowBox, type Box, type Vec2 } from "./geometry";
import {
  hallOf,
  isRack,
  isRow,
  racksOf,
  recordIndex,
  rowRacks,
  rowsOf,
  type Direction,
  type RecordId,
  type RackRecord,
  type Records,
  type RowRecord,
  type Side,
} from "./records";
import { formatLength } from "./units";

export interface PlacementProblem {
  /** The row (or rack) the message is about: it is shown next to it. */
  target: RecordId;
  message: string;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** A row's floor box, kept while the row and its rack list (the index's array) are the same objects. */
const boxes = new WeakMap<readonly RackRecord[], { row: RowRecord; box: Box }>();
function rowBoxOf(row: RowRecord, racks: readonly RackRecord[]): Box {
  const hit = boxes.get(racks);
  if (hit && hit.row === row) return hit.box;
  const box = rowBox(row, racks);
  boxes.set(racks, { row, box });
  return box;
}

/**
 * The first rule a set of changed rows and racks breaks in `records`, or null. Only racks that belong
 * to `changed` (rows or racks) are checked, against every rack: what was already saved is valid.
 */
export function placementProblem(records: Records, changed: Iterable<RecordId>): PlacementProblem | null {
  const hall = hallOf(records);
  // The changed racks and the racks of the changed rows (from the index: no walk over the hall).
  const moved = new Map<RecordId, RackRecord>();
  for (const id of changed) {
    const r = records[id];
    if (isRack(r) && isRow(records[r.rowId])) moved.set(r.id, r);
    else if (isRow(r)) for (const rack of rowRacks(records, r.id)) moved.set(rack.id, rack);
  }
  if (!hall || moved.size === 0) return null;
  const rows = recordIndex(records).rows.map((row) => ({ row, box: rowBoxOf(row, rowRacks(records, row.id)) }));
  for (const rack of moved.values()) {
    if (!isRack(rack)) continue;
    const row = records[rack.rowId];
    if (!isRow(row)) continue;
    const b = rackBox(row, rack);
    if (b.x0 < 0 || b.y0 < 0 || b.x1 > hall.widthMm || b.y1 > hall.depthMm) {
      return {
        target: row.id,
        message: `Row ${row.name} would stand outside the hall: rack ${rack.name} would reach ${outside(b, hall.widthMm, hall.depthMm)} (the floor is ${formatLength(hall.widthMm)} × ${formatLength(hall.depthMm)}).`,
      };
    }
    for (const other of rows) {
      if (!overlaps(b, other.box)) continue;
      for (const o of rowRacks(records, other.row.id)) {
        if (o.id === rack.id || !overlaps(b, rackBox(other.row, o))) continue;
        return other.row.id === row.id
          ? { target: rack.id, message: `Rack ${rack.name} would overlap rack ${o.name} in row ${row.name}.` }
          : {
              target: row.id,
              message: `Row ${row.name} would overlap row ${other.row.name} (rack ${rack.name} on ${o.name}).`,
            };
      }
    }
  }
  return null;
}

function outside(b: Box, w: number, d: number): string {
  if (b.x0 < 0) return `${formatLength(-b.x0)} past the wall at x = 0`;
  if (b.y0 < 0) return `${formatLength(-b.y0)} past the wall at y = 0`;
  if (b.x1 > w) return `${formatLength(b.x1 - w)} past the wall at x = ${formatLength(w)}`;
  return `${formatLength(b.y1 - d)} past the wall at y = ${formatLength(d)}`;
}

/** A row about to be laid: its floor box and which way its racks face. */
export interface Footprint {
  box: Box;
  direction: Direction;
  front: Side;
}

function shift(b: Box, d: Vec2): Box {
  return { x0: b.x0 + d.x, y0: b.y0 + d.y, x1: b.x1 + d.x, y1: b.y1 + d.y };
}

/** The hall's own minimum aisle widths (its `min_cold_aisle_m`, `min_hot_aisle_m`). */
export interface AisleMinimums {
  minColdAisleMm: number;
  minHotAisleMm: number;
}

/**
 * Whether two parallel rows (a below b along the across axis) would face each other across a cold
 * aisle. A row about to be laid has no validation report yet, so the free-floor search asks this;
 * what the server reports for the rows once laid (`layout_rules.derive_aisles`) is what is shown.
 */
function facesAcross(a: Footprint, b: Footprint, horizontal: boolean): boolean {
  const fa = facing(a.direction, a.front);
  const fb = facing(b.direction, b.front);
  return (horizontal ? fa.y : fa.x) > 0 && (horizontal ? fb.y : fb.x) < 0;
}

/**
 * Clear of `other`: no overlap; parallel rows side by side at least the hall's minimum cold aisle when
 * their fronts face each other, else its minimum hot aisle (as the server's `aisle_minimum_mm`);
 * anything else at least a hot aisle's width away (room to walk round a row end).
 */
export function clearOf(f: Footprint, other: Footprint, min: AisleMinimums): boolean {
  const a = f.box;
  const b = other.box;
  const gx = Math.max(b.x0 - a.x1, a.x0 - b.x1);
  const gy = Math.max(b.y0 - a.y1, a.y0 - b.y1);
  if (gx < 0 && gy < 0) return false;
  const parallel = f.direction % 180 === other.direction % 180;
  const horizontal = f.direction % 180 === 0;
  const alongOverlap = horizontal ? gx < 0 : gy < 0;
  if (parallel && alongOverlap) {
    const gap = horizontal ? gy : gx;
    const lowFirst = horizontal ? a.y0 < b.y0 : a.x0 < b.x0;
    const cold = lowFirst ? facesAcross(f, other, horizontal) : facesAcross(other, f, horizontal);
    return gap >= (cold ? min.minColdAisleMm : min.minHotAisleMm);
  }
  return Math.max(gx, gy) >= min.minHotAisleMm;
}

export function footprintsOf(records: Records, except: ReadonlySet<RecordId> = new Set()): Footprint[] {
  return rowsOf(records)
    .filter((row) => !except.has(row.id) && racksOf(records, row.id).length > 0)
    .map((row) => ({ box: rowBox(row, racksOf(records, row.id)), direction: row.direction, front: row.front }));
}

/**
 * The offset (a whole number of tiles) nearest to (0, 0) that puts every footprint of `group` on the
 * hall floor and clear of every row of `existing`; null when the hall has no such place.
 */
export function freeOffset(
  group: readonly Footprint[],
  existing: readonly Footprint[],
  hall: { widthMm: number; depthMm: number; tileMm: number } & AisleMinimums,
): Vec2 | null {
  if (group.length === 0) return { x: 0, y: 0 };
  const t = hall.tileMm;
  const x0 = Math.min(...group.map((f) => f.box.x0));
  const y0 = Math.min(...group.map((f) => f.box.y0));
  const x1 = Math.max(...group.map((f) => f.box.x1));
  const y1 = Math.max(...group.map((f) => f.box.y1));
  // Offsets keeping the group's bounding box on the floor, on the tile grid.
  const lo = { x: Math.ceil(-x0 / t), y: Math.ceil(-y0 / t) };
  const hi = { x: Math.floor((hall.widthMm - x1) / t), y: Math.floor((hall.depthMm - y1) / t) };
  if (lo.x > hi.x || lo.y > hi.y) return null;
  const candidates: Vec2[] = [];
  for (let i = lo.x; i <= hi.x; i++) for (let j = lo.y; j <= hi.y; j++) candidates.push({ x: i * t + 0, y: j * t + 0 }); // + 0: no -0
  candidates.sort((p, q) => Math.hypot(p.x, p.y) - Math.hypot(q.x, q.y) || p.y - q.y || p.x - q.x);
  for (const d of candidates) {
    const moved = group.map((f) => ({ ...f, box: shift(f.box, d) }));
    if (moved.every((f) => existing.every((o) => clearOf(f, o, hall)))) return d;
  }
  return null;
}
