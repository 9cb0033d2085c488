/**
 * The decomposed result section as drawn (server-rendered markup: no browser needed), for the case the
 * end-to-end spec cannot reach before a calibration has been run: buckets with a measured error.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DecomposedStats } from "./DecomposedStats";
import { engineResult } from "./results.fixture";
import type { EngineResult } from "./results";

const stats = (count: number, mean: number, p99: number) => ({ count, mean, p50: mean, p99, max: p99 });

function decomposedResult(decomposition: unknown): EngineResult {
  const r = engineResult({
    model: "decomposed",
    flows: {
      total: 30,
      finished: 30,
      unfinished: 0,
      stalled: 0,
      not_started: 0,
      rerouted: 0,
      fct_s: stats(30, 1e-3, 5e-3),
      slowdown: stats(30, 2, 9),
      by_size: [
        {
          bucket: "<10KB",
          min_bytes: 0,
          max_bytes: 10_000,
          fct_s: stats(20, 1e-4, 4e-4),
          slowdown: stats(20, 1.5, 6.25),
        },
        { bucket: "10KB-100KB", min_bytes: 10_000, max_bytes: 100_000, fct_s: { count: 0 }, slowdown: { count: 0 } },
        { bucket: ">=10MB", min_bytes: 1e7, fct_s: stats(10, 0.01, 0.02), slowdown: stats(10, 3, 9.5) },
      ],
    },
  });
  return { ...r, decomposition } as EngineResult;
}

const calibrated = {
  links_total: 48,
  links_simulated: 10,
  links_clustered: 2,
  links_idle: 36,
  cluster_threshold: 0.05,
  link_events: 123_456,
  warnings: ["incast: synchronized fan-ins couple the hops of their paths"],
  accuracy: {
    measured_on: ["k8 web search 40 %", "k16 permutation"],
    by_size: [{ bucket: "<10KB", mean_slowdown_error: 0.07, p99_slowdown_error: 0.121 }],
    source: "sim-engine/README.md#decomposed-mode-calibration",
  },
};

/** The markup's text, tags dropped and entities read (what a reader sees, in order). */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

/** The accuracy table's rows: [bucket, the row's cells as text, joined by " | "]. */
const rowsOf = (html: string) =>
  [...html.matchAll(/<tr data-testid="decomposed-bucket" data-bucket="([^"]*)">(.*?)<\/tr>/g)].map((m) => [
    text(m[1] ?? ""),
    [...(m[2] ?? "").matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => text(c[1] ?? "")).join(" | "),
  ]);

describe("DecomposedStats", () => {
  it("marks each bucket with flows by its measured error, or says it was not measured", () => {
    const html = renderToStaticMarkup(<DecomposedStats result={decomposedResult(calibrated)} />);
    expect(rowsOf(html)).toEqual([
      // (the empty 10KB-100KB bucket is not a row)
      [
        "<10KB",
        "<10KB | 20 | 1.50× | 6.25× | p99 within ±13 % of packet mode (measured); mean within ±7 % of packet mode (measured)",
      ],
      [">=10MB", ">=10MB | 10 | 3.00× | 9.50× | not measured for this flow size"],
    ]);
    expect(text(html)).toContain(
      "measured against full packet mode on k8 web search 40 %, k16 permutation (sim-engine/README.md#decomposed-mode-calibration)",
    );
  });

  it("puts the warnings first, as an alert, and counts the links", () => {
    const html = renderToStaticMarkup(<DecomposedStats result={decomposedResult(calibrated)} />);
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf("decomposed-simulated"));
    expect(html).toMatch(
      /<li data-testid="decomposed-warning">incast: synchronized fan-ins couple the hops of their paths<\/li>/,
    );
    for (const [id, v] of [
      ["simulated", "10"],
      ["clustered", "2"],
      ["idle", "36"],
      ["total", "48"],
    ])
      expect(html).toContain(`data-testid="decomposed-${id}">${v}</dd>`);
    expect(text(html)).toContain("123,456 events over the link simulations");
  });

  it("draws no warning box when none applies, and nothing for a result without a decomposition", () => {
    const html = renderToStaticMarkup(<DecomposedStats result={decomposedResult({ ...calibrated, warnings: [] })} />);
    expect(html).not.toContain("decomposed-warnings");
    expect(renderToStaticMarkup(<DecomposedStats result={engineResult({ model: "packet" })} />)).toBe("");
  });

  it("names the field of a decomposition it cannot read", () => {
    const html = renderToStaticMarkup(
      <DecomposedStats result={decomposedResult({ ...calibrated, links_idle: "36" })} />,
    );
    expect(text(html)).toMatch(/^The result's decomposition could not be read \(decomposition\.links_idle: .*\)/);
  });
});
