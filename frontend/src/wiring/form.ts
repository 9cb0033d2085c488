/**
 * The wiring form as pure data: what the user typed, the request it becomes, and the server's
 * refusals mapped back onto the fields on screen. No React, no fetch (tested in form.test.ts).
 */
import type { components } from "../api/schema";
import { ApiError, type ErrorItem } from "../sync/http";
import type { HallRead } from "../sync/apiTypes";

export type Pattern = components["schemas"]["Pattern"];
export type WiringPlanCreate = components["schemas"]["WiringPlanCreate"];
type ParallelPorts = components["schemas"]["ParallelPortsIn"];
type RailIn = components["schemas"]["RailIn"];
/** `RailIn` with the settings the server defaults (spine planes) left out when not typed. */
export type RailBody = Omit<RailIn, "spine_planes"> & Partial<Pick<RailIn, "spine_planes">>;
/** The body the form sends: `WiringPlanCreate`, its rail block as above. */
export type PlanBody = Omit<WiringPlanCreate, "rail"> & { rail?: RailBody | null };
export type Cabling = WiringPlanCreate["cabling"];
/** Where ToR uplinks meet their first panel (the API's `structured.panel_at`). */
export type PanelAt = NonNullable<NonNullable<WiringPlanCreate["structured"]>["panel_at"]>;

/** The network a plan wires: a GPU server's compute NICs (one per rail), or its front-end NICs (storage, management). */
export type Fabric = WiringPlanCreate["fabric"];

/** The menus' labels; a `Record` over the generated enums, so a value the API adds fails tsc until labelled. */
export const FABRIC_LABELS: Record<Fabric, string> = {
  compute: "Compute (the servers' NICs; GPU servers' compute NICs)",
  front_end: "Front end (GPU servers' front-end NICs: storage, management)",
};
export const CABLING_LABELS: Record<Cabling, string> = {
  direct: "Direct (one cable per link)",
  structured: "Structured (panels and trunks)",
};
export const PANEL_AT_LABELS: Record<PanelAt, string> = {
  rack: "in each rack",
  "row-end": "at the row end",
};

/**
 * The patterns come from the API's `Pattern` enum (src/api/schema.d.ts, generated): a pattern the
 * backend adds or drops fails tsc here until it has its label. Only the human labels live here.
 */
const PATTERN_INFO: Record<Pattern, { label: string; subways: boolean; rail: boolean }> = {
  "single-homed": { label: "Single-homed (Type 0)", subways: false, rail: false },
  "mc-lag": { label: "MC-LAG (dual-homed)", subways: false, rail: false },
  "side-to-side": { label: "Subways · side-to-side", subways: true, rail: false },
  "paired-row": { label: "Subways · paired rows", subways: true, rail: false },
  "inter-chassis": { label: "Subways · inter-chassis", subways: true, rail: false },
  grin: { label: "GRIN (server-to-server)", subways: false, rail: false },
  // GPU clusters (issue 31): built from `rail` (SU size, leaf model, oversubscription).
  "rail-optimized": { label: "Rail-optimized (GPU)", subways: false, rail: true },
  "rail-only": { label: "Rail-only (GPU)", subways: false, rail: true },
};

/** In the order of the pattern menu. */
export const PATTERNS: readonly { value: Pattern; label: string }[] = (Object.keys(PATTERN_INFO) as Pattern[]).map(
  (value) => ({ value, label: PATTERN_INFO[value].label }),
);

export function isSubways(pattern: Pattern): boolean {
  return PATTERN_INFO[pattern].subways;
}

/** A GPU cluster's compute fabric: servers in scalable units, NIC i of each on rail leaf i of its SU. */
export function isRail(pattern: Pattern): boolean {
  return PATTERN_INFO[pattern].rail;
}

