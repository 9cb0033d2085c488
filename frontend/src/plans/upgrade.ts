/**
 * "Plan an upgrade" as pure data: the change the planner picks and the request for
 * `POST /wiring-plans/{id}/upgrades` (the API keeps every other parameter of the base plan and stores
 * the upgrade with its diff). Tested in upgrade.test.ts.
 */
import type { components } from "../api/schema";

export type WiringPlan = components["schemas"]["WiringPlanRead"];
export type PlanUpgradeCreate = components["schemas"]["PlanUpgradeCreate"];
export type Pattern = components["schemas"]["Pattern"];
export type ParallelPorts = components["schemas"]["ParallelPortsIn"];
export type FacilityChange = components["schemas"]["FacilityChangeRead"];

export type UpgradeChange =
  | { kind: "ports"; ports: number }
  | { kind: "parallel"; parallel: ParallelPorts }
  | { kind: "loop"; loop: number }
  | { kind: "pattern"; pattern: Pattern };

export const UPGRADE_KINDS: readonly { kind: UpgradeChange["kind"]; label: string }[] = [
  { kind: "ports", label: "More ports per server (p → p+1)" },
  { kind: "parallel", label: "Parallel ports at a new speed (Type 2 augmentation)" },
  { kind: "loop", label: "New loop length (l)" },
  { kind: "pattern", label: "New pattern" },
];

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Ports per server the plan was built with: its `p` when given, else what the cables say (server–ToR
 * cables per server, when the request left `p` to the racks).
 */
export function currentPorts(plan: WiringPlan): number {
  const p = num(plan.spec.ports);
  if (p !== null) return p;
  const s = plan.summary;
  const toTor = s.by_class.server_tor?.count ?? 0;
  return s.servers > 0 ? Math.max(1, Math.round(toTor / s.servers)) : 1;
}

/** The suggested change of each kind, to fill the form with. */
export function defaultChange(plan: WiringPlan, kind: UpgradeChange["kind"]): UpgradeChange {
  switch (kind) {
    case "ports":
      return { kind, ports: currentPorts(plan) + 1 };
    case "parallel":
      return { kind, parallel: { ports: 1, gbps: 100, tor_server_ports: 32, clusters: 1 } };
    case "loop":
      return { kind, loop: num(plan.spec.loop) ?? 2 };
    case "pattern":
      return { kind, pattern: plan.spec.pattern === "paired-row" ? "side-to-side" : "paired-row" };
  }
}

export function describeChange(c: UpgradeChange): string {
  switch (c.kind) {
    case "ports":
      return `p=${c.ports}`;
    case "parallel":
      return `+${c.parallel.ports}×${c.parallel.gbps}G parallel`;
    case "loop":
      return `l=${c.loop}`;
    case "pattern":
      return `pattern ${c.pattern}`;
  }
}

/** The upgrade request: the change alone (the API takes the rest from the base plan), named after it. */
export function upgradeRequest(base: WiringPlan, change: UpgradeChange): PlanUpgradeCreate {
  const full = `${base.name} → ${describeChange(change)}`;
  const name = full.length > 200 ? full.slice(full.length - 200) : full;
  switch (change.kind) {
    case "ports":
      return { name, ports: change.ports };
    case "parallel":
      return { name, parallel: change.parallel };
    case "loop":
      return { name, loop: change.loop };
    case "pattern":
      return { name, pattern: change.pattern };
  }
}

export type WiringOption = components["schemas"]["WiringOptionRead"];
export type WiringOptions = components["schemas"]["WiringOptions"];

/** The form's change for an offered option (its `change` is the request body's fields). */
export function optionChange(o: WiringOption): UpgradeChange {
  const c = o.change;
  switch (o.kind) {
    case "ports":
      return { kind: "ports", ports: Number(c.ports) };
    case "parallel":
      return { kind: "parallel", parallel: c.parallel as ParallelPorts };
    case "loop":
      return { kind: "loop", loop: Number(c.loop) };
    case "pattern":
      return { kind: "pattern", pattern: c.pattern as Pattern };
  }
}

/** The offered option the form's change is, if it is one (same kind, same values). */
export function offeredOption(options: readonly WiringOption[], change: UpgradeChange): WiringOption | null {
  const same = (o: WiringOption) => JSON.stringify(optionChange(o)) === JSON.stringify(change);
  return options.find(same) ?? null;
}

/** What an upgrade asks more of the hall's plant than its base plan, in words; null for other plans. */
export function upgradeFacilityNote(plan: WiringPlan): string | null {
  const change = plan.summary.facility.change;
  return change ? `This upgrade ${change.words}.` : null;
}

const signed = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toLocaleString("en")}`;
/** A change of power with its sign: +20 W, −2.5 kW. */
const signedKw = (w: number) =>
  Math.abs(w) < 1000 ? `${signed(Math.round(w))} W` : `${signed(Math.round(w / 100) / 10)} kW`;

/** The change's figures after its sentence: "+38 kW at most, +24 kW typical, +120 kg". A figure the API
 * marks `incomplete` (a plan leaves a device or cable out of it for a missing catalog fact) is no known
 * difference, so it is said to be unknown rather than printed. */
export function plantFigures(change: FacilityChange): string {
  const unknown = (total: string) => change.incomplete.includes(total);
  const most = unknown("max_w") ? "power at most not known" : `${signedKw(change.max_w)} at most`;
  const typical =
    unknown("typical_w") || unknown("max_w") ? "typical not known" : `${signedKw(change.typical_w)} typical`;
  const weight = unknown("weight_kg") ? "weight not known" : `${signed(Math.round(change.weight_kg))} kg`;
  return `${most}, ${typical}, ${weight}`;
}
