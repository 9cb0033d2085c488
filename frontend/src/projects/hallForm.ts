/** The new-hall form: its fields, their limits (as in the API's `HallCreate`) and the request body. */
import type { HallCreateBody } from "./api";
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
