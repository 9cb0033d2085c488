/**
 * Layout commands: pure `(records, args) -> diff | error`. No React, no Three.js, no I/O.
 */
import { applyDiff, DiffBuilder, type RecordsDiff } from "../model/diff";
import { facing, normal, rowBox, rowDepthMm, snap, unit, type RowDraft } from "../model/geometry";
import { footprintsOf, freeOffset, placementProblem, type Footprint } from "../model/placement";
import {
  DEFAULT_CONTENTS,
  RackContents,
  hallOf,
  isRack,
  isRow,
  newId,
  racksOf,
  rowsOf,
  usedU,
  type Direction,
  type FabricSwitchSlot,
  type RackRecord,
  type RecordId,
  type Records,
  type RowRecord,
  type Side,
  type SwitchModel,
} from "../model/records";

export interface CommandError {
  /** Dotted path of the offending field (`serversPerLogicalRack`, `rows.0.name`, …). */
  field: string;
  /** A short sentence in the planner's words (never a field name). */
  message: string;
  /** The row or rack it is about, when it is about one: the message is shown next to it on the floor. */
  target?: RecordId;
}
export type Result = { diff: RecordsDiff } | { error: CommandError };

function ok(b: DiffBuilder): Result {
  return { diff: b.diff };
}
function fail(field: string, message: string): Result {
  return { error: { field, message } };
}

/**
 * The server's geometry rules, checked before sending: a diff that would put a rack outside the hall
 * or on another rack is refused here, with the reason next to the row (see model/placement.ts).
 */
export function checked(records: Records, r: Result): Result {
  if ("error" in r) return r;
  const changed = [...Object.keys(r.diff.added), ...Object.keys(r.diff.updated)];
  if (changed.length === 0) return r;
  const problem = placementProblem(applyDiff(records, r.diff), changed);
  return problem ? { error: { field: "placement", message: problem.message, target: problem.target } } : r;
}

/** Footprints of the rows a diff adds (with their racks), for the free-floor search. */
function addedFootprints(diff: RecordsDiff): Footprint[] {
  const added = Object.values(diff.added);
  return added.filter(isRow).map((row) => ({
    box: rowBox(
      row,
      added.filter(isRack).filter((r) => r.rowId === row.id),
    ),
    direction: row.direction,
    front: row.front,
  }));
}

/** Move every row a diff adds by (dx, dy). */
function shifted(diff: RecordsDiff, dx: number, dy: number): RecordsDiff {
  const added = Object.fromEntries(
    Object.entries(diff.added).map(([id, rec]) => [
      id,
      isRow(rec) ? { ...rec, xMm: rec.xMm + dx, yMm: rec.yMm + dy } : rec,
    ]),
  );
  return { ...diff, added };
}

/**
 * Put the rows a command adds on free floor: the nearest place (whole tiles from where the command
 * laid them) inside the hall and clear of every other row by the minimum aisle widths, or an error
 * saying there is none. The server is never asked to place rows it would refuse.
 */
export function onFreeFloor(records: Records, r: Result, what: string): Result {
  if ("error" in r) return r;
  const hall = hallOf(records);
  if (!hall) return r;
  const group = addedFootprints(r.diff);
  const d = freeOffset(group, footprintsOf(records), hall);
  if (!d)
    return {
      error: {
        field: "placement",
        message: `There is no free floor for ${what} in this hall: every place inside the walls is taken or leaves an aisle narrower than the minimum. Move or delete rows, or make the hall larger.`,
      },
    };
  return checked(records, { diff: shifted(r.diff, d.x, d.y) });
}

/** "R01", "R02", … the first free name. */
export function nextRowName(records: Records, taken: Set<string> = new Set()): string {
  const used = new Set([...rowsOf(records).map((r) => r.name), ...taken]);
  for (let i = 1; ; i++) {
    const name = `R${String(i).padStart(2, "0")}`;
    if (!used.has(name)) return name;
  }
}

/** Rack names are unique in the hall: `{row}-{index:02d}` as the API names them. */
export function rackName(rowName: string, index: number): string {
  return `${rowName}-${String(index + 1).padStart(2, "0")}`;
}

function racksFor(row: RowRecord, count: number, contents: RackContents): RackRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    ...structuredClone(contents),
    typeName: "rack" as const,
    role: "compute" as const,
    fabricSwitches: [],
    id: newId("rack"),
    rowId: row.id,
    name: rackName(row.name, i),
    positionMm: i * contents.rackType.widthMm,
  }));
}

