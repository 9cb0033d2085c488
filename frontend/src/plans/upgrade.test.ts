import { describe, expect, it } from "vitest";
import {
  currentPorts,
  defaultChange,
  offeredOption,
  optionChange,
  plantFigures,
  upgradeFacilityNote,
  upgradeRequest,
  type WiringOption,
  type WiringPlan,
} from "./upgrade";

function plan(spec: Record<string, unknown>, servers = 0, serverTor = 0): WiringPlan {
  const stats = {
    count: serverTor,
    min_raw_length_m: 0,
    mean_raw_length_m: 0,
    max_raw_length_m: 0,
    max_ordered_length_m: 0,
    media: {},
  };
  return {
    id: 7,
    project_id: 1,
    hall_id: 2,
    name: "Subways · paired rows (Type 1)",
    spec,
    base_plan_id: null,
    summary: { servers, by_class: { server_tor: stats } } as unknown as WiringPlan["summary"],
    diff: null,
    loops: [],
    created_at: "2026-01-01T00:00:00Z",
    version: 1,
  };
}

describe("plan an upgrade", () => {
  it("p -> p+1 from a plan that left p to the racks: p read from the cables (server-ToR cables per server)", () => {
    const base = plan({ pattern: "paired-row", ports: null }, 600, 1200);
    expect(currentPorts(base)).toBe(2);
    expect(defaultChange(base, "ports")).toEqual({ kind: "ports", ports: 3 });
    expect(upgradeRequest(base, { kind: "ports", ports: 3 })).toEqual({
      name: "Subways · paired rows (Type 1) → p=3",
      ports: 3,
    });
  });

  it("a plan with p given upgrades from that p; each kind sends only its change", () => {
    const base = plan({ pattern: "paired-row", ports: 3, loop: 4 }, 600, 1200);
    expect(defaultChange(base, "ports")).toEqual({ kind: "ports", ports: 4 });
    expect(defaultChange(base, "loop")).toEqual({ kind: "loop", loop: 4 });
    expect(defaultChange(base, "pattern")).toEqual({ kind: "pattern", pattern: "side-to-side" });
    const parallel = { ports: 1, gbps: 100, tor_server_ports: 32, clusters: 2 };
    expect(upgradeRequest(base, { kind: "parallel", parallel })).toEqual({
      name: "Subways · paired rows (Type 1) → +1×100G parallel",
      parallel,
    });
    expect(upgradeRequest(base, { kind: "loop", loop: 8 })).toEqual({
      name: "Subways · paired rows (Type 1) → l=8",
      loop: 8,
    });
    expect(upgradeRequest(base, { kind: "pattern", pattern: "side-to-side" })).toEqual({
      name: "Subways · paired rows (Type 1) → pattern side-to-side",
      pattern: "side-to-side",
    });
  });

  it("names stay within the API's 200 characters, keeping the change at the end", () => {
    const base = { ...plan({}), name: "x".repeat(199) };
    const name = upgradeRequest(base, { kind: "ports", ports: 2 }).name;
    expect(name).toHaveLength(200);
    expect(name.endsWith("→ p=2")).toBe(true);
  });
});

describe("offered upgrades", () => {
  const option = (kind: WiringOption["kind"], label: string, change: Record<string, unknown>): WiringOption => ({
    kind,
    label,
    change,
    feasible: true,
    field: null,
    reason: null,
    needs_hardware: null,
  });
  const options = [
    option("ports", "p=3", { ports: 3 }),
    option("loop", "l=4", { loop: 4 }),
    option("pattern", "pattern grin", { pattern: "grin" }),
  ];
  it("an option is the form's change of its kind, and the form's change finds its option", () => {
    expect(options.map(optionChange)).toEqual([
      { kind: "ports", ports: 3 },
      { kind: "loop", loop: 4 },
      { kind: "pattern", pattern: "grin" },
    ]);
    expect(offeredOption(options, { kind: "loop", loop: 4 })?.label).toBe("l=4");
    expect(offeredOption(options, { kind: "loop", loop: 5 })).toBeNull();
  });
});

describe("an upgrade's plant", () => {
  it("says in words what the upgrade adds, from the API's sentence; nothing for a plan that is no upgrade", () => {
    const change = {
      typical_w: 24_000,
      max_w: 38_000,
      heat_w: 38_000,
      weight_kg: 120,
      fullest_tray: "T3-12",
      fullest_tray_pct: 47.4,
      was_fullest_tray: "T3-12",
      was_fullest_tray_pct: 31.2,
      incomplete: [] as string[],
      words: "adds 38 kW at most (24 kW typical) and 120 kg, and fills tray T3-12 to 47 % (was 31 %)",
    };
    const withChange = (c: typeof change | null): WiringPlan => {
      const p = plan({});
      return { ...p, summary: { ...p.summary, facility: { change: c } } as unknown as WiringPlan["summary"] };
    };
    expect(upgradeFacilityNote(withChange(change))).toBe(
      "This upgrade adds 38 kW at most (24 kW typical) and 120 kg, and fills tray T3-12 to 47 % (was 31 %).",
    );
    expect(upgradeFacilityNote(withChange(null))).toBeNull();
  });

  it("prints the change's figures, and none that a plan leaves something out of", () => {
    const change = {
      typical_w: 24_000,
      max_w: 38_000,
      heat_w: 38_000,
      weight_kg: -120.4,
      fullest_tray: null,
      fullest_tray_pct: 0,
      was_fullest_tray: null,
      was_fullest_tray_pct: 0,
      incomplete: [] as string[],
      words: "",
    };
    expect(plantFigures(change)).toBe("+38 kW at most, +24 kW typical, −120 kg");
    expect(plantFigures({ ...change, max_w: 950, incomplete: ["typical_w"] })).toBe(
      "+950 W at most, typical not known, −120 kg",
    );
    expect(plantFigures({ ...change, incomplete: ["typical_w", "max_w", "heat_w", "weight_kg"] })).toBe(
      "power at most not known, typical not known, weight not known",
    );
  });
});
