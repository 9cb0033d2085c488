import { describe, expect, it } from "vitest";
import { formatLength, metresToMm, mmToMetres } from "./units";

describe("units", () => {
  it("converts metres to integer millimetres, rounding half-millimetres", () => {
    expect(metresToMm(1.2)).toBe(1200);
    expect(metresToMm(0.0006)).toBe(1);
    expect(mmToMetres(44450)).toBe(44.45);
  });

  it("formats metres and feet", () => {
    expect(formatLength(1200)).toBe("1.20 m");
    // 3048 mm is exactly 10 ft.
    expect(formatLength(3048, "ft", 1)).toBe("10.0 ft");
  });
});