export interface CreateRowArgs {
  hallId: RecordId;
  draft: RowDraft;
  front: Side;
  name?: string;
  contents?: RackContents;
}

export function createRow(records: Records, args: CreateRowArgs, taken?: Set<string>): Result {
  if (args.draft.count < 1) return fail("count", "a row needs at least one rack");
  if (args.draft.count > 200) return fail("count", "at most 200 racks per row");
  const row: RowRecord = {
    typeName: "row",
    id: newId("row"),
    hallId: args.hallId,
    name: args.name ?? nextRowName(records, taken),
    xMm: args.draft.xMm,
    yMm: args.draft.yMm,
    direction: args.draft.direction,
    front: args.front,
  };
  const b = new DiffBuilder(records).add(row);
  for (const rack of racksFor(row, args.draft.count, args.contents ?? DEFAULT_CONTENTS)) b.add(rack);
  return ok(b);
}

export interface FacingPairArgs {
  hallId: RecordId;
  xMm: number;
  yMm: number;
  direction: Direction;
  count: number;
  coldAisleMm?: number;
  contents?: RackContents;
}

/** Two rows whose fronts face each other across a cold aisle (by default the hall's minimum cold aisle). */
export function createFacingPair(records: Records, args: FacingPairArgs): Result {
  const contents = args.contents ?? DEFAULT_CONTENTS;
  const depth = contents.rackType.depthMm;
  const hall = hallOf(records);
  if (!hall) return fail("hallId", "no hall loaded");
  const aisle = args.coldAisleMm ?? hall.minColdAisleMm;
  if (aisle <= 0) return fail("coldAisleMm", "the aisle must be wider than 0 m");
  const n = normal(args.direction);
  const lengthMm = args.count * contents.rackType.widthMm;
  const first = createRow(records, {
    hallId: args.hallId,
    draft: { xMm: args.xMm, yMm: args.yMm, direction: args.direction, count: args.count, lengthMm },
    front: "left",
    contents,
  });
  if ("error" in first) return first;
  const taken = new Set(
    Object.values(first.diff.added)
      .filter(isRow)
      .map((r) => r.name),
  );
  const second = createRow(
    records,
    {
      hallId: args.hallId,
      draft: {
        xMm: args.xMm + n.x * (depth + aisle),
        yMm: args.yMm + n.y * (depth + aisle),
        direction: args.direction,
        count: args.count,
        lengthMm,
      },
      front: "right",
      contents,
    },
    taken,
  );
  if ("error" in second) return second;
  return { diff: { added: { ...first.diff.added, ...second.diff.added }, updated: {}, removed: {} } };
}

/**
 * Copy a row to the next aisle pitch, mirrored (its front flipped) so the new aisle is a proper hot or
 * cold aisle. It goes on the row's front side unless another row is already there. The aisle is the
 * wider of the hall's two minimums whichever side it is on: one pitch keeps the rows on a regular grid.
 */
export function duplicateRow(records: Records, args: { rowId: RecordId; aisleMm?: number }): Result {
  const row = records[args.rowId];
  if (!isRow(row)) return fail("rowId", "no such row");
  const hall = hallOf(records);
  if (!hall) return fail("hallId", "no hall loaded");
  const racks = racksOf(records, row.id);
  const depth = rowDepthMm(racks);
  const f = facing(row.direction, row.front);
  const n = normal(row.direction);
  const box = rowBox(row, racks);
  const occupied = (sign: number) =>
    rowsOf(records).some((other) => {
      if (other.id === row.id || other.direction % 180 !== row.direction % 180) return false;
      const ob = rowBox(other, racksOf(records, other.id));
      const across =
        row.direction % 180 === 0 ? (ob.y0 + ob.y1 - box.y0 - box.y1) / 2 : (ob.x0 + ob.x1 - box.x0 - box.x1) / 2;
      return (
        Math.sign(across) === Math.sign(sign * (row.direction % 180 === 0 ? n.y : n.x)) &&
        Math.abs(across) < 3 * depth + 6000
      );
    });
  // +1: along the normal; which of ±normal is the front side?
  const frontSign = f.x === n.x && f.y === n.y ? 1 : -1;
  const sign = occupied(frontSign) && !occupied(-frontSign) ? -frontSign : frontSign;
  const aisle = args.aisleMm ?? Math.max(hall.minColdAisleMm, hall.minHotAisleMm);
  const shift = sign * (depth + aisle);
  const copy: RowRecord = {
    ...row,
    id: newId("row"),
    name: nextRowName(records),
    xMm: row.xMm + n.x * shift,
    yMm: row.yMm + n.y * shift,
    front: row.front === "left" ? "right" : "left",
  };
  const b = new DiffBuilder(records).add(copy);
  // Network racks are not copied: their fabric switch names are unique in the hall.
  racks
    .filter((r) => r.role === "compute")
    .forEach((rack, i) =>
      b.add({ ...structuredClone(rack), id: newId("rack"), rowId: copy.id, name: rackName(copy.name, i) }),
    );
  return ok(b);
}

