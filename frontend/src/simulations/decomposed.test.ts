import { describe, expect, it } from "vitest";
import {
  accuracyText,
  bucketRows,
  clusterText,
  decomposedEstimateText,
  decomposedRunningText,
  decomposedLinksText,
  decompositionOf,
  errorPercent,
  linkCountsText,
  linksProgressText,
  p99Bars,
  packetRange,
  type Decomposition,
} from "./decomposed";
import type { SizeBucket } from "./results";

/** A decomposition as the engine's contract writes it (p30 contract). */
const section = (): Decomposition => ({
  links_total: 1204,
  links_simulated: 312,
  links_clustered: 88,
  links_idle: 804,
  cluster_threshold: 0.05,
  link_events: 4_410_233,
  warnings: ["incast: 12 links carry flows from more than 32 senders at once"],
  accuracy: {
    measured_on: ["k8-websearch-40", "k16-permutation"],
    by_size: [
      { bucket: "<10KB", mean_slowdown_error: 0.07, p99_slowdown_error: 0.12 },
      { bucket: "1MB-10MB", mean_slowdown_error: 0.031, p99_slowdown_error: 0.5 },
    ],
    source: "sim-engine/README.md#decomposed-mode-calibration",
  },
});

const stats = (count: number, mean: number, p99: number) => ({ count, mean, p50: mean, p99, max: p99 });
const bucket = (name: string, count: number, mean = 1, p99 = 2): SizeBucket => ({
  bucket: name,
  min_bytes: 0,
  fct_s: count > 0 ? stats(count, 1e-3, 2e-3) : { count: 0 },
  slowdown: count > 0 ? stats(count, mean, p99) : { count: 0 },
});

describe("decompositionOf", () => {
  it("reads the engine's section as it is", () => {
    expect(decompositionOf({ model: "decomposed", decomposition: section() })).toEqual({ ok: true, value: section() });
  });

  it("is null for a result without one (flow and packet mode)", () => {
    expect(decompositionOf({ model: "packet" })).toBeNull();
    expect(decompositionOf({ model: "packet", decomposition: null })).toBeNull();
    expect(decompositionOf(null)).toBeNull();
  });

  it("names the field a broken section gets wrong, with the reason", () => {
    const bad = section() as unknown as { accuracy: { by_size: { p99_slowdown_error: unknown }[] } };
    bad.accuracy.by_size[1]!.p99_slowdown_error = "12%";
    const read = decompositionOf({ decomposition: bad });
    expect(read?.ok).toBe(false);
    expect(read && !read.ok && read.error).toMatch(
      /^decomposition\.accuracy\.by_size\[1\]\.p99_slowdown_error: .*number/,
    );

    const negative = decompositionOf({ decomposition: { ...section(), links_idle: -1 } });
    expect(negative && !negative.ok && negative.error).toMatch(/^decomposition\.links_idle: /);
    const threshold = decompositionOf({ decomposition: { ...section(), cluster_threshold: 1.5 } });
    expect(threshold && !threshold.ok && threshold.error).toMatch(/^decomposition\.cluster_threshold: /);
    const noWarnings: Partial<Decomposition> = section();
    delete noWarnings.warnings;
    const missing = decompositionOf({ decomposition: noWarnings });
    expect(missing && !missing.ok && missing.error).toMatch(/^decomposition\.warnings: /);
  });
});

describe("accuracy in words", () => {
  it.each([
    [0.12, 12],
    [0.07, 7], // 7.000000000000001 % in floating point: still 7
    [0.121, 13], // rounded up: never a smaller error than measured
    [0.1201, 13],
    [0, 0],
    [1.5, 150],
  ])("an error of %s reads ±%s %%", (e, pct) => {
    expect(errorPercent(e)).toBe(pct);
  });

  it("never states less than was measured, and at most one point more", () => {
    for (let i = 0; i <= 5000; i++) {
      const e = i / 10_000 + (i % 7) * 1e-6;
      const pct = errorPercent(e);
      expect(pct).toBeGreaterThanOrEqual(e * 100 - 1e-6);
      expect(pct).toBeLessThan(e * 100 + 1);
    }
  });

  it("says which statistic, how close, against what and how it is known", () => {
    expect(accuracyText("p99", 0.12)).toBe("p99 within ±12 % of packet mode (measured)");
    expect(accuracyText("mean", 0.07)).toBe("mean within ±7 % of packet mode (measured)");
  });
});

