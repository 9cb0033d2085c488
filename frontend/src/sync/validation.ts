/**
 * The hall's validation report (`GET /halls/{id}/validation`): the server's rules, oversubscription
 * per layer and the fabric's ports per layer, fetched when a hall opens and after every saved edit,
 * so the status bar says a layout cannot be wired before anyone presses Generate.
 */
import { create } from "zustand";
import type * as A from "./apiTypes";
import { request } from "./http";

export interface ValidationState {
  hallId: number | null;
  report: A.HallValidationRead | null;
}

export const useValidation = create<ValidationState>(() => ({ hallId: null, report: null }));

let asked = 0;
/** Fetch the report; an answer to an older question than the last one is dropped. */
export async function refreshValidation(hallId: number): Promise<void> {
  const mine = ++asked;
  try {
    const report = await request<A.HallValidationRead>("GET", `/halls/${hallId}/validation`);
    if (mine === asked) useValidation.setState({ hallId, report });
  } catch {
    // The status bar keeps the last report; saving errors are reported by the layout sync.
  }
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
