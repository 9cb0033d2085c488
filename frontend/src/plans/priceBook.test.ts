import { describe, expect, it } from "vitest";
import { draftOf, isDirty, pendingEdit, rebaseDrafts, type PricedPart } from "./priceBook";

const part = (p: Partial<PricedPart>): PricedPart => ({
  part_number: "DAC-25G",
  category: "cable",
  description: "25G DAC",
  base_price: 20,
  per_metre: 4,
  source: "default",
  default_base_price: 20,
  default_per_metre: 4,
  used: true,
  ...p,
});

const dac = part({});
const spine = part({
  part_number: "64x100G spine",
  category: "switch",
  description: "",
  base_price: null,
  per_metre: null,
  source: null,
  default_base_price: null,
  default_per_metre: null,
});
const own = part({ part_number: "AOC-100G", category: "cable", base_price: 95, per_metre: 2.5, source: "project" });

describe("price book edits", () => {
  it("a default or unpriced part shows empty inputs (the default is the placeholder); a project price shows itself", () => {
    expect(draftOf(dac)).toEqual({ base: "", perMetre: "" });
    expect(draftOf(spine)).toEqual({ base: "", perMetre: "" });
    expect(draftOf(own)).toEqual({ base: "95", perMetre: "2.5" });
    expect(isDirty(own, { base: "95", perMetre: "2.5" })).toBe(false);
    expect(isDirty(own, { base: "96", perMetre: "2.5" })).toBe(true);
  });

  it("typed prices become upserts, emptied project prices removals, untouched rows nothing", () => {
    const e = pendingEdit([dac, spine, own], {
      "64x100G spine": { base: "18000", perMetre: "" },
      "AOC-100G": { base: "", perMetre: "" },
      "DAC-25G": { base: "", perMetre: "" },
    });
    expect(e.errors).toEqual({});
    expect(e.count).toBe(2);
    expect(e.patch).toEqual({
      upsert: [{ part_number: "64x100G spine", category: "switch", description: "", base_price: 18000, per_metre: 0 }],
      remove: ["AOC-100G"],
    });
  });

  it("an input left empty keeps the price in force: a new cable base price keeps the default per-metre price", () => {
    const e = pendingEdit([dac], { "DAC-25G": { base: "25", perMetre: "" } });
    expect(e.patch.upsert).toEqual([
      { part_number: "DAC-25G", category: "cable", description: "25G DAC", base_price: 25, per_metre: 4 },
    ]);
  });

  it("refuses what is not a price, naming the part; nothing is sent for it", () => {
    const e = pendingEdit([dac, own], {
      "DAC-25G": { base: "-3", perMetre: "" },
      "AOC-100G": { base: "abc", perMetre: "1" },
    });
    expect(e.errors).toEqual({
      "DAC-25G": "a price is a number, 0 or more",
      "AOC-100G": "a price is a number, 0 or more",
    });
    expect(e.patch).toEqual({ upsert: [], remove: [] });
  });

  it("after someone else saved, the drafts that still differ are kept over the fresh table", () => {
    const drafts = { "DAC-25G": { base: "25", perMetre: "" }, "AOC-100G": { base: "99", perMetre: "2.5" } };
    // Meanwhile someone set AOC-100G to 99 / 2.5 (same as typed) and nothing for the DAC.
    const fresh = [dac, { ...own, base_price: 99 }];
    expect(rebaseDrafts(fresh, drafts)).toEqual({ "DAC-25G": { base: "25", perMetre: "" } });
    // A part gone from the table keeps its draft (still typed, nothing lost).
    expect(rebaseDrafts([], drafts)).toEqual(drafts);
  });
});
