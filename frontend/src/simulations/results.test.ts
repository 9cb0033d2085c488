import { describe, expect, it } from "vitest";
import {
  bySizeSeries,
  compareRuns,
  fctQuantiles,
  formatSeconds,
  headline,
  overlay,
  paretoFrontier,
  utilisationSeries,
  type EngineResult,
  type Run,
  runPlan,
  runTitle,
} from "./results";
import { engineResult, linkReport, serverReport } from "./results.fixture";

const stats = (mean: number, p99: number, max = p99, count = 1) => ({ count, mean, p50: mean, p99, max });

function result(
  p: {
    total?: number;
    finished?: number;
    stalled?: number;
    unfinished?: number;
    notStarted?: number;
    jc?: number | null;
    mean?: number;
    p99?: number;
    tx?: number[];
  } = {},
): EngineResult {
  const total = p.total ?? 10;
  const finished = p.finished ?? total;
  return engineResult({
    simulated_time_s: 1,
    job_completion_s: p.jc === undefined ? 0.5 : p.jc,
    flows: {
      total,
      finished,
      unfinished: p.unfinished ?? 0,
      stalled: p.stalled ?? 0,
      not_started: p.notStarted ?? 0,
      rerouted: 0,
      fct_s: stats(p.mean ?? 0.1, p.p99 ?? 0.4, 0.5, finished),
      slowdown: stats(2, 5),
      by_size: [
        { bucket: "<10KB", min_bytes: 0, max_bytes: 10_000, fct_s: { count: 0 }, slowdown: { count: 0 } },
        { bucket: "1MB-10MB", min_bytes: 1e6, max_bytes: 1e7, fct_s: stats(0.2, 0.3), slowdown: stats(1.5, 3) },
        { bucket: ">=10MB", min_bytes: 1e7, fct_s: stats(0.4, 0.5), slowdown: stats(2, 4) },
      ],
    },
    servers: (p.tx ?? [10, 20]).map((t, i) => serverReport(`S${i}`, t)),
  });
}

describe("headline", () => {
  it("all flows finished: complete, the job's completion, the servers' summed throughput", () => {
    const h = headline(result({ total: 870, tx: [10, 20, 2.5] }));
    expect(h.verdict).toBe("complete");
    expect(h.sentence).toBe("All 870 flows finished.");
    expect(h.jobCompletionS).toBe(0.5);
    expect(h.throughputGbps).toBe(32.5);
    expect([h.meanFctS, h.p99FctS, h.p99Slowdown]).toEqual([0.1, 0.4, 5]);
  });
  it("stalled flows are never a success: how many and why, no completion time", () => {
    const h = headline(result({ total: 870, finished: 420, stalled: 450, jc: null }));
    expect(h.verdict).toBe("incomplete");
    expect(h.jobCompletionS).toBeNull();
    expect(h.sentence).toBe(
      "Did not finish: 450 of 870 flows never completed (450 flows stalled with no path between their servers); there is no job completion time.",
    );
  });
  it("stalled and stopped flows are told apart", () => {
    const h = headline(result({ total: 10, finished: 7, stalled: 1, unfinished: 2, jc: 0.9 }));
    expect(h.jobCompletionS).toBeNull();
    expect(h.sentence).toContain("1 flow stalled");
    expect(h.sentence).toContain("2 flows still running at the stop time");
  });

  it("flows that never started may be waiting on stalled ones (a collective's later steps), not only late", () => {
    const h = headline(result({ total: 40, finished: 10, stalled: 6, notStarted: 24, jc: null }));
    expect(h.sentence).toBe(
      "Did not finish: 30 of 40 flows never completed (6 flows stalled with no path between their servers; " +
        "24 flows never started (due after the stop time, or waiting on flows that did not finish)); " +
        "there is no job completion time.",
    );
  });
});

