/**
 * The hall's facility report (`GET /halls/{id}/facility?plan_id=`: power, heat, weight per rack, fill
 * per tray segment, the checks' issues) as the editor draws it: the heat map's colour scale, the worst
 * items, the violation counts. The server judges (`loopline/domain/facility/checks.py` owns every
 * limit and ratio); the editor only sorts and colours what it answers. `sync/facility.ts` fetches it,
 * `scene/` paints it, `ui/` lists it.
 */
import { create } from "zustand";
import type { components } from "../api/schema";
import type { RackRecord } from "../model/records";
import { debugHandle } from "./testHook";

export type FacilityReportApi = components["schemas"]["FacilityReportRead"];
type TraySegmentApi = components["schemas"]["TraySegmentRead"];
export type FacilityIssue = components["schemas"]["IssueRead"];
export type FeedLoad = components["schemas"]["FeedLoadRead"];

/** A rack's loads as reported, and the facts the checks could not count for it. */
export interface RackLoad {
  rack: string;
  row: string;
  typicalW: number;
  maxW: number;
  budgetW: number | null;
  coolingW: number | null;
  weightKg: number;
  staticLoadKg: number | null;
  floorKgM2: number;
  feeds: readonly FeedLoad[];
  worstPct: number;
  worst: string;
  /**
   * `fact_missing` messages about the power of this rack's devices (a model without `max_w`): its draw
   * is counted short, so unless it is over a limit already its colour is grey.
   */
  missing: readonly string[];
}

/** A tray segment: floor and height in millimetres (x, y on the floor, z up). */
export interface TraySegment {
  name: string;
  run: string;
  level: string;
  start: readonly [number, number, number];
  end: readonly [number, number, number];
  cables: number;
  fillPct: number;
  limitPct: number;
  kgPerM: number;
  loadKgPerM: number;
}

export interface FacilityView {
  hallId: number;
  planId: number | null;
  racks: readonly RackLoad[];
  byRack: ReadonlyMap<string, RackLoad>;
  trays: readonly TraySegment[];
  byTray: ReadonlyMap<string, TraySegment>;
  issues: readonly FacilityIssue[];
  totals: FacilityReportApi["totals"];
}

/** The catalog models a rack holds, by name (what a `fact_missing` finding names). */
export interface RackModels {
  servers: readonly string[];
  switches: readonly string[];
}

/** A rack's models as the editor's records hold them (`switchName`: a fabric switch's catalog id -> its name). */
export function modelsOfRack(rack: RackRecord, switchName: (id: number | undefined) => string | undefined): RackModels {
  const filled = rack.logicalRacks > 0;
  return {
    servers: filled && rack.serversPerLogicalRack > 0 ? [rack.serverModel.name] : [],
    switches: [
      ...(filled ? [rack.torModel.name] : []),
      ...rack.fabricSwitches.flatMap((f) => switchName(f.modelId) ?? []),
    ],
  };
}

/** Facts without which a rack's draw is counted short (its power ratios, hence its colour). */
const POWER_FACTS: ReadonlySet<string> = new Set(["max_w"]);

/** `catalog.server_models[2x25G server].max_w` -> its kind, model and fact. */
const GAP = /^catalog\.(server_models|switch_models)\[(.+)\]\.([a-z_]+)$/;

/**
 * The report as the editor uses it: by rack name and by tray segment name. `modelsOf` gives the models
 * of a rack by name (from the layout), so a rack whose devices lack a power fact is known as such.
 */
