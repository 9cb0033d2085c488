/**
 * The figures a planner compares plans by, and the comparison table of two or more plans (pure: no
 * React, no fetch; tested in compare.test.ts). All from the plan's summary, whose cost the API prices
 * with the project's price book as it is when read.
 */
import type { components } from "../api/schema";

export type WiringPlan = components["schemas"]["WiringPlanRead"];
export type Bom = components["schemas"]["BomRead"];
export type LinkClass = components["schemas"]["LinkClass"];

export const LINK_CLASSES: readonly { key: LinkClass; label: string }[] = [
  { key: "server_tor", label: "server–ToR" },
  { key: "server_server", label: "server–server" },
  { key: "tor_fabric", label: "ToR–fabric" },
  { key: "agg_core", label: "aggregation–core" },
];

export interface ClassFigures {
  count: number;
  minM: number;
  meanM: number;
  maxM: number;
}

export interface CostFigures {
  cables: number;
  optics: number;
  switches: number;
  nics: number;
  pdus: number;
  total: number;
  currency: string;
  /** Lines the price book does not price: the total is short by them. */
  unpriced: number;
}

export interface PlanFigures {
  id: number;
  name: string;
  servers: number;
  cables: number;
  loops: number;
  /** 0..1 */
  copperShare: number;
  optics: number;
  byClass: Partial<Record<LinkClass, ClassFigures>>;
  cost: CostFigures;
  facility: FacilityFigures;
  warnings: string[];
}

/** What a plan asks of its hall's plant, as the API reckons it when read. */
export interface FacilityFigures {
  typicalW: number;
  maxW: number;
  heatW: number;
  weightKg: number;
  fullestTray: string | null;
  fullestTrayPct: number;
}

export type PlanFacility = components["schemas"]["PlanFacilityRead"];

export function facilityFigures(f: PlanFacility): FacilityFigures {
  return {
    typicalW: f.typical_w,
    maxW: f.max_w,
    heatW: f.heat_w,
    weightKg: f.weight_kg,
    fullestTray: f.fullest_tray,
    fullestTrayPct: f.fullest_tray_pct,
  };
}

/** Watts as kW with one decimal: 2320 -> "2.3 kW". */
export const kw = (w: number) => `${(w / 1000).toLocaleString("en", { maximumFractionDigits: 1 })} kW`;

/** A plan's plant in one line: "2.3 kW max (1.5 kW typical) · 1,234 kg · tray T1-2 12%". */
export function facilityLine(f: FacilityFigures): string {
  const tray = f.fullestTray ? ` · tray ${f.fullestTray} ${Math.round(f.fullestTrayPct)}%` : "";
  return `${kw(f.maxW)} max (${kw(f.typicalW)} typical) · ${Math.round(f.weightKg).toLocaleString("en")} kg${tray}`;
}

export type PlanCost = components["schemas"]["PlanCostRead"];

export function costFigures(c: PlanCost): CostFigures {
  return {
    cables: c.cables,
    optics: c.transceivers,
    switches: c.switches,
    nics: c.nics,
    pdus: c.pdus,
    total: c.total,
    currency: c.currency,
    unpriced: c.unpriced.length,
  };
}

export function planFigures(plan: WiringPlan): PlanFigures {
  const s = plan.summary;
  const byClass: PlanFigures["byClass"] = {};
  for (const { key } of LINK_CLASSES) {
    const c = s.by_class[key];
    if (c && c.count > 0)
      byClass[key] = { count: c.count, minM: c.min_raw_length_m, meanM: c.mean_raw_length_m, maxM: c.max_raw_length_m };
  }
  return {
    id: plan.id,
    name: plan.name,
    servers: s.servers,
    cables: s.cables,
    loops: s.loops,
    copperShare: s.copper_share,
    optics: s.transceiver_count,
    byClass,
    cost: costFigures(s.cost),
    facility: facilityFigures(s.facility),
    warnings: s.warnings,
  };
}

