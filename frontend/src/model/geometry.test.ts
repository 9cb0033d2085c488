import { describe, expect, it } from "vitest";
import { createFacingPair, createRow, duplicateRow } from "../commands/layout";
import { applyDiff } from "./diff";
import { aisles, draftRow, rackBox, rowBox, snap, snapPoint } from "./geometry";
import { isRow, racksOf, rowsOf, type Records } from "./records";
import { HALL, hallOnly } from "./testing";

function apply(records: Records, r: ReturnType<typeof createRow>): Records {
  if ("error" in r) throw new Error(r.error.message);
  return applyDiff(records, r.diff);
}

describe("snapping", () => {
  it("snaps to the nearest tile", () => {
    expect(snap(890, 600)).toBe(600);
    expect(snap(910, 600)).toBe(1200);
    expect(snap(-290, 600)).toBe(-0);
    expect(snapPoint({ x: 1234, y: 2999 }, 600)).toEqual({ x: 1200, y: 3000 });
  });

  it("drafts a row from a drag: direction from the dominant axis, count from the length", () => {
    expect(draftRow({ x: 610, y: 1190 }, { x: 6620, y: 1500 }, 600)).toEqual({
      xMm: 600,
      yMm: 1200,
      direction: 0,
      count: 10,
      lengthMm: 6000,
    });
    const up = draftRow({ x: 3000, y: 9000 }, { x: 3100, y: 6000 }, 600);
    expect(up.direction).toBe(270);
    expect(up.count).toBe(5);
    // A click without a drag still makes one rack.
    expect(draftRow({ x: 0, y: 0 }, { x: 10, y: 10 }, 600).count).toBe(1);
  });
});

describe("footprints", () => {
  it("racks extend to the left-hand normal of the row direction", () => {
    const records = apply(
      hallOnly(),
      createRow(hallOnly(), {
        hallId: HALL.id,
        draft: { xMm: 1200, yMm: 600, direction: 0, count: 4, lengthMm: 2400 },
        front: "left",
      }),
    );
    const row = rowsOf(records)[0]!;
    expect(rowBox(row, racksOf(records, row.id))).toEqual({ x0: 1200, y0: 600, x1: 3600, y1: 1800 });
    expect(rackBox(row, racksOf(records, row.id)[1]!)).toEqual({ x0: 1800, y0: 600, x1: 2400, y1: 1800 });
    const west = { ...row, direction: 180 as const };
    expect(rowBox(west, racksOf(records, row.id))).toEqual({ x0: -1200, y0: -600, x1: 1200, y1: 600 });
  });
});

describe("aisle classification", () => {
  it("a facing pair makes a cold aisle of the requested width", () => {
    const records = apply(
      hallOnly(),
      createFacingPair(hallOnly(), {
        hallId: HALL.id,
        xMm: 1200,
        yMm: 1200,
        direction: 0,
        count: 10,
        coldAisleMm: 1800,
      }),
    );
    const found = aisles(records);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: "cold", widthMm: 1800, tooNarrow: false });
    expect(found[0]!.box).toEqual({ x0: 1200, x1: 7200, y0: 2400, y1: 4200 });
  });

  it("back-to-back rows make a hot aisle; a narrow cold aisle is flagged", () => {
    let records = apply(
      hallOnly(),
      createFacingPair(hallOnly(), { hallId: HALL.id, xMm: 0, yMm: 0, direction: 0, count: 6, coldAisleMm: 900 }),
    );
    expect(aisles(records)[0]).toMatchObject({ kind: "cold", widthMm: 900, tooNarrow: true });
    const second = rowsOf(records)[1]!;
    records = apply(records, duplicateRow(records, { rowId: second.id }));
    const found = aisles(records).sort((a, b) => a.box.y0 - b.box.y0);
    expect(found.map((a) => a.kind)).toEqual(["cold", "hot"]);
    expect(found[1]!.widthMm).toBe(1200);
  });

  it("rows fronts facing the same way make a mixed aisle; vertical rows are classified along x", () => {
    let records = hallOnly();
    records = apply(
      records,
      createRow(records, {
        hallId: HALL.id,
        draft: { xMm: 0, yMm: 0, direction: 90, count: 5, lengthMm: 3000 },
        front: "left",
      }),
    );
    records = apply(
      records,
      createRow(records, {
        hallId: HALL.id,
        draft: { xMm: -2400, yMm: 0, direction: 90, count: 5, lengthMm: 3000 },
        front: "left",
      }),
    );
    // direction 90: racks extend to -x; the left front faces -x.
    const found = aisles(records);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: "mixed", widthMm: 1200 });
  });

  it("rows that do not overlap along their axis have no aisle", () => {
    let records = hallOnly();
    records = apply(
      records,
      createRow(records, {
        hallId: HALL.id,
        draft: { xMm: 0, yMm: 0, direction: 0, count: 2, lengthMm: 1200 },
        front: "left",
      }),
    );
    records = apply(
      records,
      createRow(records, {
        hallId: HALL.id,
        draft: { xMm: 6000, yMm: 3000, direction: 0, count: 2, lengthMm: 1200 },
        front: "right",
      }),
    );
    expect(aisles(records)).toEqual([]);
    expect(Object.values(records).filter(isRow)).toHaveLength(2);
  });
});
