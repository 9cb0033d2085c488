import { describe, expect, it } from "vitest";
import {
  configRows,
  costTimeSeries,
  gridOf,
  GridError,
  needsRail,
  parseValues,
  presetSweepBody,
  railBase,
  pointRows,
  speedChoices,
  SWEEP_PARAMS,
  type RailChoice,
  type SweepPoint,
} from "./sweeps";

const point = (
  index: number,
  params: Record<string, unknown>,
  figures: Record<string, unknown> | null,
  status: SweepPoint["status"] = "succeeded",
): SweepPoint => ({
  index,
  params,
  status,
  figures,
  error: null,
  error_field: null,
  attempts: 1,
  finishes: status === "succeeded" ? 1 : 0,
  worker: null,
  started_at: null,
  finished_at: null,
});

describe("grid", () => {
  it("values by the parameter's kind; refusals name the parameter", () => {
    expect(parseValues("pattern", "single-homed, side-to-side")).toEqual(["single-homed", "side-to-side"]);
    expect(parseValues("job_racks", "2, 4,8")).toEqual([2, 4, 8]);
    expect(parseValues("load", "0.2, 0.5")).toEqual([0.2, 0.5]);
    expect(() => parseValues("ports", "1.5")).toThrow(/whole number/);
    expect(() => parseValues("seed", "1, 1")).toThrow(/twice/);
    expect(() => parseValues("seed", " , ")).toThrow(/one or more/);
  });
  it("every combination counts toward the API's 200 points", () => {
    expect(
      gridOf([
        { param: "pattern", values: "single-homed, side-to-side" },
        { param: "seed", values: "1,2,3" },
      ]),
    ).toEqual({
      pattern: ["single-homed", "side-to-side"],
      seed: [1, 2, 3],
    });
    expect(() =>
      gridOf([
        { param: "seed", values: "1" },
        { param: "seed", values: "2" },
      ]),
    ).toThrow(/twice/);
    expect(() =>
      gridOf([
        { param: "seed", values: Array.from({ length: 15 }, (_, i) => i).join(",") },
        { param: "job_racks", values: Array.from({ length: 14 }, (_, i) => i + 1).join(",") },
      ]),
    ).toThrow(/210 points: at most 200/);
    expect(() => gridOf([])).toThrow(/at least one/);
  });
});

describe("port speeds", () => {
  it("the form offers every parameter the API sweeps (backend services/sweeps.py PARAMETERS)", () => {
    expect(SWEEP_PARAMS.map((p) => p.key).sort()).toEqual(
      ["pattern", "ports", "loop", "clusters", "uplinks_per_tor", "server_gbps", "fabric_gbps", "workload"]
        .concat(["job_racks", "bytes", "load", "flows", "seed", "routing"])
        .concat(["su_size", "rail_leaf_model_id", "oversubscription", "op", "algorithm", "gpus", "placement"])
        .sort(),
    );
  });
  const speeds = { server_gbps: [10, 25], fabric_gbps: [10, 25, 40, 50, 100] };
  it("take Gb/s, with or without a G", () => {
    expect(parseValues("server_gbps", "10, 25G, 40 Gb/s, 50g")).toEqual([10, 25, 40, 50]);
  });
  it("grid of server and fabric speeds: every combination, each a speed the hall runs", () => {
    expect(
      gridOf(
        [
          { param: "server_gbps", values: "10, 25G" },
          { param: "fabric_gbps", values: "40G, 100" },
        ],
        speeds,
      ),
    ).toEqual({ server_gbps: [10, 25], fabric_gbps: [40, 100] });
    expect(() => gridOf([{ param: "server_gbps", values: "25, 50" }], speeds)).toThrow(
      "this hall's devices cannot run server links at 50 Gb/s (they run 10, 25 Gb/s)",
    );
    expect(() => gridOf([{ param: "fabric_gbps", values: "fast" }], speeds)).toThrow(/"fast" is not a speed in Gb\/s/);
    expect(() => gridOf([{ param: "fabric_gbps", values: "G" }], speeds)).toThrow(/not a speed/);
    expect(() => parseValues("server_gbps", "25, 25G")).toThrow(/twice/);
    // before the hall's speeds have arrived, the API is the judge
    expect(gridOf([{ param: "server_gbps", values: "400" }])).toEqual({ server_gbps: [400] });
    expect(speedChoices("server_gbps", speeds)).toBe("10, 25 Gb/s");
    expect(speedChoices("fabric_gbps", { server_gbps: [], fabric_gbps: [] })).toBe("none");
    expect(speedChoices("seed", speeds)).toBeNull();
  });
  it("a point says its speeds", () => {
    const rows = pointRows({
      // as the database gives the grid back: its keys in its own order
      grid: { fabric_gbps: [100], server_gbps: [10, 25] },
      points: [
        point(0, { server_gbps: 10, fabric_gbps: 100 }, null, "queued"),
        point(1, { server_gbps: 25, fabric_gbps: 100 }, null, "queued"),
      ],
    });
    expect(rows.map((r) => r.label)).toEqual([
      "server_gbps=10G, fabric_gbps=100G",
      "server_gbps=25G, fabric_gbps=100G",
    ]);
  });
});

