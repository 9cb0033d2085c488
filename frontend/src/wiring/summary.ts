/** What the plan summary shows, computed from the plan and its render buffers (pure; tested). */
import type { RenderBuffers, WiringPlan } from "../state/wiring";

/** The fields of `WiringPlanRead.summary` the panel reads (the API types it as a free-form object). */
export interface PlanSummary {
  cables?: number;
  media?: Record<string, number>;
  warnings?: string[];
  max_raw_length_m?: number;
  copper_share?: number;
  cable_cost?: number;
  loops?: number;
}

export function planSummary(plan: WiringPlan): PlanSummary {
  return plan.summary as PlanSummary;
}

/** Indices of the `n` longest cables, longest first. */
export function longestCables(b: RenderBuffers, n = 8): number[] {
  const idx = Array.from(b.raw_length_mm.keys());
  idx.sort((x, y) => (b.raw_length_mm[y] ?? 0) - (b.raw_length_mm[x] ?? 0));
  return idx.slice(0, n);
}

/** A warning that names a device or rack (`H1.R01.K03`) leads to the first cable with that name in its label. */
export function warningTarget(labels: readonly string[], warning: string): number | null {
  const tokens = warning.match(/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/g) ?? [];
  for (const t of tokens) {
    const i = labels.findIndex((l) => l.includes(t));
    if (i >= 0) return i;
  }
  return null;
}