describe("series", () => {
  it("by size: only buckets with flows, mean/p99 FCT and p50/p99 slowdown", () => {
    const s = bySizeSeries(result());
    expect(s.labels).toEqual(["1MB-10MB", ">=10MB"]);
    expect(s.fct).toEqual([
      [0, 1],
      [0.2, 0.4],
      [0.3, 0.5],
    ]);
    expect(s.slowdown).toEqual([
      [0, 1],
      [1.5, 2],
      [3, 4],
    ]);
  });
  it("utilisation over time: mean over links and the busiest link, per bucket, x in ms", () => {
    const r = result();
    r.links = {
      interval_s: 0.002,
      links: [
        linkReport("a", "x", "y", { util: [0.2, 1, 0] }),
        linkReport("b", "y", "x", { util: [0.6, 0, 0.3] }),
        linkReport("c", "y", "z", { util: null }),
      ],
    };
    const s = utilisationSeries(r)!;
    expect(s[0]).toEqual([0, 2, 4]);
    expect(s[1]!.map((v) => +v!.toFixed(12))).toEqual([0.4, 0.5, 0.15]);
    expect(s[2]).toEqual([0.6, 1, 0.3]);
    expect(utilisationSeries(result())).toBeNull();
  });
  it("100,000 links x 128 buckets: exact sums", () => {
    const r = result();
    const util = Array.from({ length: 128 }, (_, k) => k / 128);
    r.links = {
      interval_s: 0.001,
      links: Array.from({ length: 100_000 }, (_, i) => linkReport(`${i}`, "a", "b", { util })),
    };
    const s = utilisationSeries(r)!;
    expect(s[0].length).toBe(128);
    expect(s[1]![64]).toBeCloseTo(0.5, 9);
    expect(s[2]![127]).toBe(127 / 128);
  });
  it("FCT quantiles: p50, p99, max in ms, scaled by the finished share; overlay steps on the union of x", () => {
    expect(fctQuantiles(result())).toEqual({ x: [100, 400, 500], y: [0.5, 0.99, 1] });
    const half = fctQuantiles(result({ total: 10, finished: 5, stalled: 5, jc: null }));
    expect(half.y).toEqual([0.25, 0.495, 0.5]);
    expect(
      overlay([
        { x: [1, 3], y: [0.5, 1] },
        { x: [2], y: [1] },
      ]),
    ).toEqual([
      [1, 2, 3],
      [0.5, 0.5, 1],
      [0, 1, 1],
    ]);
  });
});

const run = (id: number, planId: number, r: EngineResult, cost: number, seed = 1): Run => ({
  id,
  planId,
  planName: `plan ${planId}`,
  workload: "shuffle",
  seed,
  result: r,
  cost,
  currency: "USD",
});

