import { describe, expect, it } from "vitest";
import { cdfCurve, decodeFloat64, overlaySorted, pageCount } from "./flows";

describe("the exact completion-time CDF", () => {
  it("reads the API's little-endian float64s", () => {
    const buf = new ArrayBuffer(24);
    const view = new DataView(buf);
    [0.001, 0.0025, 7].forEach((v, i) => view.setFloat64(i * 8, v, true));
    expect(Array.from(decodeFloat64(buf))).toEqual([0.001, 0.0025, 7]);
  });

  it("steps by one flow over every flow of the run, so unfinished flows keep it below 1", () => {
    // 3 finished of 4: ranks 1/4, 2/4, 3/4
    const c = cdfCurve({ values: new Float64Array([0.001, 0.002, 0.004]), total: 4 });
    expect(c.x).toEqual([1, 2, 4]);
    expect(c.y).toEqual([0.25, 0.5, 0.75]);
    expect(cdfCurve({ values: new Float64Array([0.5]), total: 1 }).y).toEqual([1]);
  });

  it("overlays curves on the union of their x, each holding its last value", () => {
    const a = { x: [1, 3], y: [0.5, 1] };
    const b = { x: [2, 3, 5], y: [0.2, 0.6, 0.9] };
    expect(overlaySorted([a, b])).toEqual([
      [1, 2, 3, 5],
      [0.5, 0.5, 1, 1],
      [0, 0.2, 0.6, 0.9],
    ]);
    // equal values within one curve (ties) take the last rank at that x
    expect(overlaySorted([{ x: [1, 1, 2], y: [0.25, 0.5, 1] }])).toEqual([
      [1, 2],
      [0.5, 1],
    ]);
  });

  it("overlaying one curve of 100,000 flows gives it back point for point", () => {
    const values = Float64Array.from({ length: 100_000 }, (_, i) => (i + 1) / 1e5);
    const c = cdfCurve({ values, total: 100_000 });
    const [x, y] = overlaySorted([c]);
    expect(x.length).toBe(100_000);
    expect(y?.[99_999]).toBe(1);
    expect(x[49_999]).toBeCloseTo(500, 9);
  });

  it("counts pages", () => {
    expect([pageCount(0, 50), pageCount(50, 50), pageCount(51, 50), pageCount(100_000, 100)]).toEqual([1, 1, 2, 1000]);
  });
});
