import { describe, expect, it } from "vitest";
import { costTimeSeries, gridOf, parseValues, pointRows, type SweepPoint } from "./sweeps";

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
