/** The new-hall form: its fields, their limits (as in the API's `HallCreate`) and the request body. */
import type { Hall, HallCreateBody } from "./api";
import { checkNumber, checkText, type FieldSpec } from "./forms";

export type HallCreate = HallCreateBody;

export type HallField =
  | "name"
  | "site"
  | "width_m"
  | "depth_m"
  | "tile_m"
  | "min_cold_aisle_m"
  | "min_hot_aisle_m"
  | "tray_height_m"
  | "raised_floor_height_m";

export const HALL_FIELDS: Record<HallField, FieldSpec> = {
  name: { label: "Name" },
  site: { label: "Site code" },
  width_m: { label: "Floor width", unit: "m" },
  depth_m: { label: "Floor depth", unit: "m" },
  tile_m: { label: "Floor tile", unit: "m" },
  min_cold_aisle_m: { label: "Minimum cold aisle", unit: "m" },
  min_hot_aisle_m: { label: "Minimum hot aisle", unit: "m" },
  tray_height_m: { label: "Cable tray above the racks", unit: "m" },
  raised_floor_height_m: { label: "Raised-floor height", unit: "m" },
};

/** What the form holds: text as typed. */
export interface HallValues {
  name: string;
  site: string;
  width_m: string;
  depth_m: string;
  tile_m: string;
  min_cold_aisle_m: string;
  min_hot_aisle_m: string;
  tray_height_m: string;
  raised_floor: boolean;
  raised_floor_height_m: string;
}

/**
 * The API's defaults (HallCreate), and a floor size a first hall often has. The aisle minimums start
 * blank: left so, the server applies its own (the one owner of that rule, `layout_rules.py`).
 */
export const HALL_DEFAULTS: HallValues = {
  name: "",
  site: "S1",
  width_m: "30",
  depth_m: "20",
  tile_m: "0.6",
  min_cold_aisle_m: "",
  min_hot_aisle_m: "",
  tray_height_m: "0.3",
  raised_floor: false,
  raised_floor_height_m: "0.6",
};

const MAX_FLOOR_M = 1000;
/** Fields the server fills in when they are left blank. */
const OPTIONAL: ReadonlySet<HallField> = new Set(["min_cold_aisle_m", "min_hot_aisle_m"]);

/** The body to send, or the sentence under each field that is not acceptable. */
export function hallBody(v: HallValues): { body: HallCreate } | { errors: Partial<Record<HallField, string>> } {
  const errors: Partial<Record<HallField, string>> = {};
  const name = checkText(v.name, HALL_FIELDS.name, { min: 1, max: 100 });
  if (name) errors.name = name;
  const site = checkText(v.site, HALL_FIELDS.site, { min: 1, max: 100 });
  if (site) errors.site = site;
  const numbers: [HallField, Parameters<typeof checkNumber>[2]][] = [
    ["width_m", { gt: 0, le: MAX_FLOOR_M }],
    ["depth_m", { gt: 0, le: MAX_FLOOR_M }],
    ["tile_m", { ge: 0.3, le: 1.5 }],
    ["min_cold_aisle_m", { ge: 0, le: 10 }],
    ["min_hot_aisle_m", { ge: 0, le: 10 }],
    ["tray_height_m", { ge: 0, le: 5 }],
  ];
  if (v.raised_floor) numbers.push(["raised_floor_height_m", { gt: 0, le: 3 }]);
  const values: Partial<Record<HallField, number>> = {};
  for (const [field, limits] of numbers) {
    if (OPTIONAL.has(field) && !(v[field] as string).trim()) continue;
    const checked = checkNumber(v[field] as string, HALL_FIELDS[field], limits);
    if ("error" in checked) errors[field] = checked.error;
    else values[field] = checked.value;
  }
  if (Object.keys(errors).length) return { errors };
  const n = (f: HallField): number => values[f] ?? 0;
  // Blank minimums are left out: the server's defaults apply.
  const given = (f: "min_cold_aisle_m" | "min_hot_aisle_m") => (values[f] === undefined ? {} : { [f]: values[f] });
  return {
    body: {
      name: v.name.trim(),
      site: v.site.trim(),
      width_m: n("width_m"),
      depth_m: n("depth_m"),
      tile_m: n("tile_m"),
      ...given("min_cold_aisle_m"),
      ...given("min_hot_aisle_m"),
      tray_height_m: n("tray_height_m"),
      raised_floor: v.raised_floor,
      raised_floor_height_m: v.raised_floor ? n("raised_floor_height_m") : 0,
    },
  };
}

// ------------------------------------------------------------------ GPU hall (issue 31)

export type GpuCluster = NonNullable<HallCreate["gpu_cluster"]>;