/** What the inputs hold (numbers as typed: "" means the server's default). */
export interface WiringForm {
  /** Which network of the servers this plan wires (a plan holds one). */
  fabric: Fabric;
  pattern: Pattern;
  ports: string;
  subwaysType: 1 | 2;
  loop: string;
  clusters: string;
  grinDegree: string;
  grinScope: "rack" | "next-rack";
  geometry: "default" | "paper";
  routeVia: "tray" | "floor";
  /** Not on the form, but part of the plan it was opened from: carried so Generate rebuilds that plan. */
  fabricOptical: boolean;
  serviceAllowanceM: number | null;
  slackPct: number | null;
  parallel: ParallelPorts | null;
  /** Direct, or ToR uplinks through panels and trunks (server links stay direct either way). */
  cabling: Cabling;
  panelAt: PanelAt;
  /** Fast fabric ports broken out into several ToR uplinks: only with structured cabling (the server refuses it otherwise). */
  breakouts: boolean;
  /** Not on the form: the viewed plan's loss per mated pair (null: the catalog's default), carried like `slackPct`. */
  lcPairLossDb: number | null;
  mpoPairLossDb: number | null;
  /** Rail patterns: servers per scalable unit, as typed. */
  suSize: string;
  /** Rail patterns: the catalog switch model of the rail leaves (null: not chosen yet). */
  leafModelId: number | null;
  /** Rail-optimized only: a leaf's server-facing over spine-facing Gb/s, as typed ("" = the server's 1:1). */
  oversubscription: string;
  /** Rail-optimized only: spine planes (rail i's leaves to plane i mod planes), as typed ("" = the server's default). */
  spinePlanes: string;
}

export const INITIAL_FORM: WiringForm = {
  fabric: "compute",
  pattern: "paired-row",
  ports: "",
  subwaysType: 1,
  loop: "",
  clusters: "2",
  grinDegree: "1",
  grinScope: "rack",
  geometry: "default",
  routeVia: "tray",
  fabricOptical: true,
  serviceAllowanceM: null,
  slackPct: null,
  parallel: null,
  cabling: "direct",
  panelAt: "row-end",
  breakouts: false,
  lcPairLossDb: null,
  mpoPairLossDb: null,
  suSize: "",
  leafModelId: null,
  oversubscription: "",
  spinePlanes: "",
};

/**
 * The form a hall's first plan starts from: a GPU hall is wired by rail (its GPUs' NICs, one per
 * rail), so its form starts on the rail-optimized pattern; the planner fills in the SU size and the
 * leaf model.
 */
export function initialFormFor(hallKind: HallRead["kind"]): WiringForm {
  return hallKind === "gpu" ? { ...INITIAL_FORM, pattern: "rail-optimized" } : INITIAL_FORM;
}

/** The form with cabling `c`: breakouts are built in the plant, so direct cabling clears them. */
export function withCabling(f: WiringForm, c: Cabling): WiringForm {
  return { ...f, cabling: c, breakouts: c === "structured" && f.breakouts };
}

/** Fields with an error message slot; `generate` is the one under the Generate button. */
export type ErrorField =
  | "fabric"
  | "ports"
  | "loop"
  | "subwaysType"
  | "clusters"
  | "grinDegree"
  | "cabling"
  | "panelAt"
  | "breakouts"
  | "suSize"
  | "leafModelId"
  | "oversubscription"
  | "spinePlanes"
  | "generate";
export type FormErrors = Partial<Record<keyof WiringForm | "generate", string>>;

/** Which optional inputs are on screen for this form. */
export function shownFields(f: WiringForm): Record<Exclude<ErrorField, "generate">, boolean> {
  const subways = isSubways(f.pattern);
  return {
    fabric: true,
    ports: true,
    loop: subways,
    subwaysType: subways,
    clusters: subways && f.subwaysType === 2,
    grinDegree: f.pattern === "grin",
    cabling: true,
    panelAt: f.cabling === "structured",
    breakouts: true,
    suSize: isRail(f.pattern),
    leafModelId: isRail(f.pattern),
    // rail-only has no spine, so no ratio to ask for (the server refuses one)
    oversubscription: f.pattern === "rail-optimized",
    spinePlanes: f.pattern === "rail-optimized",
  };
}

export function planName(f: WiringForm): string {
  const subways = isSubways(f.pattern);
  const bits = [
    f.fabric === "front_end" && "front end",
    f.ports && `p=${f.ports}`,
    subways && `Type ${f.subwaysType}`,
    f.loop && `l=${f.loop}`,
    subways && f.subwaysType === 2 && `c=${f.clusters}`,
    f.pattern === "grin" && `n=${f.grinDegree}`,
    f.parallel && `+${f.parallel.ports}×${f.parallel.gbps}G parallel`,
    f.cabling === "structured" && `structured, panels ${PANEL_AT_LABELS[f.panelAt]}`,
    f.cabling === "structured" && f.breakouts && "breakouts",
    isRail(f.pattern) && f.suSize && `SU=${f.suSize}`,
    f.pattern === "rail-optimized" && f.oversubscription && `${f.oversubscription}:1`,
    f.pattern === "rail-optimized" && f.spinePlanes && `${f.spinePlanes} spine planes`,
  ].filter(Boolean);
  return `${PATTERN_INFO[f.pattern].label}${bits.length ? ` (${bits.join(", ")})` : ""}`;
}