export function facilityView(
  hallId: number,
  planId: number | null,
  api: FacilityReportApi,
  modelsOf: (rack: string) => RackModels | undefined = () => undefined,
): FacilityView {
  const issues = [...api.errors, ...api.warnings];
  const gaps = new Map<string, string[]>();
  for (const i of issues) {
    const m = i.code === "fact_missing" ? GAP.exec(i.field) : null;
    if (!m || !POWER_FACTS.has(m[3] ?? "")) continue;
    const key = `${m[1]}:${m[2]}`;
    gaps.set(key, [...(gaps.get(key) ?? []), i.message]);
  }
  const missingOf = (rack: string): string[] => {
    const models = gaps.size ? modelsOf(rack) : undefined;
    if (!models) return [];
    return [
      ...models.servers.flatMap((n) => gaps.get(`server_models:${n}`) ?? []),
      ...models.switches.flatMap((n) => gaps.get(`switch_models:${n}`) ?? []),
    ].filter((msg, k, all) => all.indexOf(msg) === k);
  };
  const racks: RackLoad[] = api.racks.map((r) => ({
    rack: r.rack,
    row: r.row,
    typicalW: r.typical_w,
    maxW: r.max_w,
    budgetW: r.budget_w ?? null,
    coolingW: r.cooling_w ?? null,
    weightKg: r.weight_kg,
    staticLoadKg: r.static_load_kg ?? null,
    floorKgM2: r.floor_kg_m2,
    feeds: r.feeds,
    worstPct: r.worst_pct,
    worst: r.worst,
    missing: missingOf(r.rack),
  }));
  const trays: TraySegment[] = api.trays.map((t: TraySegmentApi) => ({
    name: t.name,
    run: t.run,
    level: t.level,
    start: mmPoint(t.start_m),
    end: mmPoint(t.end_m),
    cables: t.cables,
    fillPct: t.fill_pct,
    limitPct: t.limit_pct,
    kgPerM: t.kg_per_m,
    loadKgPerM: t.load_kg_per_m,
  }));
  return {
    hallId,
    planId,
    racks,
    byRack: new Map(racks.map((r) => [r.rack, r])),
    trays,
    byTray: new Map(trays.map((t) => [t.name, t])),
    issues,
    totals: api.totals,
  };
}

/** The API's metres as the editor's integer millimetres. */
const mmPoint = (p: readonly number[]): [number, number, number] => [
  Math.round((p[0] ?? 0) * 1000),
  Math.round((p[1] ?? 0) * 1000),
  Math.round((p[2] ?? 0) * 1000),
];

// --- The colour scale ------------------------------------------------------------------------

/** The heat map's bands: share of the tightest limit in %. At 100 % a limit is met, above it broken. */
export const FACILITY_BANDS = {
  ok: { colour: "#22c55e", label: "under 80 %" },
  near: { colour: "#f59e0b", label: "80-100 %" },
  over: { colour: "#ef4444", label: "over 100 %" },
  unknown: { colour: "#9ca3af", label: "facts missing" },
} as const;
export type FacilityBand = keyof typeof FACILITY_BANDS;

/** Where the amber band starts: 80 % of a limit leaves a planner little room for the next device. */
export const NEAR_PCT = 80;

/**
 * The band of a share of a limit (%): null or NaN is `unknown`; so is any share not over its limit when
 * facts are missing (what was not counted can only add load: over stays over, the rest cannot be told).
 */
export function facilityBand(pct: number | null, missingFacts = false): FacilityBand {
  if (pct === null || !Number.isFinite(pct)) return "unknown";
  if (pct > 100) return "over";
  if (missingFacts) return "unknown";
  if (pct >= NEAR_PCT) return "near";
  return "ok";
}

export function facilityColour(pct: number | null, missingFacts = false): string {
  return FACILITY_BANDS[facilityBand(pct, missingFacts)].colour;
}

/** A rack's colour on the heat map: its worst ratio (its band's colour); grey when not in the report. */
export function rackFacilityColour(view: FacilityView, rackName: string): string {
  const r = view.byRack.get(rackName);
  return r ? facilityColour(r.worstPct, r.missing.length > 0) : FACILITY_BANDS.unknown.colour;
}

/** "47.1 %": one decimal, as the report's ratios are read. */
export const pctText = (pct: number): string => `${(Math.round(pct * 10) / 10).toFixed(1)} %`;

/**
 * A tray segment's tightest ratio (% of its limit) and what it is, in words: its fill against the fill
 * limit, or its cables' weight against the tray's rating, whichever is the larger share.
 */
export function trayWorst(t: TraySegment): { pct: number; text: string } {
  const fill = t.limitPct > 0 ? (t.fillPct / t.limitPct) * 100 : Infinity;
  const weight = t.loadKgPerM > 0 ? (t.kgPerM / t.loadKgPerM) * 100 : Infinity;
  if (weight > fill)
    return {
      pct: weight,
      text: `${t.kgPerM.toFixed(1)} kg/m of cables on a ${t.loadKgPerM.toFixed(0)} kg/m tray (${pctText(weight)})`,
    };
  return { pct: fill, text: `filled to ${pctText(t.fillPct)} of the tray (limit ${pctText(t.limitPct)})` };
}

