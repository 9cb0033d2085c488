import { describe, expect, it } from "vitest";
import {
  bucketSpan,
  buildHeat,
  cableUtil,
  clampBucket,
  clearHeat,
  HEAT_LUT,
  heatColour,
  heatPercent,
  hottestAt,
  rackUtil,
  setHeatBucket,
  showHeat,
  useHeat,
} from "./heatMap";
import { useDiff } from "./planDiff";
import { useWiring } from "./wiring";

describe("the heat colour scale", () => {
  it("is the stops at 0, 25, 50, 75 and 100 %", () => {
    expect(heatColour(0)).toBe("#1e3a8a");
    expect(heatColour(0.25)).toBe("#0ea5e9");
    expect(heatColour(0.5)).toBe("#84cc16");
    expect(heatColour(0.75)).toBe("#f59e0b");
    expect(heatColour(1)).toBe("#dc2626");
  });

  it("interpolates each channel between stops, at whole percent", () => {
    // 12.5 % rounds to 13 %: 13/25 = 0.52 of the way from #1e3a8a (30, 58, 138) to #0ea5e9 (14, 165, 233):
    // 30 - 16*0.52 = 21.68 -> 22 (16), 58 + 107*0.52 = 113.64 -> 114 (72), 138 + 95*0.52 = 187.4 -> 187 (bb).
    expect(heatColour(0.125)).toBe("#1672bb");
    // 90 %: 3/5 of the way from #f59e0b (245, 158, 11) to #dc2626 (220, 38, 38):
    // 245 - 25*0.6 = 230 (e6), 158 - 120*0.6 = 86 (56), 11 + 27*0.6 = 27.2 -> 27 (1b).
    expect(heatColour(0.9)).toBe("#e6561b");
    expect(heatColour(0.904)).toBe("#e6561b");
  });

  it("clamps: nothing below 0 %, nothing past 100 %, NaN is idle", () => {
    expect(heatColour(-0.3)).toBe("#1e3a8a");
    expect(heatColour(1.7)).toBe("#dc2626");
    expect(heatColour(Number.NaN)).toBe("#1e3a8a");
    expect(heatPercent(0.994)).toBe(99);
    expect(heatPercent(0.996)).toBe(100);
    expect(HEAT_LUT).toHaveLength(101);
  });
});

/** Two ToRs in rack A, one in rack B; cable C1 both ways between T1 and S1, C2 from T2 up to SP, C3 T3-SP. */
const links = {
  interval_s: 0.001,
  links: [
    { id: "C1", from: "S1", to: "T1", util: [0.2, 0.4] },
    { id: "C1", from: "T1", to: "S1", util: [0.1, 0.9, 0.3] },
    { id: "C2", from: "T2", to: "SP", util: [0.5] },
    { id: "C2", from: "SP", to: "T2", util: null },
    { id: "C3", from: "T3", to: "SP", util: [0, 0, 0, 0.6] },
    { id: "C4", from: "SP", to: "X", util: [] },
  ],
};
const torsOfRack = new Map([
  ["rack:a", ["T1", "T2"]],
  ["rack:b", ["T3"]],
  ["rack:net", []],
]);
const names = new Map([
  ["rack:a", "R01-01"],
  ["rack:b", "R01-02"],
]);

describe("utilisation per cable, ToR and rack at a bucket", () => {
  const o = buildHeat(7, 3, links, 0.0045, torsOfRack, names);

  it("has as many buckets as the run is long (series are trimmed after their last busy bucket)", () => {
    // 4.5 ms in 1 ms buckets -> 5, longer than the longest series (4).
    expect(o.buckets).toBe(5);
    expect(buildHeat(1, 1, links, 0.002, torsOfRack).buckets).toBe(4);
  });

  it("a cable is its busier direction; a missing or trimmed bucket is idle; idle cables are absent", () => {
    expect([0, 1, 2, 3, 4].map((b) => cableUtil(o, "C1", b))).toEqual([0.2, 0.9, 0.3, 0, 0].map(Math.fround));
    expect(cableUtil(o, "C2", 0)).toBe(0.5);
    expect(cableUtil(o, "C2", 1)).toBe(0);
    expect(o.cables.has("C4")).toBe(false);
    expect(cableUtil(o, "C4", 0)).toBe(0);
  });

  it("a ToR is its busiest link either way (max); a rack its hottest ToR; a rack with no ToR has none", () => {
    expect(Array.from(o.tors.get("T1") ?? [])).toEqual([0.2, 0.9, 0.3, 0, 0].map(Math.fround));
    expect([0, 1, 3].map((b) => rackUtil(o, "rack:a", b))).toEqual([0.5, 0.9, 0].map(Math.fround));
    expect(rackUtil(o, "rack:b", 3)).toBe(Math.fround(0.6));
    expect(rackUtil(o, "rack:net", 0)).toBeNull();
    expect(rackUtil(o, "rack:unknown", 0)).toBeNull();
  });

  it("bucket selection clamps to the run and names its time span", () => {
    expect(clampBucket(o, -2)).toBe(0);
    expect(clampBucket(o, 99)).toBe(4);
    expect(clampBucket(o, 1.6)).toBe(2);
    expect(bucketSpan(o, 3)).toEqual([0.003, 0.004]);
    expect(cableUtil(o, "C1", 99)).toBe(0);
  });

  it("starts where the links are busiest in sum, and names the hottest cable and rack there", () => {
    // Sums: b0 0.2+0.1+0.5 = 0.8, b1 0.4+0.9 = 1.3, b2 0.3, b3 0.6.
    expect(o.startBucket).toBe(1);
    expect(hottestAt(o, 1)).toEqual({
      cable: { id: "C1", util: Math.fround(0.9) },
      rack: { id: "rack:a", name: "R01-01", util: Math.fround(0.9), tor: "T1" },
    });
    expect(hottestAt(o, 0).rack).toEqual({ id: "rack:a", name: "R01-01", util: 0.5, tor: "T2" });
    expect(hottestAt(o, 3)).toEqual({
      cable: { id: "C3", util: Math.fround(0.6) },
      rack: { id: "rack:b", name: "R01-02", util: Math.fround(0.6), tor: "T3" },
    });
    expect(hottestAt(o, 4)).toEqual({ cable: null, rack: null });
  });
});

describe("the heat map store", () => {
  it("opens at the busiest bucket, the slider clamps, clearing restores, a plan diff replaces it", () => {
    const o = buildHeat(7, 3, links, 0.0045, torsOfRack, names);
    showHeat(o);
    expect(useHeat.getState()).toMatchObject({ overlay: o, bucket: 1 });
    setHeatBucket(42);
    expect(useHeat.getState().bucket).toBe(4);
    clearHeat();
    expect(useHeat.getState()).toEqual({ overlay: null, bucket: 0 });
    showHeat(o);
    useDiff.setState({ overlay: {} as never });
    expect(useHeat.getState().overlay).toBeNull();
    useDiff.setState({ overlay: null });
  });

  it("showing another plan's cables ends the heat map; its own plan's keeps it", () => {
    const o = buildHeat(7, 3, links, 0.0045, torsOfRack, names);
    showHeat(o);
    useWiring.setState({ cables: { planId: 3 } as never });
    expect(useHeat.getState().overlay).toBe(o);
    useWiring.setState({ cables: { planId: 4 } as never });
    expect(useHeat.getState().overlay).toBeNull();
    useWiring.setState({ cables: null });
  });
});
