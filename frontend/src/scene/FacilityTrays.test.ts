import { describe, expect, it } from "vitest";
import { trayTransform } from "./FacilityTrays";

describe("a tray segment's box", () => {
  it("runs along x from start to end, 0.3 m wide, its top at the cables' height (mm -> world metres)", () => {
    // T1-2 of the e2e hall: (1.8, 2.4, 2.167) m to (2.4, 2.4, 2.167) m.
    const b = trayTransform({ start: [1800, 2400, 2167], end: [2400, 2400, 2167] });
    expect(b.position[0]).toBeCloseTo(2.1, 12);
    expect(b.position[1]).toBeCloseTo(2.142, 12);
    expect(b.position[2]).toBeCloseTo(2.4, 12);
    expect(b.scale[0]).toBeCloseTo(0.6, 12);
    expect(b.scale.slice(1)).toEqual([0.05, 0.3]);
  });

  it("runs along world z for a segment across the rows (hall y), whichever end comes first", () => {
    const b = trayTransform({ start: [1500, 3600, 2167], end: [1500, 3000, 2167] });
    expect(b.position[0]).toBeCloseTo(1.5, 12);
    expect(b.position[2]).toBeCloseTo(3.3, 12);
    expect(b.scale[0]).toBe(0.3);
    expect(b.scale[2]).toBeCloseTo(0.6, 12);
  });

  it("lies under the floor for an under-floor run (z below 0)", () => {
    const b = trayTransform({ start: [0, 0, -300], end: [600, 0, -300] });
    expect(b.position[1]).toBeCloseTo(-0.325, 12);
  });
});
