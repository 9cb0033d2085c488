import { describe, expect, it } from "vitest";
import { applyDiff, emptyDiff, type RecordsDiff } from "./diff";
import {
  DEFAULT_CONTENTS,
  hallOf,
  racksOf,
  recordIndex,
  rowRacks,
  rowsOf,
  type AnyRecord,
  type RackRecord,
  type Records,
  type RowRecord,
} from "./records";
import { HALL, hallOnly } from "./testing";

const row = (n: number, name = `R${n}`): RowRecord => ({
  typeName: "row",
  id: `row:${n}`,
  hallId: HALL.id,
  name,
  xMm: 600,
  yMm: 600 + n * 3000,
  direction: 0,
  front: "left",
});
const rack = (n: number, rowN: number, positionMm: number): RackRecord => ({
  ...DEFAULT_CONTENTS,
  typeName: "rack",
  role: "compute",
  fabricSwitches: [],
  id: `rack:${n}`,
  rowId: `row:${rowN}`,
  name: `K${n}`,
  positionMm,
});

function hall(rows: number, perRow: number): Records {
  const out: Record<string, AnyRecord> = { ...hallOnly() };
  for (let r = 0; r < rows; r++) {
    out[`row:${r}`] = row(r);
    for (let k = 0; k < perRow; k++) out[`rack:${r * 100 + k}`] = rack(r * 100 + k, r, k * 600);
  }
  return out;
}

/** A small deterministic PRNG (mulberry32): the same cases on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the index must hold, computed the slow way from the records alone. */
function slow(records: Records) {
  const all = Object.values(records);
  const rows = all.filter((r): r is RowRecord => r.typeName === "row");
  const racks = all.filter((r): r is RackRecord => r.typeName === "rack");
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    hall: all.find((r) => r.typeName === "hall"),
    rows: [...rows].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }) || byId(a, b)),
    racksByRow: Object.fromEntries(
      [...new Set(racks.map((r) => r.rowId))]
        .sort()
        .map((id) => [
          id,
          racks.filter((r) => r.rowId === id).sort((a, b) => a.positionMm - b.positionMm || byId(a, b)),
        ]),
    ),
  };
}

function indexed(records: Records) {
  const ix = recordIndex(records);
  return {
    hall: ix.hall,
    rows: ix.rows,
    racksByRow: Object.fromEntries([...ix.racksByRow.keys()].sort().map((id) => [id, ix.racksByRow.get(id)])),
  };
}

describe("record index (rows and racks per row, carried through diffs)", () => {
  it("carried through 300 random diffs equals the index built from scratch each time", () => {
    const rand = prng(33);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    let records = hall(4, 6);
    recordIndex(records); // the first index is built; every later one is carried
    let next = 1000;
    for (let step = 0; step < 300; step++) {
      const d: RecordsDiff = emptyDiff();
      const racks = Object.values(records).filter((r): r is RackRecord => r.typeName === "rack");
      const rows = Object.values(records).filter((r): r is RowRecord => r.typeName === "row");
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) {
        const kind = rand();
        if (kind < 0.3 && racks.length) {
          // Move a rack along its row (ties of position included: only 8 places).
          const r = pick(racks);
          if (d.updated[r.id] || d.removed[r.id]) continue;
          d.updated[r.id] = [r, { ...r, positionMm: Math.floor(rand() * 8) * 600 }];
        } else if (kind < 0.45 && racks.length && rows.length) {
          const r = pick(racks);
          if (d.updated[r.id] || d.removed[r.id]) continue;
          d.updated[r.id] = [r, { ...r, rowId: pick(rows).id }];
        } else if (kind < 0.6 && rows.length) {
          const n = next++;
          d.added[`rack:${n}`] = rack(n, Number(pick(rows).id.slice(4)), Math.floor(rand() * 8) * 600);
        } else if (kind < 0.7 && racks.length) {
          const r = pick(racks);
          if (d.updated[r.id] || d.removed[r.id]) continue;
          d.removed[r.id] = r;
        } else if (kind < 0.8 && rows.length) {
          // Rename a row (its place in the order changes; names may collide).
          const r = pick(rows);
          if (d.updated[r.id]) continue;
          d.updated[r.id] = [r, { ...r, name: `R${Math.floor(rand() * 6)}` }];
        } else if (kind < 0.9) {
          const n = next++;
          d.added[`row:${n}`] = row(n, `R${Math.floor(rand() * 6)}`);
        } else if (rows.length > 1) {
          const r = pick(rows);
          if (d.updated[r.id]) continue;
          d.removed[r.id] = r;
        }
      }
      records = applyDiff(records, d);
      expect(indexed(records), `step ${step}`).toEqual(slow(records));
    }
  });

  it("an edit in one row keeps every other row's rack list (the same array)", () => {
    const before = hall(3, 5);
    const lists = [0, 1, 2].map((r) => rowRacks(before, `row:${r}`));
    const moved = before["rack:101"] as RackRecord;
    const after = applyDiff(before, {
      ...emptyDiff(),
      updated: { [moved.id]: [moved, { ...moved, positionMm: 9000 }] },
    });
    expect(rowRacks(after, "row:0")).toBe(lists[0]);
    expect(rowRacks(after, "row:2")).toBe(lists[2]);
    expect(rowRacks(after, "row:1")).not.toBe(lists[1]);
    expect(rowRacks(after, "row:1").map((r) => r.id)).toEqual([
      "rack:100",
      "rack:102",
      "rack:103",
      "rack:104",
      "rack:101",
    ]);
    // The rows were not touched: the same list.
    expect(recordIndex(after).rows).toBe(recordIndex(before).rows);
    // And the helpers answer from it: new arrays, the same order.
    expect(racksOf(after, "row:1")).toEqual(rowRacks(after, "row:1"));
    expect(racksOf(after, "row:1")).not.toBe(rowRacks(after, "row:1"));
    expect(rowsOf(after).map((r) => r.name)).toEqual(["R0", "R1", "R2"]);
    expect(hallOf(after)).toBe(HALL);
  });
});