describe("points", () => {
  const sweep = {
    grid: { pattern: ["a", "b"], ports: [1, 2] },
    points: [
      point(
        0,
        { pattern: "a", ports: 1, seed: 1 },
        { cost_total: 100, currency: "USD", job_completion_s: 0.03, fct_mean_s: 0.01, outcome: "complete" },
      ),
      point(
        1,
        { pattern: "a", ports: 2, seed: 1 },
        { cost_total: 150, currency: "USD", job_completion_s: 0.02, fct_mean_s: 0.01, outcome: "complete" },
      ),
      // dearer and slower than point 1: off the frontier
      point(
        2,
        { pattern: "b", ports: 1, seed: 1 },
        { cost_total: 160, currency: "USD", job_completion_s: 0.025, outcome: "complete" },
      ),
      // cheapest but its flows stalled: no completion time, never on the frontier
      point(
        3,
        { pattern: "b", ports: 2, seed: 1 },
        { cost_total: 50, currency: "USD", job_completion_s: 0.001, outcome: "partial", stalled_flows: 450 },
      ),
      point(4, { pattern: "b", ports: 3, seed: 1 }, null, "running"),
    ],
  };
  it("rows: the varied parameters, figures, the frontier among complete points", () => {
    const rows = pointRows(sweep);
    expect(rows.map((r) => r.label)).toEqual([
      "pattern=a, ports=1",
      "pattern=a, ports=2",
      "pattern=b, ports=1",
      "pattern=b, ports=2",
      "pattern=b, ports=3",
    ]);
    expect(rows.map((r) => r.pareto)).toEqual([true, true, false, false, false]);
    expect(rows[3]!.jobCompletionS).toBeNull();
    expect(rows[3]!.stalled).toBe(450);
    expect(rows[4]!.cost).toBeNull();
  });
  it("cost/time series: configurations finished complete by cost, the frontier as its own series", () => {
    // one seed each: the mean is the point, the spread nothing
    expect(costTimeSeries(configRows(pointRows(sweep)))).toEqual({
      data: [
        [100, 150, 160],
        [30, 20, 25],
        [30, 20, null],
      ],
      lo: [30, 20, 25],
      hi: [30, 20, 25],
    });
  });
});

describe("seeds are draws, not designs", () => {
  // Four configurations (pattern), two seeds each:
  //   a: cost 100, 30 and 40 ms -> mean 35 (30..40)
  //   b: cost 150, 20 and 10 ms -> mean 15 (10..20)
  //   c: cost 120, 20 and 60 ms -> mean 40 (20..60): a is cheaper and faster on average -> off.
  //      Taken seed by seed, c's 20 ms at 120 was on the frontier (nothing cheaper was that fast).
  //   d: cost 90, 1 ms and a partial seed -> not every seed finished: never on the frontier.
  // Frontier by mean: a (100, 35), b (150, 15).
  const f = (cost: number, ms: number | null) =>
    ms === null
      ? { cost_total: cost, currency: "USD", outcome: "partial", stalled_flows: 3 }
      : { cost_total: cost, currency: "USD", job_completion_s: ms / 1000, outcome: "complete" };
  const sweep = {
    grid: { seed: [1, 2], pattern: ["a", "b", "c", "d"] },
    points: [
      point(0, { pattern: "a", seed: 1 }, f(100, 30)),
      point(1, { pattern: "a", seed: 2 }, f(100, 40)),
      point(2, { pattern: "b", seed: 1 }, f(150, 20)),
      point(3, { pattern: "b", seed: 2 }, f(150, 10)),
      point(4, { pattern: "c", seed: 1 }, f(120, 20)),
      point(5, { pattern: "c", seed: 2 }, f(120, 60)),
      point(6, { pattern: "d", seed: 1 }, f(90, 1)),
      point(7, { pattern: "d", seed: 2 }, f(90, null)),
    ],
  };
  it("configurations: seeds averaged with their spread, the frontier decided on the means", () => {
    const configs = configRows(pointRows(sweep));
    expect(
      configs.map((c) => [c.label, c.seeds, c.partialSeeds, c.cost, c.meanJobS, c.minJobS, c.maxJobS, c.pareto]),
    ).toEqual([
      ["pattern=a", 2, 0, 100, 0.035, 0.03, 0.04, true],
      ["pattern=b", 2, 0, 150, 0.015, 0.01, 0.02, true],
      ["pattern=c", 2, 0, 120, 0.04, 0.02, 0.06, false],
      ["pattern=d", 1, 1, 90, 0.001, 0.001, 0.001, false],
    ]);
  });
  it("each point carries its configuration's place on the frontier", () => {
    expect(pointRows(sweep).map((r) => r.pareto)).toEqual([true, true, true, true, false, false, false, false]);
    expect(pointRows(sweep).map((r) => r.label)[0]).toBe("pattern=a, seed=1");
  });
  it("series: one point per configuration at its mean, error bars at min and max", () => {
    const { data, lo, hi } = costTimeSeries(configRows(pointRows(sweep)));
    expect(data[0]).toEqual([90, 100, 120, 150]);
    const round = (v: number | null | undefined) => (v == null ? null : Math.round(v * 1e9) / 1e9);
    expect((data[1] ?? []).map(round)).toEqual([1, 35, 40, 15]);
    expect((data[2] ?? []).map(round)).toEqual([null, 35, null, 15]);
    expect(lo).toEqual([1, 30, 20, 10]);
    expect(hi).toEqual([1, 40, 60, 20]);
  });
  it("only the seed varied: one configuration of every point", () => {
    const one = configRows(pointRows({ grid: { seed: [1, 2] }, points: sweep.points.slice(0, 2) }));
    expect(one.map((c) => [c.label, c.seeds, c.meanJobS])).toEqual([["all points", 2, 0.035]]);
  });
});