/** Remove rows (with their racks) and racks. */
export function deleteRecords(records: Records, ids: readonly RecordId[]): Result {
  const b = new DiffBuilder(records);
  for (const id of ids) {
    const rec = records[id];
    if (isRow(rec)) {
      b.remove(id);
      for (const rack of racksOf(records, id)) b.remove(rack.id);
    } else if (isRack(rec)) b.remove(id);
  }
  return ok(b);
}

/**
 * Move rows by (dx, dy) snapped to the tile, and racks along their row by whole rack widths (the
 * component of the move along the row). Racks may not overlap their neighbours.
 */
export function moveRecords(
  records: Records,
  ids: readonly RecordId[],
  dxMm: number,
  dyMm: number,
  tileMm: number,
): Result {
  const b = new DiffBuilder(records);
  const dx = snap(dxMm, tileMm);
  const dy = snap(dyMm, tileMm);
  const movedRows = new Set(ids.filter((id) => isRow(records[id])));
  for (const id of movedRows) {
    const row = records[id] as RowRecord;
    b.update({ ...row, xMm: row.xMm + dx, yMm: row.yMm + dy });
  }
  const byRow = new Map<RecordId, RackRecord[]>();
  for (const id of ids) {
    const rack = records[id];
    if (!isRack(rack) || movedRows.has(rack.rowId)) continue;
    byRow.set(rack.rowId, [...(byRow.get(rack.rowId) ?? []), rack]);
  }
  for (const [rowId, moving] of byRow) {
    const row = records[rowId];
    if (!isRow(row)) continue;
    const u = unit(row.direction);
    const along = dxMm * u.x + dyMm * u.y;
    const width = moving[0]?.rackType.widthMm ?? 600;
    const step = snap(along, width);
    if (step === 0) continue;
    const movingIds = new Set(moving.map((r) => r.id));
    const staying = racksOf(records, rowId).filter((r) => !movingIds.has(r.id));
    for (const rack of moving) {
      const pos = rack.positionMm + step;
      if (pos < 0)
        return {
          error: {
            field: "placement",
            message: `Rack ${rack.name} would leave the start of row ${row.name}.`,
            target: rack.id,
          },
        };
      const clash = staying.find(
        (s) => pos < s.positionMm + s.rackType.widthMm && s.positionMm < pos + rack.rackType.widthMm,
      );
      if (clash)
        return {
          error: {
            field: "placement",
            message: `Rack ${rack.name} would overlap rack ${clash.name}.`,
            target: rack.id,
          },
        };
      b.update({ ...rack, positionMm: pos });
    }
  }
  return checked(records, ok(b));
}

/** Rotate rows 90° counter-clockwise about their own centre (snapped to the tile). */
export function rotateRows(records: Records, ids: readonly RecordId[], tileMm: number): Result {
  const b = new DiffBuilder(records);
  for (const id of ids) {
    const row = records[id];
    if (!isRow(row)) continue;
    const racks = racksOf(records, id);
    const box = rowBox(row, racks);
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const direction = ((row.direction + 90) % 360) as Direction;
    // Rotating the origin about the centre: (x, y) -> (cx - (y - cy), cy + (x - cx)).
    const xMm = snap(cx - (row.yMm - cy), tileMm);
    const yMm = snap(cy + (row.xMm - cx), tileMm);
    b.update({ ...row, direction, xMm, yMm });
  }
  return checked(records, ok(b));
}

