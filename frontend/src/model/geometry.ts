/**
 * Pure floor geometry (mm): row and rack footprints, snapping, and the aisles between rows.
 * Mirrors `loopline/domain/layout.py` so the editor and the wiring generator agree.
 */
import {
  DEFAULT_RACK_TYPE,
  racksOf,
  rowsOf,
  type Direction,
  type RackRecord,
  type Records,
  type RowRecord,
  type Side,
} from "./records";

export interface Vec2 {
  x: number;
  y: number;
}
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const UNIT: Record<Direction, Vec2> = {
  0: { x: 1, y: 0 },
  90: { x: 0, y: 1 },
  180: { x: -1, y: 0 },
  270: { x: 0, y: -1 },
};

export function unit(d: Direction): Vec2 {
  return UNIT[d];
}
/** Left-hand normal: the side the racks extend to from the row line. */
export function normal(d: Direction): Vec2 {
  const u = UNIT[d];
  return { x: -u.y, y: u.x };
}

export function snap(value: number, step: number): number {
  return Math.round(value / step) * step;
}
export function snapPoint(p: Vec2, step: number): Vec2 {
  return { x: snap(p.x, step), y: snap(p.y, step) };
}

export function rowDepthMm(racks: readonly RackRecord[]): number {
  return racks.reduce((m, r) => Math.max(m, r.rackType.depthMm), 0) || DEFAULT_RACK_TYPE.depthMm;
}
export function rowLengthMm(racks: readonly RackRecord[]): number {
  return racks.reduce((m, r) => Math.max(m, r.positionMm + r.rackType.widthMm), 0);
}

function boxOf(ax: number, ay: number, bx: number, by: number): Box {
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

export function rowBox(row: RowRecord, racks: readonly RackRecord[]): Box {
  const u = unit(row.direction);
  const n = normal(row.direction);
  const len = rowLengthMm(racks);
  const depth = rowDepthMm(racks);
  return boxOf(row.xMm, row.yMm, row.xMm + u.x * len + n.x * depth, row.yMm + u.y * len + n.y * depth);
}

export function rackBox(row: RowRecord, rack: RackRecord): Box {
  const u = unit(row.direction);
  const n = normal(row.direction);
  const ax = row.xMm + u.x * rack.positionMm;
  const ay = row.yMm + u.y * rack.positionMm;
  return boxOf(
    ax,
    ay,
    ax + u.x * rack.rackType.widthMm + n.x * rack.rackType.depthMm,
    ay + u.y * rack.rackType.widthMm + n.y * rack.rackType.depthMm,
  );
}

/** Unit vector out of the rack fronts (into the front aisle). */
export function facing(direction: Direction, front: Side): Vec2 {
  const n = normal(direction);
  return front === "left" ? n : { x: -n.x, y: -n.y };
}

/** Rack centre and the yaw (radians about +z-up, from +x) that its front faces. */
export function rackPlacement(row: RowRecord, rack: RackRecord): { cx: number; cy: number; facingAngle: number } {
  const b = rackBox(row, rack);
  const f = facing(row.direction, row.front);
  const portFlip = rack.portFace === "rear" ? Math.PI : 0;
  return { cx: (b.x0 + b.x1) / 2, cy: (b.y0 + b.y1) / 2, facingAngle: Math.atan2(f.y, f.x) + portFlip };
}

/** A row to lay from a drag on the floor: direction from the dominant axis, count from the length. */
export interface RowDraft {
  xMm: number;
  yMm: number;
  direction: Direction;
  count: number;
  lengthMm: number;
}

export function draftRow(start: Vec2, end: Vec2, tileMm: number, rackWidthMm = DEFAULT_RACK_TYPE.widthMm): RowDraft {
  const a = snapPoint(start, tileMm);
  const b = snapPoint(end, tileMm);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let direction: Direction;
  let len: number;
  if (Math.abs(dx) >= Math.abs(dy)) {
    direction = dx >= 0 ? 0 : 180;
    len = Math.abs(dx);
  } else {
    direction = dy >= 0 ? 90 : 270;
    len = Math.abs(dy);
  }
  const count = Math.max(1, Math.round(len / rackWidthMm));
  return { xMm: a.x, yMm: a.y, direction, count, lengthMm: count * rackWidthMm };
}

export type AisleKind = "cold" | "hot" | "mixed";

export interface Aisle {
  rowA: string;
  rowB: string;
  kind: AisleKind;
  widthMm: number;
  /** The aisle rectangle on the floor (overlap of the two rows along their axis). */
  box: Box;
  tooNarrow: boolean;
}

/** Minimum widths a planner would accept (cold aisles carry the cabling team and the lift). */
export const MIN_AISLE_MM: Record<AisleKind, number> = { cold: 1200, hot: 900, mixed: 1200 };

/**
 * Aisles between parallel neighbouring rows whose extents overlap along the row axis. Cold when both
 * fronts face the aisle, hot when both backs do, mixed otherwise. Rows further than `maxGapMm` apart,
 * or with another row between them, do not form an aisle.
 */
export function aisles(records: Records, maxGapMm = 6000): Aisle[] {
  const rows = rowsOf(records).map((row) => ({ row, box: rowBox(row, racksOf(records, row.id)) }));
  const out: Aisle[] = [];
  for (const horizontal of [true, false]) {
    const group = rows.filter(({ row }) => (row.direction % 180 === 0) === horizontal);
    // Across-axis coordinate: y for rows running along x, x for rows running along y.
    const lo = (b: Box) => (horizontal ? b.y0 : b.x0);
    const hi = (b: Box) => (horizontal ? b.y1 : b.x1);
    const alo = (b: Box) => (horizontal ? b.x0 : b.y0);
    const ahi = (b: Box) => (horizontal ? b.x1 : b.y1);
    group.sort((p, q) => lo(p.box) - lo(q.box));
    for (const a of group) {
      let best: { b: (typeof group)[number]; gap: number } | null = null;
      for (const b of group) {
        if (a === b || lo(b.box) < hi(a.box)) continue;
        const o0 = Math.max(alo(a.box), alo(b.box));
        const o1 = Math.min(ahi(a.box), ahi(b.box));
        if (o1 <= o0) continue;
        const gap = lo(b.box) - hi(a.box);
        if (gap > maxGapMm) continue;
        if (!best || gap < best.gap) best = { b, gap };
      }
      if (!best) continue;
      const b = best.b;
      const o0 = Math.max(alo(a.box), alo(b.box));
      const o1 = Math.min(ahi(a.box), ahi(b.box));
      // Does row a face +across (towards b)? Does b face -across (towards a)?
      const fa = facing(a.row.direction, a.row.front);
      const fb = facing(b.row.direction, b.row.front);
      const aTowards = (horizontal ? fa.y : fa.x) > 0;
      const bTowards = (horizontal ? fb.y : fb.x) < 0;
      const kind: AisleKind = aTowards && bTowards ? "cold" : !aTowards && !bTowards ? "hot" : "mixed";
      const box = horizontal
        ? { x0: o0, x1: o1, y0: hi(a.box), y1: lo(b.box) }
        : { y0: o0, y1: o1, x0: hi(a.box), x1: lo(b.box) };
      out.push({
        rowA: a.row.id,
        rowB: b.row.id,
        kind,
        widthMm: best.gap,
        box,
        tooNarrow: best.gap < MIN_AISLE_MM[kind],
      });
    }
  }
  return out;
}

/** Distance between the row lines of rows laid at the usual pitch: depth + aisle. */
export function aislePitchMm(depthMm: number, aisleMm: number): number {
  return depthMm + aisleMm;
}