describe("compare", () => {
  it("speedup against the chosen baseline, seeds averaged with their spread, cost per Gb/s", () => {
    const rows = compareRuns(
      [
        run(1, 10, result({ jc: 1, mean: 0.2, tx: [50] }), 1000),
        run(2, 20, result({ jc: 0.4, mean: 0.1, tx: [100] }), 3000, 1),
        run(3, 20, result({ jc: 0.6, mean: 0.1, tx: [100] }), 3000, 2),
      ],
      10,
    );
    expect(rows.map((r) => r.planId)).toEqual([10, 20]);
    const [base, other] = rows;
    expect(base!.baseline).toBe(true);
    expect(base!.speedup).toBe(1);
    expect(other!.jobCompletionS).toBe(0.5);
    expect(other!.jcSpread).toEqual([0.4, 0.6]);
    expect(other!.speedup).toBe(2);
    expect(other!.fctSpeedup).toBe(2);
    expect(base!.costPerGbps).toBe(20);
    expect(other!.costPerGbps).toBe(30);
    // twice as fast for three times the cost: 2/3 of the baseline's speedup per unit cost
    expect(other!.speedupPerCost).toBeCloseTo(2 / 3, 12);
  });
  it("a plan whose flows stalled has no completion time and no speedup, and says how many runs", () => {
    const rows = compareRuns(
      [run(1, 10, result({ jc: 1 }), 100), run(2, 20, result({ total: 10, finished: 4, stalled: 6, jc: null }), 100)],
      10,
    );
    expect(rows[1]!.incomplete).toBe(1);
    expect(rows[1]!.jobCompletionS).toBeNull();
    expect(rows[1]!.speedup).toBeNull();
  });
  it("training steps: the mean step time of each plan's seeds; none where a step never ended or a run is no step", () => {
    const step = (s: number | null) =>
      engineResult({
        training: { iterations: 1, buckets: 4, compute_s: 0.15, step_time_s: s, step_times_s: [s] },
      });
    const rows = compareRuns(
      [run(1, 10, step(0.2), 1), run(2, 10, step(0.3), 1), run(3, 20, step(0.2), 1), run(4, 20, step(null), 1)],
      10,
    );
    expect(rows.map((r) => [r.planId, r.stepTimeS])).toEqual([
      [10, 0.25],
      [20, null],
    ]);
    expect(compareRuns([run(1, 10, result({ jc: 1 }), 1)], 10)[0]!.stepTimeS).toBeNull();
  });
  it("the baseline can be any plan: speedups are its time over each", () => {
    const runs = [run(1, 10, result({ jc: 1 }), 0), run(2, 20, result({ jc: 0.5 }), 0)];
    expect(compareRuns(runs, 20).map((r) => [r.planId, r.speedup])).toEqual([
      [20, 1],
      [10, 0.5],
    ]);
  });
});

describe("Pareto frontier (cost, time both low)", () => {
  it("hand example", () => {
    const pts = [
      { cost: 1, time: 10, k: "a" },
      { cost: 2, time: 12, k: "b" }, // dominated by a
      { cost: 3, time: 5, k: "c" },
      { cost: 3, time: 6, k: "d" }, // dominated by c
      { cost: 5, time: 5, k: "e" }, // dominated by c (same time, dearer)
      { cost: 6, time: 1, k: "f" },
    ];
    expect(paretoFrontier(pts).map((p) => p.k)).toEqual(["a", "c", "f"]);
  });
  it("property: no frontier point is dominated, every other point is", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 200; t++) {
      const pts = Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => ({
        cost: Math.floor(rnd() * 10),
        time: Math.floor(rnd() * 10),
      }));
      const front = paretoFrontier(pts);
      const dominates = (a: (typeof pts)[0], b: (typeof pts)[0]) =>
        a.cost <= b.cost && a.time <= b.time && (a.cost < b.cost || a.time < b.time);
      for (const f of front) expect(pts.some((p) => dominates(p, f))).toBe(false);
      for (const p of pts)
        if (!front.includes(p))
          expect(pts.some((q) => dominates(q, p)) || front.some((f) => f.cost === p.cost && f.time === p.time)).toBe(
            true,
          );
    }
  });
});

it("seconds in µs, ms or s", () => {
  expect([formatSeconds(2.5e-5), formatSeconds(0.0123), formatSeconds(2), formatSeconds(null)]).toEqual([
    "25 µs",
    "12.3 ms",
    "2 s",
    "—",
  ]);
});

describe("runTitle", () => {
  it("names a run by its own number, says the plan apart and marks packet and decomposed runs", () => {
    const flow = { id: 2, name: "shuffle 2 racks × 15 MB · ecmp", plan_id: 3, model: "fluid" as const };
    expect(runTitle(flow)).toBe("Simulation #2: shuffle 2 racks × 15 MB · ecmp");
    expect(runPlan(flow, "paired-row")).toBe("on plan #3 paired-row");
    expect(runTitle({ ...flow, model: "packet" })).toBe("Simulation #2: shuffle 2 racks × 15 MB · ecmp (packet)");
    expect(runTitle({ ...flow, model: "decomposed" })).toBe(
      "Simulation #2: shuffle 2 racks × 15 MB · ecmp (decomposed)",
    );
    expect(runPlan({ ...flow, plan_id: null })).toBe("no plan");
  });
});