/** The request body for `POST /halls/{id}/wiring-plans`. */
export function toPlanCreate(f: WiringForm): PlanBody {
  const subways = isSubways(f.pattern);
  const body: PlanBody = {
    name: planName(f),
    fabric: f.fabric,
    pattern: f.pattern,
    geometry: f.geometry,
    route_via: f.routeVia,
    fabric_optical: f.fabricOptical,
    grin_scope: f.grinScope,
    subways_type: f.subwaysType,
    clusters: subways && f.subwaysType === 2 ? Number(f.clusters) || 1 : 1,
    grin_degree: f.pattern === "grin" ? Number(f.grinDegree) || 0 : 0,
    cabling: f.cabling,
    breakouts: f.cabling === "structured" && f.breakouts,
  };
  if (f.ports) body.ports = Number(f.ports);
  if (f.loop) body.loop = Number(f.loop);
  if (f.serviceAllowanceM !== null) body.service_allowance_m = f.serviceAllowanceM;
  if (f.slackPct !== null) body.slack_pct = f.slackPct;
  if (f.parallel) body.parallel = f.parallel;
  if (f.cabling === "structured") {
    body.structured = { panel_at: f.panelAt, lc_pair_loss_db: f.lcPairLossDb, mpo_pair_loss_db: f.mpoPairLossDb };
  }
  if (isRail(f.pattern)) {
    // Empty or unchosen values go as NaN / 0 for the server to refuse at the field (the form never invents an SU).
    const rail: RailBody = { su_size: f.suSize === "" ? 0 : Number(f.suSize), leaf_model_id: f.leafModelId ?? 0 };
    if (f.pattern === "rail-optimized" && f.oversubscription !== "") rail.oversubscription = Number(f.oversubscription);
    if (f.pattern === "rail-optimized" && f.spinePlanes !== "") rail.spine_planes = Number(f.spinePlanes);
    body.rail = rail;
  }
  return body;
}

/**
 * What the form can refuse before sending (the server checks the rest, against the hall and the
 * catalog): a rail plan needs a whole SU size of at least 1, a leaf model and a positive ratio.
 */
export function formProblems(f: WiringForm): FormErrors {
  const errs: FormErrors = {};
  if (!isRail(f.pattern)) return errs;
  const su = Number(f.suSize);
  if (f.suSize === "" || !Number.isInteger(su) || su < 1)
    errs.suSize = "servers per SU: give a whole number of 1 or more";
  if (f.leafModelId === null) errs.leafModelId = "choose the switch model of the rail leaves";
  const ratio = Number(f.oversubscription);
  if (f.pattern === "rail-optimized" && f.oversubscription !== "" && !(Number.isFinite(ratio) && ratio > 0))
    errs.oversubscription = "oversubscription: give a ratio above 0 (1 = non-blocking)";
  const planes = Number(f.spinePlanes);
  if (f.pattern === "rail-optimized" && f.spinePlanes !== "" && !(Number.isInteger(planes) && planes >= 1))
    errs.spinePlanes = "spine planes: give a whole number of 1 or more";
  return errs;
}

const PATTERN_VALUES = new Set<string>(Object.keys(PATTERN_INFO));
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string => (num(v) === null ? "" : String(v));

/**
 * The form of a stored plan (its `spec`, the request it was generated from): what is on screen when
 * that plan is viewed, so pressing Generate rebuilds the same plan. Missing or unknown values fall back
 * to the initial form's; the upgrade link (`upgrade_from_plan_id`) is not carried (a new plan is new).
 */
