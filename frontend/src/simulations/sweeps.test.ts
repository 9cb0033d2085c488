import { describe, expect, it } from "vitest";
import { costTimeSeries, gridOf, parseValues, pointRows, speedChoices, SWEEP_PARAMS, type SweepPoint } from "./sweeps";

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
  it("cost/time series: finished complete points by cost, the frontier as its own series", () => {
    expect(costTimeSeries(pointRows(sweep))).toEqual([
      [100, 150, 160],
      [30, 20, 25],
      [30, 20, null],
    ]);
  });
});
