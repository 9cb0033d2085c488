import { describe, expect, it } from "vitest";
import { compareRows, facilityLine, planFigures, type PlanCost, type WiringPlan } from "./compare";

const cost = (p: Partial<PlanCost> = {}): PlanCost => ({
  currency: "USD",
  price_book_version: null,
  cables: 0,
  transceivers: 0,
  switches: 0,
  nics: 0,
  pdus: 0,
  copper: 0,
  optical: 0,
  total: 0,
  complete: true,
  unpriced: [],
  ...p,
});

const facility = (f: Partial<WiringPlan["summary"]["facility"]> = {}): WiringPlan["summary"]["facility"] => ({
  typical_w: 0,
  max_w: 0,
  heat_w: 0,
  weight_kg: 0,
  fullest_tray: null,
  fullest_tray_pct: 0,
  incomplete: [],
  change: null,
  ...f,
});

const cls = (count: number, min: number, mean: number, max: number) => ({
  count,
  min_raw_length_m: min,
  mean_raw_length_m: mean,
  max_raw_length_m: max,
  max_ordered_length_m: max,
  media: {},
});
const empty = cls(0, 0, 0, 0);

function plan(id: number, s: Partial<WiringPlan["summary"]>): WiringPlan {
  return {
    id,
    project_id: 1,
    hall_id: 1,
    name: `plan ${id}`,
    spec: {},
    base_plan_id: null,
    summary: {
      cables: 0,
      servers: 0,
      tors: 0,
      switches: {},
      loops: 0,
      max_raw_length_m: 0,
      total_raw_length_m: 0,
      total_ordered_length_m: 0,
      by_class: {},
      media: {},
      parts: {},
      transceivers: {},
      transceiver_count: 0,
      copper_cables: 0,
      optical_cables: 0,
      nics: 0,
      copper_share: 0,
      tor_oversubscription: null,
      cost: cost(),
      facility: facility(),
      warnings: [],
      ...s,
    },
    diff: null,
    loops: [],
    created_at: "2026-01-01T00:00:00Z",
    version: 1,
  };
}

const A = plan(1, {
  servers: 600,
  cables: 1260,
  loops: 2,
  copper_share: 0.9524,
  transceiver_count: 96,
  by_class: {
    server_tor: cls(1200, 1.2, 2.345, 6.1),
    server_server: empty,
    tor_fabric: cls(60, 8, 12.5, 19.25),
    agg_core: empty,
  },
  cost: cost({
    cables: 12000.5,
    transceivers: 2880,
    switches: 0,
    total: 14880.5,
    complete: false,
    unpriced: [{ category: "switch", part_number: "64x100G spine" }],
  }),
  facility: facility({
    typical_w: 96_250,
    max_w: 151_400,
    heat_w: 151_400,
    weight_kg: 12_345.6,
    fullest_tray: "T3-12",
    fullest_tray_pct: 31.2,
  }),
  warnings: [],
});
const B = plan(2, {
  servers: 600,
  cables: 1860,
  loops: 2,
  copper_share: 0.6452,
  transceiver_count: 1296,
  by_class: {
    server_tor: cls(1800, 1.2, 2.5, 6.1),
    server_server: empty,
    tor_fabric: cls(60, 8, 12.5, 19.25),
    agg_core: empty,
  },
  cost: cost({
    cables: 15000,
    transceivers: 2880,
    switches: 0,
    total: 17880,
    complete: false,
    unpriced: [{ category: "switch", part_number: "64x100G spine" }],
  }),
  facility: facility({
    typical_w: 120_250,
    max_w: 189_400,
    heat_w: 189_400,
    weight_kg: 12_465.6,
    fullest_tray: "T3-12",
    fullest_tray_pct: 47.4,
  }),
  warnings: ["loop L3 has one rack"],
});

describe("plan figures", () => {
  it("reads the counts, copper share, optics, the link classes the plan has and the cost subtotals", () => {
    expect(planFigures(A)).toEqual({
      id: 1,
      name: "plan 1",
      servers: 600,
      cables: 1260,
      loops: 2,
      copperShare: 0.9524,
      optics: 96,
      byClass: {
        server_tor: { count: 1200, minM: 1.2, meanM: 2.345, maxM: 6.1 },
        tor_fabric: { count: 60, minM: 8, meanM: 12.5, maxM: 19.25 },
      },
      cost: {
        cables: 12000.5,
        optics: 2880,
        switches: 0,
        nics: 0,
        pdus: 0,
        total: 14880.5,
        currency: "USD",
        unpriced: 1,
      },
      facility: {
        typicalW: 96_250,
        maxW: 151_400,
        heatW: 151_400,
        weightKg: 12_345.6,
        fullestTray: "T3-12",
        fullestTrayPct: 31.2,
      },
      warnings: [],
    });
  });
});

