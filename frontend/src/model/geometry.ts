/**
 * Pure floor geometry (mm) the editor needs to draw and lay rows: footprints, which way fronts face,
 * snapping, drafting a row from a drag. Mirrors `loopline/domain/layout.py` so what is drawn is where
 * the server stores it. Judging the layout (aisles, their kinds and minimums, warnings) is the server's:
 * the editor reads it from the validation report (`sync/validation.ts`).
 */
import { DEFAULT_RACK_TYPE, type Direction, type RackRecord, type RowRecord, type Side } from "./records";

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

/** Distance between the row lines of rows laid at the usual pitch: depth + aisle. */
export function aislePitchMm(depthMm: number, aisleMm: number): number {
  return depthMm + aisleMm;
}