export type GpuField =
  | "scalable_units"
  | "servers_per_su"
  | "server_model_id"
  | "servers_per_rack"
  | "rail_leaf_model_id"
  | "spine_model_id"
  | "spines"
  | "frontend_tor_model_id"
  | "frontend_spine_model_id"
  | "frontend_spines";

export const GPU_FIELDS: Record<GpuField, FieldSpec> = {
  scalable_units: { label: "Scalable units (SUs)" },
  servers_per_su: { label: "GPU servers per SU" },
  server_model_id: { label: "GPU server model" },
  servers_per_rack: { label: "GPU servers per rack" },
  rail_leaf_model_id: { label: "Rail leaf model" },
  spine_model_id: { label: "Spine model" },
  spines: { label: "Spines" },
  frontend_tor_model_id: { label: "Front-end ToR model" },
  frontend_spine_model_id: { label: "Front-end spine model" },
  frontend_spines: { label: "Front-end spines" },
};

/** The GPU cluster part of the form: numbers as typed, models by catalog id ("" = not chosen; no spine model = rail-only). */
export interface GpuValues {
  scalable_units: string;
  servers_per_su: string;
  server_model_id: string;
  servers_per_rack: string;
  rail_leaf_model_id: string;
  spine_model_id: string;
  spines: string;
  /** The GPU racks' own ToR for the front-end NICs ("" = the server's default, the rail leaf model). */
  frontend_tor_model_id: string;
  frontend_spine_model_id: string;
  frontend_spines: string;
}

/** DGX SuperPOD's shape (4 SUs of 32 servers, 4 per rack); the models are the planner's to choose. */
export const GPU_DEFAULTS: GpuValues = {
  scalable_units: "4",
  servers_per_su: "32",
  server_model_id: "",
  servers_per_rack: "4",
  rail_leaf_model_id: "",
  spine_model_id: "",
  spines: "0",
  frontend_tor_model_id: "",
  frontend_spine_model_id: "",
  frontend_spines: "0",
};

/**
 * The `gpu_cluster` block, or the sentence under each field that is not acceptable: the API schema's
 * limits (`GpuClusterCreate`), and the models chosen. Whether the models fit together, the rows fit the
 * floor and the spines go with a spine model is the server's to say (at the field it names).
 */
export function gpuClusterBody(v: GpuValues): { value: GpuCluster } | { errors: Partial<Record<GpuField, string>> } {
  const errors: Partial<Record<GpuField, string>> = {};
  const values: Partial<Record<GpuField, number>> = {};
  const numbers: [GpuField, Parameters<typeof checkNumber>[2]][] = [
    ["scalable_units", { ge: 1, le: 500, integer: true }],
    ["servers_per_su", { ge: 1, le: 512, integer: true }],
    ["servers_per_rack", { ge: 1, le: 64, integer: true }],
    ["spines", { ge: 0, le: 4096, integer: true }],
    ["frontend_spines", { ge: 0, le: 4096, integer: true }],
  ];
  for (const [field, limits] of numbers) {
    const checked = checkNumber(v[field], GPU_FIELDS[field], limits);
    if ("error" in checked) errors[field] = checked.error;
    else values[field] = checked.value;
  }
  if (!v.server_model_id) errors.server_model_id = "Choose the GPU server model.";
  if (!v.rail_leaf_model_id) errors.rail_leaf_model_id = "Choose the rail leaf model.";
  if (Object.keys(errors).length) return { errors };
  const n = (f: GpuField): number => values[f] ?? 0;
  return {
    value: {
      scalable_units: n("scalable_units"),
      servers_per_su: n("servers_per_su"),
      server_model_id: Number(v.server_model_id),
      servers_per_rack: n("servers_per_rack"),
      rail_leaf_model_id: Number(v.rail_leaf_model_id),
      spine_model_id: v.spine_model_id ? Number(v.spine_model_id) : null,
      spines: n("spines"),
      ...(v.frontend_tor_model_id ? { frontend_tor_model_id: Number(v.frontend_tor_model_id) } : {}),
      frontend_spine_model_id: v.frontend_spine_model_id ? Number(v.frontend_spine_model_id) : null,
      frontend_spines: n("frontend_spines"),
    },
  };
}

/** A GPU hall's body: the hall's own fields and its cluster, each field's sentence when either is refused. */
export function gpuHallBody(
  hall: HallValues,
  gpu: GpuValues,
): { body: HallCreate } | { errors: Partial<Record<HallField | GpuField, string>> } {
  const h = hallBody(hall);
  const g = gpuClusterBody(gpu);
  if ("errors" in h || "errors" in g)
    return { errors: { ...("errors" in h ? h.errors : {}), ...("errors" in g ? g.errors : {}) } };
  return { body: { ...h.body, gpu_cluster: g.value } };
}

/** The hall list's word for a hall's kind. */
export const HALL_KIND_LABELS: Record<Hall["kind"], string> = { gpu: "GPU hall", general: "general hall" };
