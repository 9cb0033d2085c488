import { describe, expect, it } from "vitest";
import type * as A from "./apiTypes";
import { aisleLabel, aisleWarning, reportedAisles } from "./validation";

const aisle = (over: Partial<A.AisleRead>): A.AisleRead => ({
  kind: "cold",
  row_a: "R01",
  row_b: "R02",
  width_m: 1.2,
  x0_m: 1,
  y0_m: 2.2,
  x1_m: 3.4,
  y1_m: 3.4,
  min_width_m: 1.5,
  too_narrow: true,
  ...over,
});

describe("aisles from the validation report", () => {
  it("are the report's, in millimetres, with the hall's minimum and the server's verdict", () => {
    const found = reportedAisles({
      aisles: [
        aisle({}),
        aisle({ kind: "hot", row_a: "R02", row_b: "R03", width_m: 8, min_width_m: 0.9, too_narrow: false }),
      ],
    });
    expect(found).toEqual([
      {
        key: "R01|R02",
        kind: "cold",
        rowA: "R01",
        rowB: "R02",
        widthMm: 1200,
        minWidthMm: 1500,
        tooNarrow: true,
        box: { x0: 1000, y0: 2200, x1: 3400, y1: 3400 },
      },
      expect.objectContaining({ key: "R02|R03", kind: "hot", widthMm: 8000, minWidthMm: 900, tooNarrow: false }),
    ]);
    expect(reportedAisles(null)).toEqual([]);
  });

  it("label the floor and warn in the status bar with the hall's own minimum", () => {
    const [narrow, wide] = reportedAisles({
      aisles: [
        aisle({}),
        aisle({ kind: "mixed", row_a: "R03", row_b: "R04", width_m: 1.1, min_width_m: 0.9, too_narrow: false }),
      ],
    });
    expect(aisleLabel(narrow!)).toBe("Cold aisle 1.20 m ⚠ too narrow (min 1.50 m)");
    expect(aisleLabel(wide!)).toBe("Mixed aisle 1.10 m");
    expect(aisleWarning(narrow!)).toBe("⚠ cold aisle R01/R02 is 1.20 m (min 1.50 m)");
  });
});
