import { describe, expect, it } from "vitest";
import { cableEnds, toCableSet } from "./wiring";

describe("cable buffers", () => {
  it("turns route polylines into world-space segments with a cable index per segment", () => {
    const set = toCableSet(1, {
      media: ["dac", "fibre"],
      cable_ids: ["C1", "C2"],
      labels: ["H1.R01.K01.U1:p1 / H1.R01.K01.U42:e1", "x / y"],
      medium: [0, 1],
      raw_length_mm: [1000, 5000],
      offsets: [0, 2],
      points: [0, 0, 0, 0, 0, 1000, 1000, 2000, 0, 1000, 2000, 2500, 4000, 2000, 2500],
    });
    expect(Array.from(set.segStart)).toEqual([0, 1, 3]);
    expect(Array.from(set.segCable)).toEqual([0, 1, 1]);
    // (x, y, z) mm -> (x, up, y) m
    expect(Array.from(set.segments.slice(0, 6))).toEqual([0, 0, 0, 0, 1, 0]);
    expect(Array.from(set.segments.slice(6, 12))).toEqual([1, 0, 2, 1, 2.5, 2]);
    expect(cableEnds(set.buffers.labels[0]!)).toEqual({ a: "H1.R01.K01.U1:p1", b: "H1.R01.K01.U42:e1" });
  });
});
