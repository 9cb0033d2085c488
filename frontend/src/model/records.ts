/**
 * The editor's records: zod-validated plain data with prefixed ids (`hall:…`, `row:…`, `rack:…`).
 *
 * Lengths are integer millimetres, U counts whole rack units (1U = 44.45 mm). Coordinates follow the
 * backend's domain (`loopline/domain/layout.py`): x along the hall's width, y along its depth. A row
 * starts at (xMm, yMm) and runs along `direction` (0/90/180/270° from +x, counter-clockwise); its racks
 * extend `depthMm` to the left-hand normal. `front: "left"` means the rack fronts face the far side
 * (origin + depth along the normal), `"right"` the origin line.
 *
 * Server versions (ETags) are not part of a record: sync keeps them, so undo never rewinds a version.
 */
import { z } from "zod";

export const U_MM = 44.45;

export const Direction = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
export type Direction = z.infer<typeof Direction>;
export const Side = z.enum(["left", "right"]);
export type Side = z.infer<typeof Side>;
export const TorPosition = z.enum(["top", "middle", "bottom"]);
export type TorPosition = z.infer<typeof TorPosition>;
export const Face = z.enum(["front", "rear"]);
export type Face = z.infer<typeof Face>;

const mm = z.number().int();
const positiveMm = z.number().int().positive();

/** Catalog entries carry the server's catalog `id` once known (the API refers to models by id). */
export const RackType = z.object({
  id: z.number().int().optional(),
  name: z.string().min(1),
  widthMm: positiveMm,
  depthMm: positiveMm,
  heightU: z.number().int().min(1).max(60),
});
export type RackType = z.infer<typeof RackType>;

export const ServerModel = z.object({
  id: z.number().int().optional(),
  name: z.string().min(1),
  nicPorts: z.number().int().min(1).max(16),
  portGbps: z.number().positive(),
  heightU: z.number().int().min(1).max(8),
});
export type ServerModel = z.infer<typeof ServerModel>;

export const SwitchModel = z.object({
  id: z.number().int().optional(),
  name: z.string().min(1),
  serverPorts: z.number().int().min(1).max(512),
  serverPortGbps: z.number().positive(),
  uplinkPorts: z.number().int().min(0).max(128),
  uplinkGbps: z.number().positive(),
  heightU: z.number().int().min(1).max(8),
});
export type SwitchModel = z.infer<typeof SwitchModel>;

/** What a property panel edits: the contents of one physical rack. */
export const RackContents = z.object({
  rackType: RackType,
  /** `b`: logical racks per physical rack. */
  logicalRacks: z.number().int().min(0).max(16),
  /** `r`: servers per logical rack. */
  serversPerLogicalRack: z.number().int().min(0).max(96),
  serverModel: ServerModel,
  /** `p`: cabled NIC ports per server (<= serverModel.nicPorts). */
  portsUsed: z.number().int().min(1).max(16),
  torModel: SwitchModel,
  torPosition: TorPosition,
  portFace: Face,
});
export type RackContents = z.infer<typeof RackContents>;

export const HallRecord = z.object({
  typeName: z.literal("hall"),
  id: z.string().startsWith("hall:"),
  name: z.string().min(1),
  widthMm: positiveMm,
  depthMm: positiveMm,
  tileMm: positiveMm,
  /** The hall's own narrowest cold and hot aisles (`min_cold_aisle_m`, `min_hot_aisle_m`): rows the editor lays keep them. */
  minColdAisleMm: z.number().int().min(0),
  minHotAisleMm: z.number().int().min(0),
});
export type HallRecord = z.infer<typeof HallRecord>;

export const RowRecord = z.object({
  typeName: z.literal("row"),
  id: z.string().startsWith("row:"),
  hallId: z.string().startsWith("hall:"),
  name: z.string().min(1),
  xMm: mm,
  yMm: mm,
  direction: Direction,
  front: Side,
});
export type RowRecord = z.infer<typeof RowRecord>;

export const FabricSwitchSlot = z.object({
  name: z.string(),
  role: z.string(),
  u: z.number().int().min(1),
  heightU: z.number().int().min(1),
  modelId: z.number().int().optional(),
  /** The network the switch belongs to (a GPU hall's compute or front-end fabric); left out: compute. */
  network: z.enum(["compute", "front_end"]).optional(),
});
export type FabricSwitchSlot = z.infer<typeof FabricSwitchSlot>;

export const RackRecord = RackContents.extend({
  typeName: z.literal("rack"),
  /** `network` racks hold fabric switches (spines, aggs) instead of logical racks. */
  role: z.enum(["compute", "network"]),
  fabricSwitches: z.array(FabricSwitchSlot),
  id: z.string().startsWith("rack:"),
  rowId: z.string().startsWith("row:"),
  name: z.string().min(1),
  /** Offset of the rack's start edge along its row, from the row origin. */
  positionMm: z.number().int().min(0),
});
export type RackRecord = z.infer<typeof RackRecord>;

export const AnyRecord = z.discriminatedUnion("typeName", [HallRecord, RowRecord, RackRecord]);
export type AnyRecord = z.infer<typeof AnyRecord>;
export type RecordId = string;
export type Records = Readonly<Record<RecordId, AnyRecord>>;

export const DEFAULT_RACK_TYPE: RackType = { name: "42U 600x1200", widthMm: 600, depthMm: 1200, heightU: 42 };
export const DEFAULT_SERVER: ServerModel = { name: "2x25G server", nicPorts: 2, portGbps: 25, heightU: 1 };
export const DEFAULT_TOR: SwitchModel = {
  name: "48x25G+8x100G ToR",
  serverPorts: 48,
  serverPortGbps: 25,
  uplinkPorts: 8,
  uplinkGbps: 100,
  heightU: 1,
};
export const DEFAULT_CONTENTS: RackContents = {
  rackType: DEFAULT_RACK_TYPE,
  logicalRacks: 2,
  serversPerLogicalRack: 15,
  serverModel: DEFAULT_SERVER,
  portsUsed: 2,
  torModel: DEFAULT_TOR,
  torPosition: "top",
  portFace: "front",
};

