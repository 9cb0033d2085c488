import { describe, expect, it } from "vitest";
import { applyDiff } from "./diff";
import {
  checked,
  createRow,
  createFacingPair,
  duplicateRow,
  moveRecords,
  onFreeFloor,
  type Result,
} from "../commands/layout";
import { rowBox } from "./geometry";
import { clearOf, freeOffset, placementProblem, type Footprint } from "./placement";
import { racksOf, rowsOf, type HallRecord, type Records } from "./records";
import { HALL, hallOnly } from "./testing";

function apply(records: Records, r: Result): Records {
  if ("error" in r) throw new Error(r.error.message);
  return applyDiff(records, r.diff);
}
function row(records: Records, xMm: number, yMm: number, count = 10, front: "left" | "right" = "left"): Records {
  return apply(
    records,
    createRow(records, { hallId: HALL.id, draft: { xMm, yMm, direction: 0, count, lengthMm: count * 600 }, front }),
  );
}
const fp = (x0: number, y0: number, x1: number, y1: number, front: "left" | "right" = "left"): Footprint => ({
  box: { x0, y0, x1, y1 },
  direction: 0,
  front,
});

describe("placement rules (as the server's check_geometry)", () => {
  it("refuses racks outside the hall, naming the row and the wall", () => {
    const records = row(hallOnly(), 600, 600, 4);
    const r = rowsOf(records)[0]!;
    const moved = moveRecords(records, [r.id], -1200, 0, 600);
    expect(moved).toMatchObject({ error: { field: "placement", target: r.id } });
    expect("error" in moved && moved.error.message).toBe(
      "Row R01 would stand outside the hall: rack R01-01 would reach 0.60 m past the wall at x = 0 (the floor is 24.00 m × 18.00 m).",
    );
    // Exactly against the far wall is inside (the hall is 24 m wide: 24 - 2.4 = 21.6).
    expect(moveRecords(records, [r.id], 21600 - 600, 0, 600)).not.toHaveProperty("error");
    expect(moveRecords(records, [r.id], 21600, 0, 600)).toHaveProperty("error");
  });

  it("refuses overlapping racks of two rows; touching is fine", () => {
    let records = row(hallOnly(), 0, 0, 4);
    records = row(records, 0, 2400, 4, "right");
    const [a, b] = rowsOf(records);
    // Row B one tile up: 0..1200 and 1800..3000 do not touch; two tiles: 1200..2400 touches A's far edge.
    expect(moveRecords(records, [b!.id], 0, -1200, 600)).not.toHaveProperty("error");
    const r = moveRecords(records, [b!.id], 0, -1800, 600);
    expect("error" in r && r.error.message).toBe("Row R02 would overlap row R01 (rack R02-01 on R01-01).");
    expect(placementProblem(records, [a!.id])).toBeNull();
  });

  it("checks only what changed: a drawn row on free floor passes, on a row it does not", () => {
    const records = row(hallOnly(), 1200, 1200, 10);
    const draft = (yMm: number) =>
      checked(
        records,
        createRow(records, {
          hallId: HALL.id,
          draft: { xMm: 1800, yMm, direction: 0, count: 3, lengthMm: 1800 },
          front: "left",
        }),
      );
    expect(draft(4800)).not.toHaveProperty("error");
    expect(draft(1800)).toMatchObject({ error: { field: "placement" } });
    expect(draft(17400)).toMatchObject({ error: { field: "placement" } }); // 17.4 + 1.2 > 18 m
  });
});

describe("aisle clearance", () => {
  it("parallel rows side by side need the hall's minimum of the aisle they form", () => {
    const min = { minColdAisleMm: 1200, minHotAisleMm: 900 };
    // Lower row fronts +y, upper row fronts -y: cold, 1.2 m; in a hall asking 1.5 m, 1.2 m is too close.
    expect(clearOf(fp(0, 2400, 6000, 3600, "right"), fp(0, 0, 6000, 1200, "left"), min)).toBe(true);
    expect(clearOf(fp(0, 2300, 6000, 3500, "right"), fp(0, 0, 6000, 1200, "left"), min)).toBe(false);
    expect(
      clearOf(fp(0, 2400, 6000, 3600, "right"), fp(0, 0, 6000, 1200, "left"), { ...min, minColdAisleMm: 1500 }),
    ).toBe(false);
    // Lower row fronts -y, upper +y: backs face the aisle, hot, 0.9 m.
    expect(clearOf(fp(0, 2100, 6000, 3300, "left"), fp(0, 0, 6000, 1200, "right"), min)).toBe(true);
    expect(clearOf(fp(0, 2000, 6000, 3200, "left"), fp(0, 0, 6000, 1200, "right"), min)).toBe(false);
    // Both front +y: a front faces a back, mixed: held to the hot minimum, as the server holds it.
    expect(clearOf(fp(0, 2100, 6000, 3300), fp(0, 0, 6000, 1200), min)).toBe(true);
    expect(clearOf(fp(0, 2000, 6000, 3200), fp(0, 0, 6000, 1200), min)).toBe(false);
    // Row ends: at least a hot aisle's width apart.
    expect(clearOf(fp(6900, 0, 9000, 1200), fp(0, 0, 6000, 1200), min)).toBe(true);
    expect(clearOf(fp(6600, 0, 9000, 1200), fp(0, 0, 6000, 1200), min)).toBe(false);
  });
});

