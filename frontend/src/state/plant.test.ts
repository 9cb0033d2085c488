import { describe, expect, it } from "vitest";
import { chainParts, isStructured, rackOfName, type ChainStep, type PlantItem } from "./plant";

const step = (position: number, kind: PlantItem["kind"], a: [string, string], b: [string, string]): ChainStep => ({
  position,
  detail: "",
  item: {
    item_id: `I${position}`,
    kind,
    label: `${a.join(":")} / ${b.join(":")}`,
    part: "p",
    a_end: a[0],
    a_port: a[1],
    b_end: b[0],
    b_port: b[1],
    length_m: 0,
    ordered_length_m: 0,
    made_to_order: false,
    fibres: 0,
    route: "",
  },
});

describe("a chain's parts", () => {
  const tor = "H1.R01.K01.U41";
  const spine = "H1.N01.N01-01.U20";
  const pa = "H1.R01.K06.U42";
  const pb = "H1.N01.N01-01.U40";
  // Given out of order: the positions order them.
  const steps = [
    step(2, "trunk", [pa, "R01"], [pb, "R03"]),
    step(0, "cord", [tor, "e49"], [pa, "F05"]),
    step(4, "cord", [pb, "F09"], [spine, "e5/2"]),
    step(1, "panel port", [pa, "F05"], [pa, "R01"]),
    step(3, "panel port", [pb, "R03"], [pb, "F09"]),
  ];

  it("cord, panel port, trunk, panel port, cord: both panels in order, the trunk, both cords, both devices", () => {
    expect(chainParts(steps, new Set([pa, pb, "H1.R02.K01.U42"]))).toEqual({
      panels: [pa, pb],
      trunks: ["I2"],
      cords: [
        { itemId: "I0", aEnd: tor, bEnd: pa },
        { itemId: "I4", aEnd: pb, bEnd: spine },
      ],
      devices: [tor, spine],
    });
  });

  it("a breakout cable counts with the cords (a cable to a device), not with the trunks", () => {
    const parts = chainParts([step(0, "breakout", [pb, "F01"], [spine, "e5/1"])], new Set([pb]));
    expect([parts.trunks, parts.cords.map((c) => c.itemId), parts.panels]).toEqual([[], ["I0"], [pb]]);
  });

  it("an empty chain has no parts", () => {
    expect(chainParts([], new Set([pa]))).toEqual({ panels: [], trunks: [], cords: [], devices: [] });
  });
});

describe("names", () => {
  it("the rack of a device, a panel or a port", () => {
    expect([rackOfName("H1.R01.K03.U22"), rackOfName("H1.R01.K03.U22:e5/2"), rackOfName("K03")]).toEqual([
      "H1.R01.K03",
      "H1.R01.K03",
      "K03",
    ]);
  });

  it("a plan is structured only when its spec says so", () => {
    expect([
      isStructured({ cabling: "structured" }),
      isStructured({ cabling: "direct" }),
      isStructured({}),
      isStructured(null),
    ]).toEqual([true, false, false, false]);
  });
});
