/**
 * The price book table as pure data: the parts with their prices, what the user typed over them, and
 * the edit that sends (upserts, removals back to the default). Drafts survive a reload after someone
 * else saved (409/412): they are re-applied over the fresh table. Tested in priceBook.test.ts.
 */
import type { components } from "../api/schema";

export type PricedPart = components["schemas"]["PricedPartRead"];
export type PricedParts = components["schemas"]["PricedPartsRead"];
export type PriceBookPatch = components["schemas"]["PriceBookPatch"];

/** What is typed in a row: prices as text ("" = no project price: back to the default). */
export interface Draft {
  base: string;
  perMetre: string;
}

export type Drafts = Record<string, Draft>;

export function draftOf(p: PricedPart): Draft {
  return {
    base: p.source === "project" && p.base_price !== null ? String(p.base_price) : "",
    perMetre: p.source === "project" && p.per_metre !== null && p.per_metre !== 0 ? String(p.per_metre) : "",
  };
}

/** A draft that differs from what the table holds. */
export function isDirty(p: PricedPart, d: Draft | undefined): boolean {
  if (!d) return false;
  const now = draftOf(p);
  return d.base.trim() !== now.base || d.perMetre.trim() !== now.perMetre;
}

function price(text: string): number | null | "bad" {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : "bad";
}

export interface Edit {
  patch: PriceBookPatch;
  /** Part number -> what is wrong with its draft; nothing is sent while any. */
  errors: Record<string, string>;
  count: number;
}

/** The PATCH for the dirty rows: a price sets the project's entry, an emptied one removes it. */
export function pendingEdit(parts: readonly PricedPart[], drafts: Drafts): Edit {
  const patch: PriceBookPatch = { upsert: [], remove: [] };
  const errors: Record<string, string> = {};
  let count = 0;
  for (const p of parts) {
    const d = drafts[p.part_number];
    if (!d || !isDirty(p, d)) continue;
    count += 1;
    const base = price(d.base);
    const perMetre = price(d.perMetre);
    if (base === "bad" || perMetre === "bad") {
      errors[p.part_number] = "a price is a number, 0 or more";
      continue;
    }
    if (base === null && perMetre === null) {
      if (p.source === "project") patch.remove?.push(p.part_number);
      continue;
    }
    // An input left empty keeps the price in force (the default's, or the project's own).
    patch.upsert?.push({
      part_number: p.part_number,
      category: p.category,
      description: p.description,
      base_price: base ?? p.base_price ?? 0,
      per_metre: perMetre ?? p.per_metre ?? 0,
    });
  }
  return { patch, errors, count };
}

/** After a reload: keep only the drafts that still differ from the fresh table (nothing typed is lost). */
export function rebaseDrafts(parts: readonly PricedPart[], drafts: Drafts): Drafts {
  const out: Drafts = {};
  const byPart = new Map(parts.map((p) => [p.part_number, p]));
  for (const [pn, d] of Object.entries(drafts)) {
    const p = byPart.get(pn);
    if (!p || isDirty(p, d)) out[pn] = d;
  }
  return out;
}