describe("comparison table", () => {
  const rows = compareRows([planFigures(A), planFigures(B)]);
  const row = (key: string) => rows.find((r) => r.key === key)!;

  it("one column per plan, formatted; equal figures are not highlighted, different ones are", () => {
    expect(row("servers")).toMatchObject({ values: ["600", "600"], differs: false });
    expect(row("cables")).toMatchObject({ values: ["1,260", "1,860"], differs: true });
    expect(row("copper")).toMatchObject({ values: ["95.2%", "64.5%"], differs: true });
    expect(row("optics")).toMatchObject({ values: ["96", "1,296"], differs: true });
    expect(row("server_tor.mean")).toMatchObject({ values: ["2.35 m", "2.50 m"], differs: true });
    expect(row("server_tor.max")).toMatchObject({ values: ["6.10 m", "6.10 m"], differs: false });
    expect(row("tor_fabric.count")).toMatchObject({ values: ["60", "60"], differs: false });
    expect(row("warnings")).toMatchObject({ values: ["0", "1"], differs: true });
  });

  it("leaves out the link classes no plan has; costs carry the currency", () => {
    expect(rows.some((r) => r.key.startsWith("server_server"))).toBe(false);
    expect(rows.some((r) => r.key.startsWith("agg_core"))).toBe(false);
    expect(rows.some((r) => r.key === "cost.nics")).toBe(false);
    expect(row("cost.cables")).toMatchObject({ values: ["12,000.50 USD", "15,000.00 USD"], differs: true });
    expect(row("cost.optics")).toMatchObject({ values: ["2,880.00 USD", "2,880.00 USD"], differs: false });
    expect(row("cost.total")).toMatchObject({ values: ["14,880.50 USD", "17,880.00 USD"], differs: true });
    expect(row("cost.unpriced")).toMatchObject({ values: ["1", "1"], differs: false });
  });

  it("the plant: power and heat in kW, weight in kg, the fullest tray with its fill; PDUs only when priced", () => {
    expect(row("facility.max")).toMatchObject({ values: ["151.4 kW", "189.4 kW"], differs: true });
    expect(row("facility.typical")).toMatchObject({ values: ["96.3 kW", "120.3 kW"], differs: true });
    expect(row("facility.heat")).toMatchObject({ values: ["151.4 kW", "189.4 kW"], differs: true });
    expect(row("facility.weight")).toMatchObject({ values: ["12,346 kg", "12,466 kg"], differs: true });
    expect(row("facility.tray")).toMatchObject({ values: ["T3-12 31.2%", "T3-12 47.4%"], differs: true });
    expect(rows.some((r) => r.key === "cost.pdus")).toBe(false);
    const pdus = plan(4, { ...A.summary, cost: cost({ pdus: 1350 }) });
    const r = compareRows([planFigures(A), planFigures(pdus)]);
    expect(r.find((x) => x.key === "cost.pdus")).toMatchObject({ values: ["0.00 USD", "1,350.00 USD"] });
  });

  it("a plan's plant in one line", () => {
    expect(facilityLine(planFigures(A).facility)).toBe("151.4 kW max (96.3 kW typical) · 12,346 kg · tray T3-12 31%");
    expect(facilityLine({ ...planFigures(A).facility, fullestTray: null })).toBe(
      "151.4 kW max (96.3 kW typical) · 12,346 kg",
    );
  });

  it("a class one plan lacks differs (— where absent)", () => {
    const withGrin = plan(3, {
      ...A.summary,
      by_class: { ...A.summary.by_class, server_server: cls(10, 0.5, 0.5, 0.5) },
    });
    const r = compareRows([planFigures(A), planFigures(withGrin)]);
    expect(r.find((x) => x.key === "server_server.count")).toMatchObject({ values: ["—", "10"], differs: true });
  });
});
