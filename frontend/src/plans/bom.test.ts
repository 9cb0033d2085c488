import { describe, expect, it } from "vitest";
import { bomView, unpricedNote, type BomLine } from "./bom";
import type { Bom } from "./compare";

const line = (p: Partial<BomLine>): BomLine => ({
  category: "cable",
  part_number: "DAC-25G",
  description: "",
  length_m: 2,
  media_class: "copper",
  quantity: 1,
  unit_price: 10,
  total: 10,
  price_source: "default",
  ...p,
});

describe("BOM view", () => {
  const bom: Bom = {
    lines: [
      line({ quantity: 100, unit_price: 12.5, total: 1250 }),
      line({ part_number: "AOC-100G", media_class: "optical", quantity: 8, unit_price: 90.1, total: 720.8 }),
      line({
        category: "transceiver",
        part_number: "SR4",
        length_m: null,
        media_class: "optical",
        quantity: 16,
        unit_price: 30,
        total: 480,
      }),
      line({
        category: "switch",
        part_number: "64x100G spine",
        length_m: null,
        media_class: null,
        quantity: 4,
        unit_price: null,
        total: null,
        price_source: null,
      }),
    ],
    currency: "USD",
    price_book_version: null,
    subtotals: { cable: 1970.8, transceiver: 480, switch: 0, nic: 0, pdu: 0 },
    media_subtotals: { copper: 1250, optical: 1200.8 },
    total: 2450.8,
    complete: false,
    unpriced: [{ category: "switch", part_number: "64x100G spine" }],
    warnings: ["no price for switch '64x100G spine'"],
  };

  it("groups per category with quantities and subtotals (sums of the lines); copper vs optical; currency", () => {
    const v = bomView(bom);
    expect(v.groups.map((g) => [g.key, g.quantity, g.subtotal])).toEqual([
      ["cable", 108, 1970.8],
      ["transceiver", 16, 480],
      ["switch", 4, 0],
    ]);
    // The lines' own sums agree with the API's subtotals.
    for (const g of v.groups) expect(g.subtotal).toBe(bom.subtotals[g.key as keyof Bom["subtotals"]]);
    expect(v.media).toEqual({ copper: 1250, optical: 1200.8 });
    expect(v.currency).toBe("USD");
    expect(v.total).toBe(2450.8);
  });

  it("lists the unpriced lines so the total is never silently short", () => {
    expect(bomView(bom).unpriced.map((l) => l.part_number)).toEqual(["64x100G spine"]);
  });
});

describe("what a total leaves out", () => {
  it("says plainly that the switches are unpriced, and offers to set their prices", () => {
    const demo = [
      { category: "switch", part_number: "48x25G+8x100G ToR" },
      { category: "switch", part_number: "64x100G spine" },
    ];
    expect(unpricedNote(demo)).toEqual({
      text: "switches unpriced (48x25G+8x100G ToR, 64x100G spine): the total leaves them out",
      action: "Set switch prices…",
    });
  });

  it("names every kind missing, and nothing when all is priced", () => {
    const mixed = [
      { category: "nic", part_number: "NIC-1x25G" },
      { category: "switch", part_number: "ToR" },
    ];
    expect(unpricedNote(mixed)).toEqual({
      text: "switches and server NICs unpriced (NIC-1x25G, ToR): the total leaves them out",
      action: "Set the missing prices…",
    });
    expect(unpricedNote([])).toBeNull();
  });
});
