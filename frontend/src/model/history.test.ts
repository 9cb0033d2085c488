import { describe, expect, it } from "vitest";
import { createRow } from "../commands/layout";
import { applyDiff, diffRecords, reverseDiff, squashDiffs } from "./diff";
import { EditorStore, type ChangeSource } from "./history";
import { isRow, racksOf, type RowRecord } from "./records";
import { HALL, hallOnly } from "./testing";

function addRow(store: EditorStore, count = 3) {
  const r = createRow(store.records, {
    hallId: HALL.id,
    draft: { xMm: 0, yMm: 0, direction: 0, count, lengthMm: count * 600 },
    front: "left",
  });
  if ("error" in r) throw new Error(r.error.message);
  store.mark();
  store.commit(r.diff);
  return Object.values(r.diff.added).find(isRow)!;
}

describe("diffs", () => {
  it("reverse undoes apply", () => {
    const before = hallOnly();
    const r = createRow(before, {
      hallId: HALL.id,
      draft: { xMm: 0, yMm: 0, direction: 0, count: 2, lengthMm: 1200 },
      front: "left",
    });
    if ("error" in r) throw new Error();
    const after = applyDiff(before, r.diff);
    expect(Object.keys(after)).toHaveLength(4);
    expect(applyDiff(after, reverseDiff(r.diff))).toEqual(before);
    expect(diffRecords(before, after).added).toEqual(r.diff.added);
  });

  it("squashes add+update into add and add+remove into nothing", () => {
    const row: RowRecord = {
      typeName: "row",
      id: "row:a",
      hallId: HALL.id,
      name: "R01",
      xMm: 0,
      yMm: 0,
      direction: 0,
      front: "left",
    };
    const moved = { ...row, xMm: 600 };
    const s = squashDiffs(
      { added: { [row.id]: row }, updated: {}, removed: {} },
      { added: {}, updated: { [row.id]: [row, moved] }, removed: {} },
    );
    expect(s.added[row.id]).toEqual(moved);
    const gone = squashDiffs(s, { added: {}, updated: {}, removed: { [row.id]: moved } });
    expect(gone).toEqual({ added: {}, updated: {}, removed: {} });
  });
});

describe("history", () => {
  it("gives back each step's selection: undo the one before it, redo the one after", () => {
    const store = new EditorStore(hallOnly());
    const row = addRow(store);
    const moved = { ...row, xMm: 600 };
    // Step 1: move the selected row (selection stays [row]); step 2: a gesture of two diffs, the
    // first with the row selected, the second leaving nothing selected (a delete).
    store.mark();
    store.commit(
      { added: {}, updated: { [row.id]: [row, moved] }, removed: {} },
      { before: [row.id], after: [row.id] },
    );
    store.mark();
    store.commit(
      { added: {}, updated: { [row.id]: [moved, { ...moved, yMm: 600 }] }, removed: {} },
      { before: [row.id], after: ["x"] },
    );
    store.commit({ added: {}, updated: {}, removed: {} }, { before: ["x"], after: [] });
    store.commit(
      {
        added: {},
        updated: {
          [row.id]: [
            { ...moved, yMm: 600 },
            { ...moved, yMm: 1200 },
          ],
        },
        removed: {},
      },
      { before: ["x"], after: [] },
    );

    store.undo();
    expect(store.restoredSelection).toEqual([row.id]);
    expect((store.records[row.id] as RowRecord).yMm).toBe(0);
    store.redo();
    expect(store.restoredSelection).toEqual([]);
    store.undo();
    store.undo();
    expect(store.restoredSelection).toEqual([row.id]);
    expect((store.records[row.id] as RowRecord).xMm).toBe(0);
    store.undo();
    // The row's creation (addRow) recorded no selection.
    expect(store.restoredSelection).toBeNull();
  });

  it("undoes and redoes whole commands", () => {
    const store = new EditorStore(hallOnly());
    const row = addRow(store);
    expect(racksOf(store.records, row.id)).toHaveLength(3);
    store.mark();
    store.commit({ added: {}, updated: { [row.id]: [row, { ...row, xMm: 1200 }] }, removed: {} });
    expect((store.records[row.id] as RowRecord).xMm).toBe(1200);

    store.undo();
    expect((store.records[row.id] as RowRecord).xMm).toBe(0);
    store.undo();
    expect(store.records[row.id]).toBeUndefined();
    expect(store.canUndo).toBe(false);
    expect(store.undo()).toBeNull();

    store.redo();
    expect(racksOf(store.records, row.id)).toHaveLength(3);
    expect((store.records[row.id] as RowRecord).xMm).toBe(0);
    store.redo();
    expect((store.records[row.id] as RowRecord).xMm).toBe(1200);
    expect(store.canRedo).toBe(false);
  });

  it("a new edit clears the redo stack", () => {
    const store = new EditorStore(hallOnly());
    addRow(store);
    store.undo();
    expect(store.canRedo).toBe(true);
    addRow(store);
    expect(store.canRedo).toBe(false);
  });

  it("bailToMark reverts a gesture with nothing to redo", () => {
    const store = new EditorStore(hallOnly());
    const row = addRow(store);
    const mark = store.mark("drag");
    let cur = row;
    for (const x of [600, 1200, 1800]) {
      const next = { ...cur, xMm: x };
      store.commit({ added: {}, updated: { [row.id]: [cur, next] }, removed: {} });
      cur = next;
    }
    store.bailToMark(mark);
    expect((store.records[row.id] as RowRecord).xMm).toBe(0);
    expect(store.canRedo).toBe(false);
    // The row itself is still one undo away.
    store.undo();
    expect(store.records[row.id]).toBeUndefined();
  });

  it("server changes never enter the undo stack, and listeners see the source", () => {
    const store = new EditorStore(hallOnly());
    const sources: ChangeSource[] = [];
    store.subscribe((_d, s) => sources.push(s));
    const row = addRow(store);
    store.applyRemote({ added: {}, updated: { [row.id]: [row, { ...row, name: "Remote" }] }, removed: {} });
    store.undo();
    expect(store.records[row.id]).toBeUndefined();
    expect(store.canUndo).toBe(false);
    expect(sources).toEqual(["user", "remote", "undo"]);
  });
});