/** Flip which side of the selected rows is the front (racks: which face carries the ports). */
export function flipFront(records: Records, ids: readonly RecordId[]): Result {
  const b = new DiffBuilder(records);
  for (const id of ids) {
    const rec = records[id];
    if (isRow(rec)) b.update({ ...rec, front: rec.front === "left" ? "right" : "left" });
    else if (isRack(rec)) b.update({ ...rec, portFace: rec.portFace === "front" ? "rear" : "front" });
  }
  return ok(b);
}

/** The racks a property edit applies to: racks themselves, or every rack of a selected row. */
export function targetRacks(records: Records, ids: readonly RecordId[]): RackRecord[] {
  const out = new Map<RecordId, RackRecord>();
  for (const id of ids) {
    const rec = records[id];
    if (isRack(rec)) out.set(id, rec);
    else if (isRow(rec)) for (const r of racksOf(records, id)) if (r.role === "compute") out.set(r.id, r);
  }
  return [...out.values()];
}

/** Change the contents of racks (one, a row, or a selection). Validates that everything fits. */
export function updateRackContents(records: Records, ids: readonly RecordId[], patch: Partial<RackContents>): Result {
  const racks = targetRacks(records, ids);
  if (racks.length === 0) return fail("selection", "select a rack or a row first");
  const b = new DiffBuilder(records);
  for (const rack of racks) {
    if (rack.role === "network")
      return fail("selection", `${rack.name} is a network rack: it holds fabric switches, not servers`);
    const merged = { ...rack, ...structuredClone(patch) };
    const parsed = RackContents.safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(issue?.path.join(".") ?? "contents", issue?.message ?? "invalid rack contents");
    }
    if (merged.portsUsed > merged.serverModel.nicPorts)
      return fail("portsUsed", `p = ${merged.portsUsed} exceeds the server's ${merged.serverModel.nicPorts} NIC ports`);
    const need = usedU(merged);
    if (need > merged.rackType.heightU)
      return fail(
        "serversPerLogicalRack",
        `${rack.name}: ${merged.logicalRacks} x (${merged.serversPerLogicalRack} servers + ToR) needs ${need}U, the rack has ${merged.rackType.heightU}U`,
      );
    // Whatever the pattern, each ToR ends up with r x p server links (q = r p).
    const q = merged.serversPerLogicalRack * merged.portsUsed;
    if (q > merged.torModel.serverPorts)
      return fail(
        "torModel.serverPorts",
        `q = r x p = ${q} server links, the ToR has ${merged.torModel.serverPorts} server ports`,
      );
    b.update(merged);
  }
  return ok(b);
}

export function renameRow(records: Records, rowId: RecordId, name: string): Result {
  const row = records[rowId];
  if (!isRow(row)) return fail("rowId", "no such row");
  const trimmed = name.trim();
  if (!trimmed) return fail("name", "a row needs a name");
  if (rowsOf(records).some((r) => r.id !== rowId && r.name === trimmed)) return fail("name", `${trimmed} is taken`);
  return ok(new DiffBuilder(records).update({ ...row, name: trimmed }));
}

// ---------------------------------------------------------------- network racks

export type FabricRole = "spine" | "agg" | "core";
const ROLE_PREFIX: Record<FabricRole, string> = { spine: "SP", agg: "AG", core: "CO" };
const ROLE_WORDS: Record<FabricRole, string> = { spine: "spine", agg: "aggregation switch", core: "core switch" };

/**
 * Make a rack hold servers (`compute`) or fabric switches (`network`). A network rack gives up its
 * logical racks (servers and ToRs); a compute rack gives up its switches and gets the default contents.
 */
export function setRackRole(records: Records, rackId: RecordId, role: RackRecord["role"]): Result {
  const rack = records[rackId];
  if (!isRack(rack)) return fail("role", "select one rack first");
  if (rack.role === role) return ok(new DiffBuilder(records));
  const next: RackRecord =
    role === "network"
      ? { ...rack, role, logicalRacks: 0, fabricSwitches: [] }
      : {
          ...rack,
          role,
          fabricSwitches: [],
          logicalRacks: DEFAULT_CONTENTS.logicalRacks,
          serversPerLogicalRack: rack.serversPerLogicalRack || DEFAULT_CONTENTS.serversPerLogicalRack,
        };
  if (role === "compute" && usedU(next) > next.rackType.heightU)
    return fail("role", `${rack.name} is too short for the default servers; choose its contents after`);
  return ok(new DiffBuilder(records).update(next));
}

