/**
 * The hall's validation report (`GET /halls/{id}/validation`): the server's rules, its aisles (kind,
 * width, the hall's minimum, too narrow or not), oversubscription per layer and the fabric's ports per
 * layer, fetched when a hall opens and after every saved edit. The server is the one judge of a layout:
 * the floor draws the report's aisles and the status bar its warnings, so a layout that cannot be wired
 * says so before anyone presses Generate.
 *
 * While an edit is being saved or its report fetched, the last report stays on screen, marked stale.
 */
import { create } from "zustand";
import type { Box } from "../model/geometry";
import { formatLength } from "../model/units";
import type * as A from "./apiTypes";
import { request } from "./http";

export interface ValidationState {
  hallId: number | null;
  report: A.HallValidationRead | null;
  /** A report is being fetched: the one shown is for the layout as it was before the last edit. */
  pending: boolean;
}

export const useValidation = create<ValidationState>(() => ({ hallId: null, report: null, pending: false }));

let asked = 0;
/** Fetch the report; an answer to an older question than the last one is dropped. */
export async function refreshValidation(hallId: number): Promise<void> {
  const mine = ++asked;
  useValidation.setState({ pending: true });
  try {
    const report = await request<A.HallValidationRead>("GET", `/halls/${hallId}/validation`);
    if (mine === asked) useValidation.setState({ hallId, report });
  } catch {
    // The status bar keeps the last report; saving errors are reported by the layout sync.
  } finally {
    if (mine === asked) useValidation.setState({ pending: false });
  }
}

/** An aisle of the report in the editor's millimetres, ready to draw and to name. */
export interface ReportedAisle {
  key: string;
  kind: A.AisleRead["kind"];
  /** Row names on either side. */
  rowA: string;
  rowB: string;
  widthMm: number;
  /** The hall's minimum for this kind of aisle. */
  minWidthMm: number;
  tooNarrow: boolean;
  box: Box;
}

const mm = (m: number) => Math.round(m * 1000);

export function reportedAisles(report: Pick<A.HallValidationRead, "aisles"> | null): ReportedAisle[] {
  return (report?.aisles ?? []).map((a) => ({
    key: `${a.row_a}|${a.row_b}`,
    kind: a.kind,
    rowA: a.row_a,
    rowB: a.row_b,
    widthMm: mm(a.width_m),
    minWidthMm: mm(a.min_width_m),
    tooNarrow: a.too_narrow,
    box: { x0: mm(a.x0_m), y0: mm(a.y0_m), x1: mm(a.x1_m), y1: mm(a.y1_m) },
  }));
}

const AISLE_NAME: Record<A.AisleRead["kind"], string> = { cold: "Cold aisle", hot: "Hot aisle", mixed: "Mixed aisle" };

/** "Cold aisle 1.00 m ⚠ too narrow (min 1.50 m)": the floor label of a reported aisle. */
export function aisleLabel(a: ReportedAisle): string {
  const narrow = a.tooNarrow ? ` ⚠ too narrow (min ${formatLength(a.minWidthMm)})` : "";
  return `${AISLE_NAME[a.kind]} ${formatLength(a.widthMm)}${narrow}`;
}

/** "⚠ cold aisle R01/R02 is 1.00 m (min 1.50 m)": the status bar's warning for a narrow aisle. */
export function aisleWarning(a: ReportedAisle): string {
  return `⚠ ${a.kind} aisle ${a.rowA}/${a.rowB} is ${formatLength(a.widthMm)} (min ${formatLength(a.minWidthMm)})`;
}

const LAYER: Record<A.LayerPortsRead["layer"], [string, string]> = {
  tor: ["ToR", "ToRs"],
  agg: ["aggregation switch", "aggregation switches"],
  spine: ["spine", "spines"],
  core: ["core switch", "core switches"],
};

/** "Spines short of ports: 544 needed, 512 available (SP1 needs 68 of 64)". */
export function portShortage(l: A.LayerPortsRead): string {
  const [, many] = LAYER[l.layer];
  const kind = l.direction === "uplink" ? "uplink ports" : "ports";
  return `${many.charAt(0).toUpperCase()}${many.slice(1)} short of ${kind}: ${l.ports_needed} needed, ${l.ports_available} available (${l.busiest} needs ${l.busiest_needed} of ${l.busiest_available})`;
}

/** "ToR 1.88:1 · agg 2.00:1": downlink over uplink capacity per layer that has uplinks. */
export function oversubscriptionText(layers: readonly A.LayerLoadRead[]): string {
  return layers
    .flatMap((l) => (l.ratio === null ? [] : [`${l.layer === "tor" ? "ToR" : l.layer} ${l.ratio.toFixed(2)}:1`]))
    .join(" · ");
}