describe("a sweep picked by name: the collective sweep (issue 31)", () => {
  const sizes = Array.from({ length: 13 }, (_, i) => 2 ** (20 + i));
  const COLLECTIVE_SWEEP = {
    name: "collective-sweep",
    label: "Collective sweep (1 MB to 4 GB)",
    explain: "",
    base: { workload: "collective" },
    grid: { bytes: sizes },
  };
  const rail: RailChoice = { suSize: "4", leafModelId: 6, oversubscription: "" };

  it("the preset's workload and message sizes, with the planner's pattern, rail options and job", () => {
    const body = presetSweepBody(COLLECTIVE_SWEEP, "busbw", "rail-optimized", rail, {
      op: "all_reduce",
      bytes: 2 ** 30, // varied by the preset: not in the base
      iterations: 1, // not a sweep parameter: left out
      gpus: 32,
      placement: "packed",
    });
    expect(body).toEqual({
      name: "busbw",
      base: {
        pattern: "rail-optimized",
        op: "all_reduce",
        gpus: 32,
        placement: "packed",
        su_size: 4,
        rail_leaf_model_id: 6,
        workload: "collective",
      },
      grid: { bytes: sizes },
    });
    expect(body.grid.bytes).toHaveLength(13);
  });

  it("a ratio only for rail-optimized; no rail options for other patterns; refusals name the parameter", () => {
    const withRatio = { ...rail, oversubscription: "2" };
    expect(presetSweepBody(COLLECTIVE_SWEEP, "s", "rail-optimized", withRatio, {}).base?.oversubscription).toBe(2);
    expect("oversubscription" in (presetSweepBody(COLLECTIVE_SWEEP, "s", "rail-only", withRatio, {}).base ?? {})).toBe(
      false,
    );
    expect(presetSweepBody(COLLECTIVE_SWEEP, "s", "single-homed", null, {}).base).toEqual({
      pattern: "single-homed",
      workload: "collective",
    });
    const refused = (r: typeof rail) => {
      try {
        presetSweepBody(COLLECTIVE_SWEEP, "s", "rail-optimized", r, {});
        return null;
      } catch (e) {
        return e instanceof GridError ? [e.field, e.message] : String(e);
      }
    };
    expect(refused({ ...rail, suSize: "" })).toEqual(["su_size", "servers per SU: give a whole number of 1 or more"]);
    expect(refused({ ...rail, leafModelId: null })).toEqual([
      "rail_leaf_model_id",
      "choose the switch model of the rail leaves",
    ]);
    expect(refused({ ...rail, oversubscription: "-1" })).toEqual([
      "oversubscription",
      "oversubscription: give a ratio above 0 (1 = non-blocking)",
    ]);
  });
});

describe("a grid sweep's rail plans (issue 31)", () => {
  it("needs the rail options when its pattern, or a pattern it varies over, is a rail pattern", () => {
    expect(needsRail("rail-only", {})).toBe(true);
    expect(needsRail("single-homed", { pattern: ["single-homed", "rail-optimized"] })).toBe(true);
    expect(needsRail("single-homed", { pattern: ["mc-lag"], oversubscription: [1, 2] })).toBe(false);
  });
  it("SU size and leaf model in the base; the ratio only for a rail-optimized base", () => {
    const rail: RailChoice = { suSize: "32", leafModelId: 6, oversubscription: "2" };
    expect(railBase("rail-optimized", rail)).toEqual({ su_size: 32, rail_leaf_model_id: 6, oversubscription: 2 });
    expect(railBase("rail-only", rail)).toEqual({ su_size: 32, rail_leaf_model_id: 6 });
    expect(() => railBase("rail-only", { ...rail, suSize: "0" })).toThrow("servers per SU");
  });
});