export function formFromSpec(spec: Readonly<Record<string, unknown>>): WiringForm {
  const pattern =
    typeof spec.pattern === "string" && PATTERN_VALUES.has(spec.pattern)
      ? (spec.pattern as Pattern)
      : INITIAL_FORM.pattern;
  const p = spec.parallel;
  const parallel =
    p && typeof p === "object"
      ? {
          ports: num((p as Record<string, unknown>).ports) ?? 1,
          gbps: num((p as Record<string, unknown>).gbps) ?? 25,
          tor_server_ports: num((p as Record<string, unknown>).tor_server_ports) ?? 48,
          clusters: num((p as Record<string, unknown>).clusters) ?? 1,
        }
      : null;
  const rail = spec.rail && typeof spec.rail === "object" ? (spec.rail as Record<string, unknown>) : {};
  const st = spec.structured;
  const structured: Record<string, unknown> = st && typeof st === "object" ? (st as Record<string, unknown>) : {};
  return {
    fabric: spec.fabric === "front_end" ? "front_end" : "compute",
    pattern,
    ports: text(spec.ports),
    subwaysType: spec.subways_type === 2 ? 2 : 1,
    loop: text(spec.loop),
    // Hidden inputs (c outside Type 2, n outside GRIN) keep the form's defaults, as if never touched.
    clusters: (isSubways(pattern) && spec.subways_type === 2 && text(spec.clusters)) || INITIAL_FORM.clusters,
    grinDegree: (pattern === "grin" && num(spec.grin_degree) && text(spec.grin_degree)) || INITIAL_FORM.grinDegree,
    grinScope: spec.grin_scope === "next-rack" ? "next-rack" : "rack",
    geometry: spec.geometry === "paper" ? "paper" : "default",
    routeVia: spec.route_via === "floor" ? "floor" : "tray",
    fabricOptical: spec.fabric_optical !== false,
    serviceAllowanceM: num(spec.service_allowance_m),
    slackPct: num(spec.slack_pct),
    parallel,
    cabling: spec.cabling === "structured" ? "structured" : "direct",
    panelAt: structured.panel_at === "rack" ? "rack" : "row-end",
    breakouts: spec.cabling === "structured" && spec.breakouts === true,
    lcPairLossDb: num(structured.lc_pair_loss_db),
    mpoPairLossDb: num(structured.mpo_pair_loss_db),
    suSize: isRail(pattern) ? text(rail.su_size) : "",
    leafModelId: isRail(pattern) ? num(rail.leaf_model_id) : null,
    oversubscription: pattern === "rail-optimized" ? text(rail.oversubscription) : "",
    spinePlanes: pattern === "rail-optimized" ? text(rail.spine_planes) : "",
  };
}

/** API body fields -> form fields. */
const FIELD_OF: Partial<Record<string, Exclude<ErrorField, "generate">>> = {
  fabric: "fabric",
  ports: "ports",
  loop: "loop",
  clusters: "clusters",
  grin_degree: "grinDegree",
  subways_type: "subwaysType",
  cabling: "cabling",
  structured: "panelAt",
  "structured.panel_at": "panelAt",
  breakouts: "breakouts",
  rail: "suSize",
  "rail.su_size": "suSize",
  "rail.leaf_model_id": "leafModelId",
  "rail.oversubscription": "oversubscription",
  "rail.spine_planes": "spinePlanes",
};

/**
 * The server's `{loc, msg}` items under the fields they name; errors about a field that is not on
 * screen (or about no field) go under the Generate button. Several on one field are joined by "; ".
 */
export function formErrors(f: WiringForm, items: readonly ErrorItem[]): FormErrors {
  const shown = shownFields(f);
  const errs: FormErrors = {};
  for (const item of items) {
    const path = item.loc.filter((l) => l !== "body");
    // Of the plant's settings only the placement is on the form (the losses are carried from the plan).
    const key =
      (path[0] === "structured" || path[0] === "rail") && path[1] !== undefined
        ? `${path[0]}.${path[1]}`
        : String(path[0] ?? "generate");
    const field = Object.hasOwn(FIELD_OF, key) ? FIELD_OF[key] : undefined;
    const name: ErrorField = field && shown[field] ? field : "generate";
    const before = errs[name];
    errs[name] = before ? `${before}; ${item.msg}` : item.msg;
  }
  return errs;
}

/** Errors to show after generating failed with `error`. */
export function generateErrors(f: WiringForm, error: unknown): FormErrors {
  return error instanceof ApiError ? formErrors(f, error.items) : { generate: String(error) };
}
