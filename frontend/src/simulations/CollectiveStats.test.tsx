// @vitest-environment jsdom
/** The GPU result section as drawn (server-rendered markup): the figures with their units. */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CollectiveStats } from "./CollectiveStats";
import { engineResult } from "./results.fixture";

/** The text of the element with `data-testid="id"` in `html`. */
function text(html: string, id: string): string | null {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return doc.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
}

describe("CollectiveStats", () => {
  it("draws nothing for a run that is neither a collective nor a training step", () => {
    expect(renderToStaticMarkup(<CollectiveStats result={engineResult()} />)).toBe("");
  });

  it("a ring all-reduce of 1 GiB over 8 ranks: its time, busbw and algbw in Gb/s and GB/s", () => {
    // busbw = algbw x 2(n-1)/n = 200 x 1.75 = 350 Gb/s
    const result = engineResult({
      collective: {
        op: "all_reduce",
        algorithm: "ring",
        model: "steps",
        ranks: 8,
        bytes: 2 ** 30,
        iterations: 1,
        steps: 14,
        bus_factor: 1.75,
        time_s: 0.0429,
        total_time_s: 0.0429,
        iteration_time_s: [0.0429],
        algbw_gbps: 200,
        busbw_gbps: 350,
      },
    });
    const html = renderToStaticMarkup(<CollectiveStats result={result} />);
    expect(text(html, "sim-collective-busbw")).toBe("350 Gb/s (43.8 GB/s)");
    expect(text(html, "sim-collective-algbw")).toBe("200 Gb/s (25 GB/s)");
    expect(text(html, "sim-collective-time")).toBe("42.9 ms");
    expect(html).toContain("All-reduce · ring · steps · 8 ranks · 1 GiB");
    expect(text(html, "sim-training")).toBeNull();
  });

  it("a training step: mean step, compute, exposed communication with its share, per iteration", () => {
    const result = engineResult({
      training: {
        iterations: 2,
        buckets: 40,
        step_time_s: 0.5,
        step_times_s: [0.52, 0.48],
        compute_s: 0.4,
        exposed_communication_s: 0.1,
        algbw_gbps: 150,
        busbw_gbps: 262.5,
      },
    });
    const html = renderToStaticMarkup(<CollectiveStats result={result} />);
    expect(text(html, "sim-training-step")).toBe("500 ms");
    expect(text(html, "sim-training-compute")).toBe("400 ms");
    expect(text(html, "sim-training-exposed")).toBe("100 ms (20.0% of the step)");
    expect(text(html, "sim-training-busbw")).toBe("262.5 Gb/s (32.8 GB/s)");
    expect(text(html, "sim-training-buckets")).toBe("2 × 40");
    expect(text(html, "sim-training-steps")).toBe("Per iteration: 520 ms, 480 ms");
  });
});