/** The lowest U where `heightU` units are free in the rack, or null when they fit nowhere. */
export function nextFreeU(rack: RackRecord, heightU: number, except?: string): number | null {
  const taken = rack.fabricSwitches.filter((f) => f.name !== except);
  for (let u = 1; u + heightU - 1 <= rack.rackType.heightU; u++)
    if (!taken.some((f) => u <= f.u + f.heightU - 1 && f.u <= u + heightU - 1)) return u;
  return null;
}

/** "SP3": the role's prefix and the first number no fabric switch in the hall uses. */
export function nextSwitchName(records: Records, role: FabricRole): string {
  const used = new Set(racksOf(records).flatMap((r) => r.fabricSwitches.map((f) => f.name)));
  for (let i = 1; ; i++) if (!used.has(`${ROLE_PREFIX[role]}${i}`)) return `${ROLE_PREFIX[role]}${i}`;
}

/** Why the switch cannot go at `u` in the rack (another switch, or the rack's end), or null. */
function slotProblem(rack: RackRecord, name: string, u: number, heightU: number): string | null {
  if (!Number.isInteger(u) || u < 1) return "The U position is a whole number from 1.";
  if (u + heightU - 1 > rack.rackType.heightU)
    return `A ${heightU}U switch at U${u} would stick out of the ${rack.rackType.heightU}U rack.`;
  const clash = rack.fabricSwitches.find((f) => f.name !== name && u <= f.u + f.heightU - 1 && f.u <= u + heightU - 1);
  return clash ? `U${u} to U${u + heightU - 1} overlaps ${clash.name} (U${clash.u}).` : null;
}

export interface AddSwitchArgs {
  role: FabricRole;
  model: SwitchModel;
  /** Lowest U; the next free U when omitted. */
  u?: number;
}

/** Put a spine, aggregation or core switch into a network rack. */
export function addFabricSwitch(records: Records, rackId: RecordId, args: AddSwitchArgs): Result {
  const rack = records[rackId];
  if (!isRack(rack)) return fail("fabricSwitches", "select one rack first");
  if (rack.role !== "network")
    return fail("fabricSwitches", `${rack.name} holds servers: set it to Network before adding switches.`);
  const heightU = args.model.heightU;
  const u = args.u ?? nextFreeU(rack, heightU);
  if (u === null)
    return fail(
      "fabricSwitches.u",
      `There is no free ${heightU}U space left in ${rack.name} for a ${ROLE_WORDS[args.role]}.`,
    );
  const name = nextSwitchName(records, args.role);
  const problem = slotProblem(rack, name, u, heightU);
  if (problem) return fail("fabricSwitches.u", problem);
  const slot: FabricSwitchSlot = { name, role: args.role, u, heightU, modelId: args.model.id };
  const fabricSwitches = [...rack.fabricSwitches, slot].sort((a, b) => a.u - b.u);
  return ok(new DiffBuilder(records).update({ ...rack, fabricSwitches }));
}

/** Move a fabric switch to another U of its rack. */
export function moveFabricSwitch(records: Records, rackId: RecordId, name: string, u: number): Result {
  const rack = records[rackId];
  if (!isRack(rack)) return fail("fabricSwitches", "select one rack first");
  const sw = rack.fabricSwitches.find((f) => f.name === name);
  if (!sw) return fail("fabricSwitches", `${rack.name} has no switch ${name}.`);
  const problem = slotProblem(rack, name, u, sw.heightU);
  if (problem) return fail(`switch.${name}`, problem);
  const fabricSwitches = rack.fabricSwitches.map((f) => (f.name === name ? { ...f, u } : f)).sort((a, b) => a.u - b.u);
  return ok(new DiffBuilder(records).update({ ...rack, fabricSwitches }));
}

export function removeFabricSwitch(records: Records, rackId: RecordId, name: string): Result {
  const rack = records[rackId];
  if (!isRack(rack)) return fail("fabricSwitches", "select one rack first");
  if (!rack.fabricSwitches.some((f) => f.name === name))
    return fail("fabricSwitches", `${rack.name} has no switch ${name}.`);
  const fabricSwitches = rack.fabricSwitches.filter((f) => f.name !== name);
  return ok(new DiffBuilder(records).update({ ...rack, fabricSwitches }));
}