export function formatMoney(x: number, currency: string): string {
  const n = x.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${n} ${currency}` : n;
}

const int = (x: number) => x.toLocaleString("en");
const metres = (x: number) => `${x.toFixed(2)} m`;

export interface CompareRow {
  key: string;
  label: string;
  /** One per plan, formatted for the table. */
  values: string[];
  /** The raw numbers (null: not applicable), what "differs" is decided on. */
  raw: (number | null)[];
  differs: boolean;
  /** Section heading the row sits under. */
  group: string;
}

/**
 * One row per figure, one column per plan. Link classes no plan has are left out; a row differs
 * when its values are not all equal (a class one plan lacks differs too).
 */
export function compareRows(plans: readonly PlanFigures[]): CompareRow[] {
  const rows: CompareRow[] = [];
  const add = (group: string, key: string, label: string, raw: (number | null)[], fmt: (x: number) => string) => {
    const first = raw[0];
    rows.push({
      key,
      label,
      group,
      raw,
      values: raw.map((x) => (x === null ? "—" : fmt(x))),
      differs: raw.some((x) => x !== first),
    });
  };
  add(
    "Counts",
    "servers",
    "Servers",
    plans.map((p) => p.servers),
    int,
  );
  add(
    "Counts",
    "cables",
    "Cables",
    plans.map((p) => p.cables),
    int,
  );
  add(
    "Counts",
    "loops",
    "Loops",
    plans.map((p) => p.loops),
    int,
  );
  add(
    "Counts",
    "copper",
    "Copper share",
    plans.map((p) => Math.round(p.copperShare * 1000) / 10),
    (x) => `${x}%`,
  );
  add(
    "Counts",
    "optics",
    "Optics (transceivers)",
    plans.map((p) => p.optics),
    int,
  );
  for (const { key, label } of LINK_CLASSES) {
    if (!plans.some((p) => p.byClass[key])) continue;
    const of = (f: (c: ClassFigures) => number) => plans.map((p) => (p.byClass[key] ? f(p.byClass[key]) : null));
    add(
      "Lengths",
      `${key}.count`,
      `${label} cables`,
      of((c) => c.count),
      int,
    );
    add(
      "Lengths",
      `${key}.min`,
      `${label} min`,
      of((c) => c.minM),
      metres,
    );
    add(
      "Lengths",
      `${key}.mean`,
      `${label} mean`,
      of((c) => c.meanM),
      metres,
    );
    add(
      "Lengths",
      `${key}.max`,
      `${label} max`,
      of((c) => c.maxM),
      metres,
    );
  }
  const currency = plans[0]?.cost.currency ?? "";
  const money = (x: number) => formatMoney(x, currency);
  const cost = (f: (c: CostFigures) => number) => plans.map((p) => f(p.cost));
  add(
    "Cost",
    "cost.cables",
    "Cables",
    cost((c) => c.cables),
    money,
  );
  add(
    "Cost",
    "cost.optics",
    "Optics",
    cost((c) => c.optics),
    money,
  );
  add(
    "Cost",
    "cost.switches",
    "Switches",
    cost((c) => c.switches),
    money,
  );
  if (plans.some((p) => p.cost.nics > 0))
    add(
      "Cost",
      "cost.nics",
      "NICs",
      cost((c) => c.nics),
      money,
    );
  if (plans.some((p) => p.cost.pdus > 0))
    add(
      "Cost",
      "cost.pdus",
      "Rack PDUs",
      cost((c) => c.pdus),
      money,
    );
  add(
    "Cost",
    "cost.total",
    "Total",
    cost((c) => c.total),
    money,
  );
  add(
    "Cost",
    "cost.unpriced",
    "Unpriced lines",
    cost((c) => c.unpriced),
    int,
  );
  const plant = (f: (x: FacilityFigures) => number) => plans.map((p) => f(p.facility));
  add(
    "Plant",
    "facility.max",
    "IT power, at most",
    plant((f) => f.maxW),
    kw,
  );
  add(
    "Plant",
    "facility.typical",
    "IT power, typical",
    plant((f) => f.typicalW),
    kw,
  );
  add(
    "Plant",
    "facility.heat",
    "Heat",
    plant((f) => f.heatW),
    kw,
  );
  add(
    "Plant",
    "facility.weight",
    "Weight",
    plant((f) => Math.round(f.weightKg)),
    (x) => `${int(x)} kg`,
  );
  const trays = plans.map((p) => p.facility);
  rows.push({
    key: "facility.tray",
    label: "Fullest tray",
    group: "Plant",
    raw: trays.map((t) => Math.round(t.fullestTrayPct * 10) / 10),
    values: trays.map((t) => (t.fullestTray ? `${t.fullestTray} ${t.fullestTrayPct.toFixed(1)}%` : "—")),
    differs: trays.some(
      (t) => t.fullestTray !== trays[0]?.fullestTray || t.fullestTrayPct !== trays[0]?.fullestTrayPct,
    ),
  });
  add(
    "Warnings",
    "warnings",
    "Warnings",
    plans.map((p) => p.warnings.length),
    int,
  );
  return rows;
}