let counter = 0;
/** A fresh id with the record type's prefix; random enough for one editing session and the server. */
export function newId(prefix: "hall" | "row" | "rack"): RecordId {
  counter += 1;
  const rand = Math.random().toString(36).slice(2, 10);
  return `${prefix}:${rand}${counter.toString(36)}`;
}

export function isRow(r: AnyRecord | undefined): r is RowRecord {
  return r?.typeName === "row";
}
export function isRack(r: AnyRecord | undefined): r is RackRecord {
  return r?.typeName === "rack";
}
export function isHall(r: AnyRecord | undefined): r is HallRecord {
  return r?.typeName === "hall";
}

/**
 * The hall, the rows and each row's racks of one records object, in display order. Records objects are
 * immutable, so it is kept per object (a WeakMap); `applyDiff` derives the next one from the diff
 * (only the rows and racks it touches), so an edit in a 10,000-rack hall does not walk the hall, and
 * a row's rack list is the same array while none of its racks changes (memo key for its box).
 */
export interface RecordIndex {
  readonly hall: HallRecord | undefined;
  /** By name (numeric-aware), then id. */
  readonly rows: readonly RowRecord[];
  /** Each row's racks by position along the row, then id (keyed by the racks' rowId). */
  readonly racksByRow: ReadonlyMap<RecordId, readonly RackRecord[]>;
}

const byName = (a: RowRecord, b: RowRecord) =>
  a.name.localeCompare(b.name, undefined, { numeric: true }) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byPosition = (a: RackRecord, b: RackRecord) =>
  a.positionMm - b.positionMm || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const indexes = new WeakMap<Records, RecordIndex>();

function buildIndex(records: Records): RecordIndex {
  let hall: HallRecord | undefined;
  const rows: RowRecord[] = [];
  const racksByRow = new Map<RecordId, RackRecord[]>();
  for (const r of Object.values(records)) {
    if (isRack(r)) {
      const list = racksByRow.get(r.rowId);
      if (list) list.push(r);
      else racksByRow.set(r.rowId, [r]);
    } else if (isRow(r)) rows.push(r);
    else if (isHall(r)) hall ??= r;
  }
  for (const list of racksByRow.values()) list.sort(byPosition);
  return { hall, rows: rows.sort(byName), racksByRow };
}

export function recordIndex(records: Records): RecordIndex {
  let index = indexes.get(records);
  if (!index) {
    index = buildIndex(records);
    indexes.set(records, index);
  }
  return index;
}

/**
 * `next`'s index from `prev`'s when `next` is `prev` with `changed` records added, updated or removed
 * (their ids, each with its records before and after): only the rows touched and the lists of the
 * rows whose racks changed are rebuilt. Without an index of `prev` there is nothing to carry.
 */
export function carryIndex(prev: Records, next: Records, changed: readonly RecordId[]): void {
  const from = indexes.get(prev);
  if (!from || indexes.has(next)) return;
  const ids = new Set(changed);
  let hallTouched = false;
  let rowsTouched = false;
  const rowsOfRacks = new Set<RecordId>();
  for (const id of ids) {
    for (const r of [prev[id], next[id]]) {
      if (isHall(r)) hallTouched = true;
      else if (isRow(r)) rowsTouched = true;
      else if (isRack(r)) rowsOfRacks.add(r.rowId);
    }
  }
  if (hallTouched) {
    indexes.set(next, buildIndex(next));
    return;
  }
  let rows = from.rows;
  if (rowsTouched) {
    const kept = from.rows.filter((r) => !ids.has(r.id));
    for (const id of ids) {
      const r = next[id];
      if (isRow(r)) kept.push(r);
    }
    rows = kept.sort(byName);
  }
  let racksByRow = from.racksByRow;
  if (rowsOfRacks.size) {
    const map = new Map(from.racksByRow);
    for (const rowId of rowsOfRacks) {
      const list = (from.racksByRow.get(rowId) ?? []).filter((r) => !ids.has(r.id));
      for (const id of ids) {
        const r = next[id];
        if (isRack(r) && r.rowId === rowId) list.push(r);
      }
      if (list.length) map.set(rowId, list.sort(byPosition));
      else map.delete(rowId);
    }
    racksByRow = map;
  }
  indexes.set(next, { hall: from.hall, rows, racksByRow });
}

/** The rows by name (a new array). */
export function rowsOf(records: Records): RowRecord[] {
  return [...recordIndex(records).rows];
}
/** A row's racks (or every rack) by position along the row (a new array). */
export function racksOf(records: Records, rowId?: RecordId): RackRecord[] {
  const index = recordIndex(records);
  if (rowId !== undefined) return [...(index.racksByRow.get(rowId) ?? [])];
  return [...index.racksByRow.values()].flat().sort(byPosition);
}
/** A row's racks by position: the index's own array, the same while the row's racks do not change. */
export function rowRacks(records: Records, rowId: RecordId): readonly RackRecord[] {
  return recordIndex(records).racksByRow.get(rowId) ?? NO_RACKS;
}
const NO_RACKS: readonly RackRecord[] = Object.freeze([]);
export function hallOf(records: Records): HallRecord | undefined {
  return recordIndex(records).hall;
}

/** Rack units a rack's contents need: b x (r servers + 1 ToR). */
export function usedU(c: RackContents): number {
  return c.logicalRacks * (c.serversPerLogicalRack * c.serverModel.heightU + c.torModel.heightU);
}
