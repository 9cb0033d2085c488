/**
 * The facility settings forms, pure: a field's value as stored (set, or the domain's default the API
 * reports), what the planner typed, and the body a save sends. A blank field means "the default": it is
 * sent as null (the server's domain owns every default; the editor never repeats one).
 */

export interface SettingSpec {
  key: string;
  label: string;
  unit?: string;
  /** Choices of a select (value, label); absent: a number. */
  options?: readonly (readonly [string, string])[];
  /** A number field's bounds, as the browser checks them before sending (the server checks again). */
  min?: number;
  max?: number;
  /** The bound itself is not allowed (power factor > 0). */
  exclusiveMin?: boolean;
  /** Left blank, the field takes the default (the API's null); false: a value is required. */
  nullable?: boolean;
}

import type { SettingValue } from "../sync/facility";

export type { SettingValue };

/** What a field shows before anything is typed: a set value, or blank over the default's placeholder. */
export function initialText(v: SettingValue | undefined): string {
  if (!v || v.isDefault || v.value === null) return "";
  return String(v.value);
}

/** The placeholder of a blank field: the default it takes ("230 (default)"), or "none". */
export function placeholder(v: SettingValue | undefined): string {
  if (!v) return "";
  if (v.isDefault) return v.value === null ? "none (default)" : `${v.value} (default)`;
  return "";
}

export type Checked = { body: Record<string, number | string | null> } | { errors: Record<string, string> };

/**
 * The body of a save: every field whose text differs from what it showed, a number parsed and checked
 * against its bounds, blank as null (back to the default). Fields left as they were are not sent.
 */
export function settingsBody(
  specs: readonly SettingSpec[],
  current: Readonly<Record<string, SettingValue | undefined>>,
  typed: Readonly<Record<string, string>>,
): Checked {
  const body: Record<string, number | string | null> = {};
  const errors: Record<string, string> = {};
  for (const s of specs) {
    const text = (typed[s.key] ?? initialText(current[s.key])).trim();
    if (text === initialText(current[s.key])) continue;
    if (text === "") {
      if (s.nullable === false) errors[s.key] = `${s.label}: enter a value`;
      else body[s.key] = null;
      continue;
    }
    if (s.options) {
      if (!s.options.some(([v]) => v === text)) errors[s.key] = `${s.label}: choose one of the list`;
      else body[s.key] = text;
      continue;
    }
    const n = Number(text);
    const unit = s.unit ? ` ${s.unit}` : "";
    if (!Number.isFinite(n)) errors[s.key] = `${s.label}: enter a number`;
    else if (s.min !== undefined && (s.exclusiveMin ? n <= s.min : n < s.min))
      errors[s.key] = `${s.label}: must be ${s.exclusiveMin ? "more than" : "at least"} ${s.min}${unit}`;
    else if (s.max !== undefined && n > s.max) errors[s.key] = `${s.label}: must be at most ${s.max}${unit}`;
    else body[s.key] = n;
  }
  return Object.keys(errors).length ? { errors } : { body };
}

/** One feed's fields as the form holds them: `A.voltage_v` etc. */
export interface FeedCurrent {
  name: string;
  values: Readonly<Record<string, SettingValue | undefined>>;
}

/**
 * A rack's feeds as the API writes them (the whole list, 1 or 2 entries): each field what was typed,
 * else the value the feed has of its own, else null (the default). `count` 1 keeps feed A alone.
 */
export function feedsBody(
  specs: readonly SettingSpec[],
  feeds: readonly FeedCurrent[],
  typed: Readonly<Record<string, string>>,
  count: 1 | 2,
): { feeds: Record<string, number | string | null>[] } | { errors: Record<string, string> } {
  const out: Record<string, number | string | null>[] = [];
  const errors: Record<string, string> = {};
  for (const name of count === 1 ? ["A"] : ["A", "B"]) {
    const current = feeds.find((f) => f.name === name)?.values ?? {};
    const mine: Record<string, string> = {};
    for (const s of specs) {
      const t = typed[`${name}.${s.key}`];
      if (t !== undefined) mine[s.key] = t;
    }
    const prefixed = specs.map((s) => ({ ...s, label: `Feed ${name} ${s.label.toLowerCase()}` }));
    const checked = settingsBody(prefixed, current, mine);
    if ("errors" in checked) {
      for (const [k, v] of Object.entries(checked.errors)) errors[`${name}.${k}`] = v;
      continue;
    }
    const feed: Record<string, number | string | null> = { name };
    for (const s of specs) {
      const own = current[s.key];
      feed[s.key] = s.key in checked.body ? (checked.body[s.key] ?? null) : own && !own.isDefault ? own.value : null;
    }
    out.push(feed);
  }
  return Object.keys(errors).length ? { errors } : { feeds: out };
}

/**
 * The refusals no field of the form shows (a conflict, a rule about the whole record): said once each
 * under the form, with the field the server named when it named one.
 */
export function generalErrors(errors: Readonly<Record<string, string>>, specs: readonly SettingSpec[]): string[] {
  const shown = new Set(specs.map((s) => s.key));
  return Object.entries(errors)
    .filter(([k]) => !shown.has(k))
    .map(([k, v]) => (k ? `${k}: ${v}` : v));
}
