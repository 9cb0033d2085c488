import { describe, expect, it } from "vitest";
import { createFacingPair, createRow, duplicateRow } from "../commands/layout";
import { applyDiff } from "./diff";
import { draftRow, facing, rackBox, rowBox, snap, snapPoint } from "./geometry";
import { racksOf, rowsOf, type Direction, type Records } from "./records";
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

describe("facing (the one place the editor works out which way fronts face)", () => {
  it("left fronts face the left-hand normal of the direction, right fronts the other way", () => {
    const at = (d: Direction, front: "left" | "right") => {
      const f = facing(d, front);
      return [f.x + 0, f.y + 0]; // + 0: no -0
    };
    expect(([0, 90, 180, 270] as const).map((d) => at(d, "left"))).toEqual([
      [0, 1],
      [-1, 0],
      [0, -1],
      [1, 0],
    ]);
    expect(([0, 90, 180, 270] as const).map((d) => at(d, "right"))).toEqual([
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ]);
  });
});

describe("rows laid across the hall's own aisles", () => {
  it("a facing pair stands across the hall's minimum cold aisle unless asked for another width", () => {
    const wide = { ...HALL, minColdAisleMm: 1500 };
    const records: Records = { [wide.id]: wide };
    const pair = apply(
      records,
      createFacingPair(records, { hallId: wide.id, xMm: 1200, yMm: 1200, direction: 0, count: 4 }),
    );
    // 1.2 m + 1.2 m deep racks + 1.5 m aisle.
    expect(rowsOf(pair).map((r) => [r.yMm, r.front])).toEqual([
      [1200, "left"],
      [3900, "right"],
    ]);
    const asked = apply(
      records,
      createFacingPair(records, { hallId: wide.id, xMm: 1200, yMm: 1200, direction: 0, count: 4, coldAisleMm: 1800 }),
    );
    expect(rowsOf(asked).map((r) => r.yMm)).toEqual([1200, 4200]);
  });

  it("a duplicate keeps the wider of the hall's two minimums on either side", () => {
    const hall = { ...HALL, minColdAisleMm: 1000, minHotAisleMm: 1400 };
    let records: Records = { [hall.id]: hall };
    records = apply(records, createFacingPair(records, { hallId: hall.id, xMm: 0, yMm: 0, direction: 0, count: 4 }));
    const second = rowsOf(records)[1]!; // y 2.2 m, fronts facing -y: the copy goes behind it, a hot aisle
    expect(second.yMm).toBe(2200);
    const after = apply(records, duplicateRow(records, { rowId: second.id }));
    expect(rowsOf(after).map((r) => [r.name, r.yMm, r.front])).toEqual([
      ["R01", 0, "left"],
      ["R02", 2200, "right"],
      ["R03", 4800, "left"], // 2.2 + 1.2 deep + 1.4 m
    ]);
  });
});
