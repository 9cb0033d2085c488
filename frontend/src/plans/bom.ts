/**
 * A bill of materials laid out for reading: lines grouped by category with subtotals, copper vs
 * optical subtotals, the currency, and the unpriced lines (a warning, never a silent hole in the
 * total). Pure; tested in bom.test.ts.
 */
import type { Bom } from "./compare";

export type BomLine = Bom["lines"][number];

export const CATEGORIES: readonly { key: string; label: string }[] = [
  { key: "cable", label: "Cables" },
  { key: "transceiver", label: "Transceivers" },
  { key: "switch", label: "Switches" },
  { key: "nic", label: "Server NICs" },
  { key: "pdu", label: "Rack PDUs" },
];

export interface BomGroup {
  key: string;
  label: string;
  lines: BomLine[];
  quantity: number;
  subtotal: number;
}

export interface BomView {
  groups: BomGroup[];
  /** Copper vs optical (transceivers count as optical), as the API subtotals them. */
  media: { copper: number; optical: number };
  currency: string;
  total: number;
  unpriced: BomLine[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function bomView(bom: Bom): BomView {
  const groups: BomGroup[] = [];
  for (const { key, label } of CATEGORIES) {
    const lines = bom.lines.filter((l) => l.category === key);
    if (!lines.length) continue;
    groups.push({
      key,
      label,
      lines,
      quantity: lines.reduce((s, l) => s + l.quantity, 0),
      subtotal: round2(lines.reduce((s, l) => s + (l.total ?? 0), 0)),
    });
  }
  return {
    groups,
    media: { copper: bom.media_subtotals.copper, optical: bom.media_subtotals.optical },
    currency: bom.currency,
    total: bom.total,
    unpriced: bom.lines.filter((l) => l.unit_price === null),
  };
}

/** A part the price book has no price for, as a plan's cost lists it. */
export interface UnpricedPart {
  category: string;
  part_number: string;
}

/**
 * What a total leaves out, said plainly by category ("switches unpriced: ToR, spine"), and the
 * button that opens the price book at those parts ("Set switch prices…"); null when all is priced.
 */
export function unpricedNote(unpriced: readonly UnpricedPart[]): { text: string; action: string } | null {
  if (!unpriced.length) return null;
  const kinds = CATEGORIES.filter(({ key }) => unpriced.some((u) => u.category === key));
  const words = kinds.map(({ label }) => label.charAt(0).toLowerCase() + label.slice(1));
  const names = unpriced.map((u) => u.part_number).join(", ");
  const onlySwitches = kinds.length === 1 && kinds[0]?.key === "switch";
  return {
    text: `${words.join(" and ") || "parts"} unpriced (${names}): the total leaves them out`,
    action: onlySwitches ? "Set switch prices…" : "Set the missing prices…",
  };
}
