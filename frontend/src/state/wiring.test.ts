import { describe, expect, it } from "vitest";
import { useSession } from "./session";
import { cableBox, cableEnds, focusCable, toCableSet, useWiring } from "./wiring";

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

describe("cable focus", () => {
  const set = toCableSet(1, {
    media: ["dac"],
    cable_ids: ["C1", "C2"],
    labels: ["a / b", "c / d"],
    medium: [0, 0],
    raw_length_mm: [5000, 0],
    offsets: [0, 3],
    // C1: (1000, 2000) -> (1000, 2000, up 500) -> (4000, 2500); C2: one point, no segment
    points: [1000, 2000, 0, 1000, 2000, 500, 4000, 2500, 500, 7000, 7000, 0],
  });

  it("boxes a cable's route on the floor (mm), with a margin", () => {
    expect(cableBox(set, 0)).toEqual({ x0: 1000, y0: 2000, x1: 4000, y1: 2500 });
    expect(cableBox(set, 0, 1500)).toEqual({ x0: -500, y0: 500, x1: 5500, y1: 4000 });
    expect(cableBox(set, 1)).toBeNull();
  });

  it("highlights the cable and asks the camera to frame it 1.5 m wider", () => {
    const before = useSession.getState().frameRequest;
    focusCable(set, 0);
    expect(useWiring.getState().focus).toBe(0);
    expect(useSession.getState().frameTarget).toEqual({ x0: -500, y0: 500, x1: 5500, y1: 4000 });
    expect(useSession.getState().frameRequest).toBe(before + 1);
    focusCable(set, 1);
    expect(useWiring.getState().focus).toBe(0);
    expect(useSession.getState().frameRequest).toBe(before + 1);
  });
});
