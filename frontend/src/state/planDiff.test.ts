import { describe, expect, it } from "vitest";
import { classifyCables, DIFF_COLOURS, diffBuffers, drawnCounts, rgb, STATUS_CODE } from "./planDiff";
import { toCableSet } from "./wiring";

/** A plan whose cable k is one segment from (k, 0, 0) to (k, 1000, 0) mm. */
function plan(id: number, ids: string[]) {
  return toCableSet(id, {
    media: ["dac"],
    cable_ids: ids,
    labels: ids.map((c) => `${c}-a / ${c}-b`),
    medium: ids.map(() => 0),
    raw_length_mm: ids.map(() => 1000),
    offsets: ids.map((_, k) => 2 * k),
    points: ids.flatMap((_, k) => [k * 1000, 0, 0, k * 1000, 1000, 0]),
  });
}

describe("classifying a plan's cables against an older plan", () => {
  it("kept by ID, moved by the API's pairs, added otherwise; removed when gone from both", () => {
    const d = classifyCables(["A", "B", "C", "D"], ["A", "C", "E", "F"], [["B", "E"]]);
    expect(Array.from(d.status)).toEqual([STATUS_CODE.kept, STATUS_CODE.kept, STATUS_CODE.moved, STATUS_CODE.added]);
    expect(Array.from(d.removed)).toEqual([3]); // D; B moved to E
    expect(d.counts).toEqual({ kept: 2, added: 1, moved: 1, removed: 1 });
  });

  it("an upgrade that only adds cables has nothing moved or removed", () => {
    const old = Array.from({ length: 50 }, (_, i) => `C${i}`);
    const d = classifyCables(old, [...old, "N1", "N2"], []);
    expect(d.counts).toEqual({ kept: 50, added: 2, moved: 0, removed: 0 });
  });

  it("counts always add up: new = kept + added + moved, old = kept + moved + removed (for disjoint pairs)", () => {
    for (let seed = 1; seed < 40; seed++) {
      const pick = (n: number, salt: number) =>
        Array.from({ length: n }, (_, i) => `C${(i * 7 + seed * salt) % 60}`).filter((v, i, a) => a.indexOf(v) === i);
      const oldIds = pick(30, 3);
      const newIds = pick(30, 5);
      const onlyOld = oldIds.filter((x) => !newIds.includes(x));
      const onlyNew = newIds.filter((x) => !oldIds.includes(x));
      const moved = onlyOld
        .slice(0, 3)
        .map((o, i) => [o, onlyNew[i]] as [string, string])
        .filter(([, n]) => n);
      const c = classifyCables(oldIds, newIds, moved).counts;
      expect(c.kept + c.added + c.moved).toBe(newIds.length);
      expect(c.kept + c.moved + c.removed).toBe(oldIds.length);
    }
  });
});

describe("diff colouring", () => {
  const oldSet = plan(1, ["A", "B", "D"]);
  const newSet = plan(2, ["A", "E", "F"]);
  const diff = classifyCables(["A", "B", "D"], ["A", "E", "F"], [["B", "E"]]);

  /** The colour as the Float32 buffer holds it. */
  const f32 = (hex: string) => Array.from(Float32Array.from(rgb(hex)));

  it("colours every vertex of a cable by its status, and draws the removed cables from the older plan", () => {
    const { colours, removed, removedColours } = diffBuffers({ oldSet, newSet, diff });
    const vertex = (k: number) => Array.from(colours.slice(k * 3, k * 3 + 3));
    // Cable 0 (kept): vertices 0, 1; cable 1 (moved): 2, 3; cable 2 (added): 4, 5.
    expect([vertex(0), vertex(1)]).toEqual([f32(DIFF_COLOURS.kept.colour), f32(DIFF_COLOURS.kept.colour)]);
    expect([vertex(2), vertex(3)]).toEqual([f32(DIFF_COLOURS.moved.colour), f32(DIFF_COLOURS.moved.colour)]);
    expect([vertex(4), vertex(5)]).toEqual([f32(DIFF_COLOURS.added.colour), f32(DIFF_COLOURS.added.colour)]);
    // D was old cable 2: x = 2 m.
    expect(Array.from(removed)).toEqual([2, 0, 0, 2, 0, 1]);
    expect(Array.from(removedColours.slice(0, 3))).toEqual(f32(DIFF_COLOURS.removed.colour));
  });

  it("reads the counts back from the colours drawn", () => {
    const { colours } = diffBuffers({ oldSet, newSet, diff });
    expect(drawnCounts(newSet, colours, diff.removed.length)).toEqual({ kept: 1, added: 1, moved: 1, removed: 1 });
  });

  it("uses four distinct colours", () => {
    expect(new Set(Object.values(DIFF_COLOURS).map((c) => c.colour)).size).toBe(4);
    expect(rgb("#ff8000")).toEqual([1, 128 / 255, 0]);
  });
});
