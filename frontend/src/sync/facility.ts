/**
 * The facility report and settings through the API: the report (`GET /halls/{id}/facility`, with the
 * viewed plan's cables when one is viewed) fetched after every change that can move it, and the
 * facility fields of a rack, of the hall and of a tray run written under their versions.
 *
 * A rack's facility fields are not editor records (nothing to undo on the floor): they are written
 * straight to the API, and the layout sync then reads the hall again, so the rack's new version is
 * the one its next layout edit sends (as `serverModels.ts` does for a model switch).
 */
import type { components } from "../api/schema";
import { isRack } from "../model/records";
import { useCatalog } from "../state/catalog";
import { editor } from "../state/editor";
import { useSession } from "../state/session";
import {
  facilityChanged,
  facilityView,
  modelsOfRack,
  useFacility,
  type FacilityReportApi,
  type RackModels,
} from "../state/facility";
import { activeSync } from "./active";
import type * as A from "./apiTypes";
import { ApiError, request } from "./http";

let inFlight = false;
/** Asked for while a report was being computed: fetched once that one is in (latest question wins). */
let queued: { hallId: number; planId: number | null } | null = null;

/**
 * Fetch the report. One request at a time: the checks of a big hall with a plan take seconds on the
 * server, and a burst of edits must not pile up requests; a question asked meanwhile is asked once the
 * answer in flight is in, and only the answer to the latest question stays.
 */
export async function refreshFacility(hallId: number, planId: number | null): Promise<void> {
  if (inFlight) {
    queued = { hallId, planId };
    useFacility.setState({ pending: true });
    return;
  }
  inFlight = true;
  useFacility.setState({ pending: true });
  try {
    const api = await request<FacilityReportApi>(
      "GET",
      `/halls/${hallId}/facility${planId === null ? "" : `?plan_id=${planId}`}`,
    );
    // Dropped when a newer question waits, or when the hall it is about is no longer open.
    if (!queued && useSession.getState().hallId === hallId)
      useFacility.setState((s) => ({
        view: facilityView(hallId, planId, api, rackModels()),
        error: null,
        received: s.received + 1,
      }));
  } catch (e) {
    if (!queued) useFacility.setState({ error: e instanceof Error ? e.message : String(e) });
  } finally {
    inFlight = false;
    const next = queued;
    queued = null;
    if (next) void refreshFacility(next.hallId, next.planId);
    else useFacility.setState({ pending: false });
  }
}

/** Each rack's catalog models by rack name, from the layout on screen (the report names models, not racks). */
function rackModels(): (rack: string) => RackModels | undefined {
  const switches = new Map(useCatalog.getState().switchModels.map((m) => [m.id, m.name]));
  const byName = new Map<string, RackModels>();
  for (const r of Object.values(editor.records))
    if (isRack(r))
      byName.set(
        r.name,
        modelsOfRack(r, (id) => (id === undefined ? undefined : switches.get(id))),
      );
  return (rack) => byName.get(rack);
}

/** A write's refusal as `{field: message}` (the API names the field in `loc`). */
export function refusals(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError)) return { "": e instanceof Error ? e.message : String(e) };
  const out: Record<string, string> = {};
  for (const i of e.items) {
    // `["body", "facility", "feeds", 0, "breaker_a"]` -> `feeds.0.breaker_a`.
    const loc = i.loc.filter((p, k) => !(k === 0 && p === "body") && !(k === 1 && p === "facility"));
    const key = loc.join(".");
    out[key] ??= e.conflict ? `${i.msg} (someone else saved first: reload and try again)` : i.msg;
  }
  if (!Object.keys(out).length) out[""] = e.message;
  return out;
}

/** PATCH a rack's facility fields (its version read first), then let the layout sync read the hall again. */
export async function saveRackFacility(rackId: number, body: Record<string, unknown>): Promise<void> {
  // Edits on the floor first: their versions are the ones the rack is at.
  await activeSync()?.idle();
  const rack = await request<{ version: number }>("GET", `/racks/${rackId}`);
  await request("PATCH", `/racks/${rackId}`, { body: { facility: body }, version: rack.version });
  await activeSync()?.reload({ clearHistory: false });
  facilityChanged();
}

/** PATCH the hall's facility settings under the version it was read at. */
export async function saveHallFacility(hallId: number, version: number, body: Record<string, unknown>): Promise<void> {
  await request("PATCH", `/halls/${hallId}`, { body, version });
  facilityChanged();
}

/**
 * A tray run's own tray (width x usable depth, rating), replacing its level's; null: back to the level's.
 * Written under the hall's version (tray runs are part of the hall's settings).
 */
export async function saveTrayRun(
  hallId: number,
  hallVersion: number,
  run: string,
  tray: { width_mm: number; usable_depth_mm: number; load_kg_per_m: number } | null,
): Promise<void> {
  const path = `/halls/${hallId}/tray-runs/${encodeURIComponent(run)}`;
  if (tray) await request("PUT", path, { body: tray, version: hallVersion });
  else await request("DELETE", path, { version: hallVersion });
  facilityChanged();
}

// --- Settings as the API reads them -----------------------------------------------------------

type S = components["schemas"];

/** A setting's effective value and whether it is the domain's default. */
export interface SettingValue {
  value: number | string | null;
  isDefault: boolean;
}

export const TRAY_LEVELS = [
  "above-racks",
  "cross-aisle",
  "under-floor",
] as const satisfies readonly S["TrayRead"]["level"][];