export function trayColour(t: TraySegment): string {
  return facilityColour(trayWorst(t).pct);
}

// --- The worst items ---------------------------------------------------------------------------

export interface WorstItem {
  kind: "rack" | "tray";
  name: string;
  /** Share of its tightest limit, %. */
  pct: number;
  /** What that share is, in words (the report's `worst` for a rack). */
  text: string;
  band: FacilityBand;
}

/**
 * The racks and tray segments nearest to (or past) their limits, the worst first; equal shares by kind
 * (racks first) then name, so the list does not shuffle between two reports. Racks that cannot be
 * told (facts missing, not over a limit) come after every item that can (a share of part of a rack
 * is no measure of the rack).
 */
export function worstItems(view: FacilityView, limit = 10): WorstItem[] {
  const items: (WorstItem & { unknown: boolean })[] = [
    ...view.racks.map((r) => ({
      kind: "rack" as const,
      name: r.rack,
      pct: r.worstPct,
      text: r.worst,
      band: facilityBand(r.worstPct, r.missing.length > 0),
      unknown: facilityBand(r.worstPct, r.missing.length > 0) === "unknown",
    })),
    ...view.trays.map((t) => {
      const w = trayWorst(t);
      return {
        kind: "tray" as const,
        name: t.name,
        pct: w.pct,
        text: w.text,
        band: facilityBand(w.pct),
        unknown: false,
      };
    }),
  ];
  items.sort(
    (a, b) =>
      Number(a.unknown) - Number(b.unknown) ||
      b.pct - a.pct ||
      (a.kind === b.kind ? 0 : a.kind === "rack" ? -1 : 1) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return items.slice(0, limit).map(({ kind, name, pct, text, band }) => ({ kind, name, pct, text, band }));
}

/** Errors and warnings among the report's issues (the status bar's counts). */
export function facilityCounts(issues: readonly Pick<FacilityIssue, "severity">[]): {
  errors: number;
  warnings: number;
} {
  let errors = 0;
  let warnings = 0;
  for (const i of issues) {
    if (i.severity === "error") errors++;
    else warnings++;
  }
  return { errors, warnings };
}

/** The floor box (mm) around a tray segment, `marginMm` wider on every side: what the camera flies to. */
export function trayBox(t: TraySegment, marginMm: number): { x0: number; y0: number; x1: number; y1: number } {
  return {
    x0: Math.min(t.start[0], t.end[0]) - marginMm,
    y0: Math.min(t.start[1], t.end[1]) - marginMm,
    x1: Math.max(t.start[0], t.end[0]) + marginMm,
    y1: Math.max(t.start[1], t.end[1]) + marginMm,
  };
}

// --- The store ---------------------------------------------------------------------------------

export interface FacilityState {
  view: FacilityView | null;
  /** A report is being fetched: the one shown is for the layout before the last edit. */
  pending: boolean;
  /** The last fetch failed: why (the heat map keeps the last report). */
  error: string | null;
  /** The heat map is on: racks take their band's colour, tray segments are drawn. */
  shown: boolean;
  /** The tray segment whose panel is open (its name), and the rack or segment last flown to. */
  tray: string | null;
  /** Increments on each report received (the painters report which one they drew). */
  received: number;
  /** Increments when facility settings are saved (the report is fetched again). */
  revision: number;
}

export const useFacility = create<FacilityState>(() => ({
  view: null,
  pending: false,
  error: null,
  shown: false,
  tray: null,
  received: 0,
  revision: 0,
}));

export function showFacility(shown: boolean): void {
  useFacility.setState({ shown, ...(shown ? {} : { tray: null }) });
}

export function selectTray(name: string | null): void {
  useFacility.setState({ tray: name });
}

/** Facility settings were saved: the report is stale. */
export function facilityChanged(): void {
  useFacility.setState((s) => ({ revision: s.revision + 1 }));
}

export interface FacilityDrawn {
  /** The report (`received`) each painter last drew, while the heat map is on (null: not drawn). */
  racks: number | null;
  trays: number | null;
  /** A tray segment's drawn colour, read back from the scene's buffers. */
  trayColour: (name: string) => string | null;
  /** performance.now() of the first frame each painter drew with a report, after the heat map was switched on. */
  paintedAt: number | null;
}

declare module "./testHook" {
  interface LooplineDebug {
    /** The facility heat map as drawn (tests and the benchmark read it). */
    facility?: FacilityDrawn;
  }
}

/** Written by the scene's painters. */
export function reportFacility(part: Partial<FacilityDrawn>): void {
  const h = debugHandle();
  h.facility ??= { racks: null, trays: null, trayColour: () => null, paintedAt: null };
  Object.assign(h.facility, part);
}

// --- A rack's loads against its limits -----------------------------------------------------------

export interface LoadLine {
  /** `feed-A`, `budget`, `heat`, `weight`, `floor`. */
  key: string;
  label: string;
  /** "28.0 kW of 5.9 kW": the load and the limit it is measured against. */
  text: string;
  /** Share of the limit, %; null where the rack has no limit of that kind. */
  pct: number | null;
}

const kW = (w: number) => `${(w / 1000).toFixed(1)} kW`;
const kg = (x: number) => `${Math.round(x).toLocaleString("en")} kg`;
const share = (load: number, limit: number | null | undefined) => (limit && limit > 0 ? (load / limit) * 100 : null);

/**
 * The property panel's lines for a rack: each feed's load (the whole rack's maximum, alone when it has
 * two feeds) against its continuous limit, the maximum draw against the budget, heat against the rack's
 * cooling, weight against its static load, and its load per m² against the hall's floor rating.
 */
export function rackLoadLines(r: RackLoad, floorRatingKgM2: number | null): LoadLine[] {
  const lines: LoadLine[] = r.feeds.map((f) => ({
    key: `feed-${f.feed}`,
    label: `Feed ${f.feed}`,
    // The continuous share is the hall's (the domain's 80 %): read from the report, not repeated here.
    text: `${kW(f.load_w)} of ${kW(f.limit_w)} (${f.capacity_w > 0 ? Math.round((f.limit_w / f.capacity_w) * 100) : 0} % of ${kW(f.capacity_w)})`,
    pct: share(f.load_w, f.limit_w),
  }));
  lines.push({
    key: "budget",
    label: "Power budget",
    text: r.budgetW === null ? `${kW(r.maxW)} max, no budget of its own` : `${kW(r.maxW)} max of ${kW(r.budgetW)}`,
    pct: share(r.maxW, r.budgetW),
  });
  lines.push({
    key: "heat",
    label: "Heat",
    text:
      r.coolingW === null
        ? `${kW(r.maxW)}, cooled by its row or the hall`
        : `${kW(r.maxW)} against ${kW(r.coolingW)} of cooling`,
    pct: share(r.maxW, r.coolingW),
  });
  lines.push({
    key: "weight",
    label: "Weight",
    text:
      r.staticLoadKg === null
        ? `${kg(r.weightKg)}, static load not known`
        : `${kg(r.weightKg)} of ${kg(r.staticLoadKg)} static load`,
    pct: share(r.weightKg, r.staticLoadKg),
  });
  lines.push({
    key: "floor",
    label: "Floor",
    text:
      floorRatingKgM2 === null
        ? `${Math.round(r.floorKgM2).toLocaleString("en")} kg/m²`
        : `${Math.round(r.floorKgM2).toLocaleString("en")} of ${Math.round(floorRatingKgM2).toLocaleString("en")} kg/m²`,
    pct: share(r.floorKgM2, floorRatingKgM2),
  });
  return lines;
}

/**
 * What a finding is about, from its field (`rows[R01].racks[R01-03].feeds[A]`, `trays[T3-12]`): a rack
 * or a tray segment of the report to fly to, or null (a row, a catalog model, a hall setting).
 */
export function findingTarget(view: FacilityView, field: string): Pick<WorstItem, "kind" | "name"> | null {
  const rack = /(?:^|\.)racks\[([^\]]+)\]/.exec(field)?.[1];
  if (rack !== undefined && view.byRack.has(rack)) return { kind: "rack", name: rack };
  const tray = /^trays\[([^\]]+)\]/.exec(field)?.[1];
  if (tray !== undefined && view.byTray.has(tray)) return { kind: "tray", name: tray };
  return null;
}