describe("free floor for P and Ctrl+D", () => {
  const hall: HallRecord = { ...HALL, widthMm: 14000, depthMm: 13000 };
  /** The demo hall: four rows of 13 racks at x 2 m, y 2.0 / 4.4 / 6.8 / 9.2 m (7.8 m x 1.2 m each). */
  function demo(): Records {
    let records: Records = { [hall.id]: hall };
    for (const [i, y] of [2000, 4400, 6800, 9200].entries())
      records = row(records, 2000, y, 13, i % 2 ? "right" : "left");
    return records;
  }

  it("nearest offset on the tile grid, or null when nothing fits", () => {
    const existing = [fp(0, 0, 6000, 1200)];
    const h = { widthMm: 12000, depthMm: 6000, tileMm: 600, minColdAisleMm: 1200, minHotAisleMm: 900 };
    expect(freeOffset([fp(0, 0, 6000, 1200)], existing, h)).toEqual({ x: 0, y: 2400 });
    // Too shallow for a second row beside it (2.4 m offset + 1.2 m > 3 m): past its end, 0.9 m clear, on a tile.
    expect(freeOffset([fp(0, 0, 6000, 1200)], existing, { ...h, widthMm: 13200, depthMm: 3000 })).toEqual({
      x: 7200,
      y: 0,
    });
    expect(freeOffset([fp(0, 0, 6000, 1200)], existing, { ...h, widthMm: 6000, depthMm: 3000 })).toBeNull();
  });

  it("P in the demo hall: the free strips are too narrow for a pair with its aisles, and it says so", () => {
    const records = demo();
    const natural = createFacingPair(records, { hallId: hall.id, xMm: 1200, yMm: 12600, direction: 0, count: 10 });
    expect(checked(records, natural)).toHaveProperty("error"); // below R04 is off the floor
    const r = onFreeFloor(records, natural, "a facing pair of 10 racks");
    expect("error" in r && r.error.message).toContain("There is no free floor for a facing pair of 10 racks");
  });

  it("P lays the pair on the nearest free floor, inside the hall and clear of every row", () => {
    // A 24 m x 8 m hall with a pair at x 0..6 m: below it is off the floor; the free floor is to the right.
    const wide: HallRecord = { ...HALL, widthMm: 24000, depthMm: 8000 };
    let records: Records = { [wide.id]: wide };
    records = apply(
      records,
      createFacingPair(records, { hallId: wide.id, xMm: 1200, yMm: 1200, direction: 0, count: 10 }),
    );
    const natural = createFacingPair(records, { hallId: wide.id, xMm: 1200, yMm: 6000, direction: 0, count: 10 });
    const after = apply(records, onFreeFloor(records, natural, "a facing pair of 10 racks"));
    const added = rowsOf(after).filter((x) => !records[x.id]);
    expect(added).toHaveLength(2);
    // Nearest: the pair's box is 6 m x 3.6 m; 0.9 m past the first pair's end (x 7.2) is 8.1 m, snapped up to
    // 8.4 m; y as low as the floor allows (8 - 3.6 = 4.4 -> 4.2 m on the tile grid).
    expect(added.map((a) => [a.xMm, a.yMm])).toEqual([
      [8400, 4200],
      [8400, 4200 + 1200 + 1200],
    ]);
    for (const a of added) {
      const b = rowBox(a, racksOf(after, a.id));
      expect(b.x1).toBeLessThanOrEqual(wide.widthMm);
      expect(b.y1).toBeLessThanOrEqual(wide.depthMm);
    }
    expect(
      placementProblem(
        after,
        added.map((a) => a.id),
      ),
    ).toBeNull();
  });

  it("says so when there is no free floor", () => {
    const tiny: HallRecord = { ...HALL, widthMm: 5400, depthMm: 4000 };
    const records: Records = { [tiny.id]: tiny };
    const r = onFreeFloor(
      records,
      createFacingPair(records, { hallId: tiny.id, xMm: 0, yMm: 0, direction: 0, count: 10 }),
      "a facing pair of 10 racks",
    );
    expect(r).toMatchObject({ error: { field: "placement" } });
    expect("error" in r && r.error.message).toContain("There is no free floor for a facing pair of 10 racks");
  });

  it("Ctrl+D keeps the next aisle pitch when it is free, and moves to free floor when not", () => {
    let records: Records = { [HALL.id]: HALL };
    records = row(records, 1200, 1200, 10, "left");
    const src = rowsOf(records)[0]!;
    // Front side (+y) is free: copy at y = 1.2 + 1.2 + 1.2 = 3.6 m, mirrored.
    const first = apply(records, onFreeFloor(records, duplicateRow(records, { rowId: src.id }), "a copy"));
    const copy = rowsOf(first).find((x) => x.id !== src.id)!;
    expect(copy).toMatchObject({ xMm: 1200, yMm: 3600, front: "right" });
    // In a hall only 4.2 m deep the next pitch (3.6..4.8) is off the floor, and the back (-1.2) too: it moves along x.
    const shallow: Records = { ...records, [HALL.id]: { ...HALL, depthMm: 4200 } };
    const second = apply(shallow, onFreeFloor(shallow, duplicateRow(shallow, { rowId: src.id }), "a copy"));
    const moved = rowsOf(second).find((x) => x.id !== src.id)!;
    expect(placementProblem(second, [moved.id])).toBeNull();
    const b = rowBox(moved, racksOf(second, moved.id));
    expect(b.y1).toBeLessThanOrEqual(4200);
  });
});