export type TraySpec = S["TrayRunPut"];

export interface HallSettings {
  version: number;
  /** By API field name; a level's tray as `tray.<level>.<field>`. */
  values: Record<string, SettingValue>;
}

export interface FeedSettings {
  name: string;
  values: Record<string, SettingValue>;
}

export interface RackSettings {
  id: number;
  version: number;
  values: Record<string, SettingValue>;
  feeds: FeedSettings[];
}

export type PduModel = S["PduModelRead"];

export const HALL_SETTING_KEYS = [
  "floor_load_kg_m2",
  "hall_cooling_kw",
  "power_factor",
  "max_phase_imbalance_pct",
  "max_tray_fill_pct",
  "max_signal_tray_fill_pct",
  "tray_bend_radius_mm",
] as const satisfies readonly (keyof S["HallFacilityRead"])[];
const TRAY_FIELDS = [
  "width_mm",
  "usable_depth_mm",
  "load_kg_per_m",
] as const satisfies readonly (keyof S["TrayRead"])[];
export const RACK_SETTING_KEYS = [
  "power_budget_kw",
  "cooling_kw",
  "cooling_kind",
  "static_load_kg",
] as const satisfies readonly (keyof S["RackFacilityRead"])[];
export const FEED_SETTING_KEYS = [
  "voltage_v",
  "phases",
  "breaker_a",
  "pdu_model_id",
] as const satisfies readonly (keyof S["FeedRead"])[];

/**
 * The settings of a read (`HallFacilityRead`, `RackFacilityRead`, a feed, a tray) as the forms hold
 * them: each key's value and whether `defaults` names it (with `prefix`, e.g. `trays.above-racks.`).
 */
export function settingsOf<T extends object>(
  read: T,
  keys: readonly (keyof T & string)[],
  defaults: readonly string[],
  prefix = "",
  formPrefix = "",
): Record<string, SettingValue> {
  const named = new Set(defaults);
  return Object.fromEntries(
    keys.map((k) => [
      `${formPrefix}${k}`,
      { value: (read[k] as number | string | null | undefined) ?? null, isDefault: named.has(`${prefix}${k}`) },
    ]),
  );
}

/** The hall's facility settings in effect (`HallRead.facility`), which are defaults, and its version. */
export async function loadHallSettings(hallId: number): Promise<HallSettings> {
  const hall = await request<A.HallRead>("GET", `/halls/${hallId}`);
  const f = hall.facility;
  const values = settingsOf(f, HALL_SETTING_KEYS, f.defaults);
  for (const t of f.trays)
    Object.assign(values, settingsOf(t, TRAY_FIELDS, f.defaults, `trays.${t.level}.`, `tray.${t.level}.`));
  return { version: hall.version, values };
}

/** The hall PATCH body from the settings form's changes (`tray.<level>.<field>` regrouped per level). */
export function hallPatch(changes: Record<string, number | string | null>): { facility: Record<string, unknown> } {
  const facility: Record<string, unknown> = {};
  const trays: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(changes)) {
    const m = /^tray\.([^.]+)\.(.+)$/.exec(k);
    if (m) (trays[m[1] ?? ""] ??= {})[m[2] ?? ""] = v;
    else facility[k] = v;
  }
  if (Object.keys(trays).length) facility.trays = trays;
  return { facility };
}

/** A rack's facility settings in effect (`RackRead.facility`) and its version. */
export async function loadRackSettings(rackId: number): Promise<RackSettings> {
  const rack = await request<A.RackRead>("GET", `/racks/${rackId}`);
  const f = rack.facility;
  // Default feeds (none set) are each wholly default.
  const feeds = f.feeds.map((feed) => ({
    name: feed.name,
    values: settingsOf(feed, FEED_SETTING_KEYS, f.defaults.includes("feeds") ? [...FEED_SETTING_KEYS] : feed.defaults),
  }));
  return { id: rackId, version: rack.version, values: settingsOf(f, RACK_SETTING_KEYS, f.defaults), feeds };
}

export async function loadTrayRuns(hallId: number): Promise<Map<string, TraySpec>> {
  const page = await request<{ items: S["TrayRunRead"][] }>("GET", `/halls/${hallId}/tray-runs?limit=200`);
  return new Map(page.items.map((r) => [r.name, r]));
}

export async function loadPduModels(): Promise<PduModel[]> {
  const res = await request<{ items: PduModel[] }>("GET", "/catalog/pdu-models?limit=200");
  return res.items;
}

/** A row's own cooling (`RowRead.facility`, null: it shares the hall's) and its version. */
export async function loadRowCooling(rowId: number): Promise<{ version: number; cooling: SettingValue }> {
  const row = await request<A.RowRead>("GET", `/rows/${rowId}`);
  return {
    version: row.version,
    cooling: settingsOf(row.facility, ["cooling_kw"], row.facility.defaults).cooling_kw ?? {
      value: null,
      isDefault: true,
    },
  };
}

/** PATCH a row's cooling (null: back to the hall's) under its version; the layout sync then reads the hall again. */
export async function saveRowCooling(rowId: number, coolingKw: number | null): Promise<void> {
  await activeSync()?.idle();
  const row = await request<A.RowRead>("GET", `/rows/${rowId}`);
  await request("PATCH", `/rows/${rowId}`, { body: { facility: { cooling_kw: coolingKw } }, version: row.version });
  await activeSync()?.reload({ clearHistory: false });
  facilityChanged();
}
