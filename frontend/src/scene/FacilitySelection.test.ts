import { describe, expect, it } from "vitest";
import { outlineSegments } from "./FacilitySelection";

describe("the selection's outline under the facility heat map", () => {
  it("is the 12 edges of each rack's box, 1 cm larger on every side, standing on the floor", () => {
    const s = outlineSegments([{ x: 1.5, z: 1.8, sx: 0.6, sz: 1.2, h: 1.867 }]);
    expect(s.length).toBe(12 * 2 * 3);
    const points: number[][] = [];
    for (let i = 0; i < s.length; i += 3) points.push([s[i]!, s[i + 1]!, s[i + 2]!]);
    const xs = [...new Set(points.map((p) => p[0]!.toFixed(3)))].sort();
    const ys = [...new Set(points.map((p) => p[1]!.toFixed(3)))].sort();
    const zs = [...new Set(points.map((p) => p[2]!.toFixed(3)))].sort();
    // x: 1.5 -+ (0.6 + 0.02) / 2; y: 0 and 1.867 + 0.02; z: 1.8 -+ (1.2 + 0.02) / 2.
    expect(xs).toEqual(["1.190", "1.810"]);
    expect(ys).toEqual(["0.000", "1.887"]);
    expect(zs).toEqual(["1.190", "2.410"]);
    // Every edge is parallel to one axis: its two ends differ in exactly one coordinate.
    for (let e = 0; e < 12; e++) {
      const [a, b] = [points[2 * e]!, points[2 * e + 1]!];
      expect(a.filter((v, k) => Math.abs(v - b[k]!) > 1e-9)).toHaveLength(1);
    }
  });

  it("is empty with nothing selected", () => {
    expect(outlineSegments([])).toHaveLength(0);
  });
});