describe("bucketRows", () => {
  it("lists the buckets with flows, each with the accuracy measured for its name, or none", () => {
    const rows = bucketRows(
      [
        bucket("<10KB", 700, 1.4, 6.2),
        bucket("10KB-100KB", 250, 2, 9),
        bucket("100KB-1MB", 0),
        bucket("1MB-10MB", 50, 3, 11),
      ],
      section(),
    );
    expect(rows).toEqual([
      {
        bucket: "<10KB",
        flows: 700,
        meanSlowdown: 1.4,
        p99Slowdown: 6.2,
        accuracy: { bucket: "<10KB", mean_slowdown_error: 0.07, p99_slowdown_error: 0.12 },
      },
      { bucket: "10KB-100KB", flows: 250, meanSlowdown: 2, p99Slowdown: 9, accuracy: null },
      {
        bucket: "1MB-10MB",
        flows: 50,
        meanSlowdown: 3,
        p99Slowdown: 11,
        accuracy: { bucket: "1MB-10MB", mean_slowdown_error: 0.031, p99_slowdown_error: 0.5 },
      },
    ]);
  });

  it("marks every bucket not measured before any calibration (the engine then writes no accuracy)", () => {
    const uncalibrated = decompositionOf({ decomposition: { ...section(), accuracy: undefined } });
    expect(uncalibrated?.ok).toBe(true);
    const d = uncalibrated?.ok ? uncalibrated.value : section();
    expect(d.accuracy).toBeUndefined();
    expect(bucketRows([bucket("<10KB", 3, 1, 2), bucket("1MB-10MB", 1, 4, 4)], d).map((r) => r.accuracy)).toEqual([
      null,
      null,
    ]);
  });
});

describe("packetRange", () => {
  it("inverts the relative error: |v - packet| <= e x packet", () => {
    expect(packetRange(2.2, 0.1)).toEqual({ lo: 2, hi: 2.2 / 0.9 });
    expect(packetRange(3, 0.5)).toEqual({ lo: 2, hi: 6 });
    expect(packetRange(4, 0)).toEqual({ lo: 4, hi: 4 });
    // an error of 100 % or more bounds packet mode from below only
    expect(packetRange(4, 1)).toEqual({ lo: 2, hi: null });
  });

  it("each end is exactly e away from packet mode's value", () => {
    for (const v of [0.5, 1, 7.25, 1e4]) {
      for (const e of [0.01, 0.12, 0.5, 0.99]) {
        const { lo, hi } = packetRange(v, e);
        expect(Math.abs(v - lo) / lo).toBeCloseTo(e, 12);
        expect(Math.abs(v - hi!) / hi!).toBeCloseTo(e, 12);
      }
    }
  });

  it("gives the slowdown chart a bar per measured bucket and none for the others", () => {
    const rows = bucketRows(
      [bucket("<10KB", 1, 1, 6.6), bucket("10KB-100KB", 1, 1, 9), bucket("1MB-10MB", 1, 1, 3)],
      section(),
    );
    const bars = p99Bars(rows);
    expect(bars.lo).toEqual([6.6 / 1.12, NaN, 2]);
    expect(bars.hi).toEqual([6.6 / 0.88, NaN, 6]);
  });
});

describe("links in words", () => {
  it("counts the links", () => {
    expect(linkCountsText(section())).toBe("312 simulated, 88 clustered, 804 idle of 1,204 directed links");
  });

  it("says what the cluster threshold does", () => {
    expect(clusterText(0.05)).toBe(
      "busy links within 5 % of each other in load, flow-size mix and burstiness share one simulation",
    );
    expect(clusterText(0.125)).toContain("within 12.5 % of each other");
    expect(clusterText(0)).toBe("no clustering: every busy link simulated");
  });

  it("counts progress in links once the engine has counted them", () => {
    expect(linksProgressText({ links_done: 312, links_total: 1204 })).toBe("312 / 1,204 links simulated");
    expect(linksProgressText({ links_done: null, links_total: 40 })).toBe("0 / 40 links simulated");
    expect(linksProgressText({ links_done: null, links_total: null })).toBeNull();
    expect(linksProgressText({})).toBeNull();
  });

  it("says a running job's planning, then its links, batches over the workers and events", () => {
    expect(decomposedRunningText({ links_total: null, events: null })).toBe(
      "routing every flow to plan the link simulations",
    );
    // one worker: the run stays in its process (no batches)
    expect(decomposedRunningText({ links_done: 3, links_total: 241, batches: null, events: 9_860_847 })).toBe(
      "3 / 241 links simulated · 9,860,847 events",
    );
    expect(decomposedRunningText({ links_done: 1204, links_total: 1204, batches: 6 })).toBe(
      "1,204 / 1,204 links simulated · 6 batches over the workers",
    );
    expect(decomposedRunningText({ links_done: 0, links_total: 2, batches: 1, events: 0 })).toBe(
      "0 / 2 links simulated · 1 batch over the workers · 0 events",
    );
  });
});

describe("the estimate in words", () => {
  it("says the time per worker and how many workers share the links", () => {
    expect(decomposedEstimateText({ wall_s: 42.4, workers: 2 })).toBe("about 42 s per worker (2 workers alive)");
    expect(decomposedEstimateText({ wall_s: 3.04, workers: 1 })).toBe("about 3.0 s per worker (1 worker alive)");
    expect(decomposedEstimateText({ wall_s: 5400, workers: 0 })).toBe(
      "about 90 min per worker (no worker alive: it waits for one)",
    );
  });

  it("counts the links to simulate, clustered and idle", () => {
    expect(decomposedLinksText({ links_simulated: 312, links_clustered: 88, links_idle: 804, links_total: 1204 })).toBe(
      "312 links to simulate, 88 clustered, 804 idle of 1,204 directed links",
    );
    expect(decomposedLinksText({ links_simulated: 1, links_clustered: 0, links_idle: 0, links_total: 1 })).toBe(
      "1 link to simulate, 0 clustered, 0 idle of 1 directed links",
    );
  });
});
