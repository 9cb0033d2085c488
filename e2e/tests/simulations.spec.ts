/**
 * Simulations as a planner runs them, on the demo hall: two plans generated from the Wiring tab, a
 * MapReduce shuffle submitted on both at once from the Plans tab, progress bars that reach the end,
 * both results read (headline figures = the API's), and the speedup table against a chosen
 * baseline; a large run cancelled while it runs. The stack runs a real Celery worker and the
 * compiled engine.
 */
import { expect, test, type Page } from "@playwright/test";
import { generate } from "./planning";
import { login } from "./helpers";
import { ids, simulationJobs, simulationJob } from "./simulating";
import { readFile } from "node:fs/promises";

interface Job {
  id: number;
  plan_id: number;
  name: string;
  status: string;
  progress: number;
  result: { job_completion_s: number | null; flows: { total: number; finished: number; stalled: number; fct_s: { mean: number } } } | null;
}

const jobs = simulationJobs<Job>;
const job = simulationJob<Job>;

/** Seconds as the view writes them (µs, ms or s). */
function seconds(s: number): string {
  if (s < 1e-3) return `${(s * 1e6).toLocaleString("en", { maximumFractionDigits: 1 })} µs`;
  if (s < 1) return `${(s * 1e3).toLocaleString("en", { maximumFractionDigits: 2 })} ms`;
  return `${s.toLocaleString("en", { maximumFractionDigits: 3 })} s`;
}

/** Tick exactly these plans in the Plans tab. */
async function tickPlans(page: Page, planIds: number[]): Promise<void> {
  const panel = page.getByTestId("plans-panel");
  for (const box of await panel.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  for (const id of planIds) await panel.getByTestId(`plan-select-${id}`).check();
}

test("a shuffle on two plans of the demo hall: progress, both results, the speedup table; a running simulation cancelled", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId } = ids(page);

  const a = await generate(page, projectId, hallId, "paired-row");
  const b = await generate(page, projectId, hallId, "side-to-side");

  // --- Run: the form from the two ticked plans, a shuffle over 2 racks of 4 MB per pair
  await page.getByRole("tab", { name: "Plans" }).click();
  await tickPlans(page, [a.id, b.id]);
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");
  await expect(form).toContainText(`#${a.id} ${a.name}`);
  await expect(form).toContainText(`#${b.id} ${b.name}`);
  await form.getByTestId("preset-shuffle").check();
  await expect(form).toContainText("Every server of a job of N racks sends to every other one");
  await form.getByTestId("param-job_racks").fill("2");
  await form.getByTestId("param-bytes").fill("4");
  await form.getByTestId("sim-routing").selectOption("ecmp");
  await form.getByTestId("sim-seeds").fill("1");
  const before = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();

  // One job per plan, named for the workload (the same on both: comparable).
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(2);
  const created = (await jobs(page, projectId)).filter((j) => !before.has(j.id));
  const onA = created.find((j) => j.plan_id === a.id)!;
  const onB = created.find((j) => j.plan_id === b.id)!;
  expect(onA.name).toBe("shuffle 2 racks × 4 MB · ECMP · seed 1");
  expect(onB.name).toBe(onA.name);

  // The progress bars: shown for both, they reach the end and say so.
  const sims = page.getByTestId("simulations-panel");
  for (const j of [onA, onB]) {
    await expect(sims.getByTestId(`sim-progress-${j.id}`)).toBeVisible();
    await expect(sims.getByTestId(`sim-progress-${j.id}`)).toHaveAttribute("aria-valuenow", "100", { timeout: 60_000 });
    await expect(sims.getByTestId(`sim-status-${j.id}`)).toHaveAttribute("data-status", "succeeded");
  }

  // --- Read: each result's headline equals the API's result
  const results = [await job(page, onA.id), await job(page, onB.id)];
  for (const r of results) {
    const res = r.result!;
    // 2 racks x 15 servers, every ordered pair.
    expect(res.flows.total).toBe(30 * 29);
    await sims.getByTestId(`sim-open-${r.id}`).click();
    const view = page.getByTestId("sim-result");
    await expect(view.getByTestId("sim-note")).toHaveText("fluid estimate; tails, incast and latency bounds need packet mode.");
    const done = res.flows.finished === res.flows.total;
    await expect(view.getByTestId("sim-headline")).toHaveAttribute("data-verdict", done ? "complete" : "incomplete");
    if (done) {
      await expect(view.getByTestId("sim-headline-sentence")).toHaveText(`✓ All ${res.flows.total} flows finished.`);
      await expect(view.getByTestId("sim-headline-jct")).toHaveText(seconds(res.job_completion_s!));
    } else {
      // Never a plain success: how many did not finish, and no completion time.
      await expect(view.getByTestId("sim-headline-sentence")).toContainText(`Did not finish: ${res.flows.total - res.flows.finished} of ${res.flows.total} flows`);
      await expect(view.getByTestId("sim-headline-jct")).toHaveText("none (not every flow finished)");
    }
    await expect(view.getByTestId("sim-headline-mean")).toHaveText(seconds(res.flows.fct_s.mean));
    // The charts are drawn (uPlot canvases), from the result's size buckets and link series.
    await expect(view.getByTestId("chart-fct-size").locator("canvas")).toBeVisible();
    await expect(view.getByTestId("chart-util").locator("canvas")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(view).toBeHidden();
  }

  // --- Compare: both runs ticked (the form ticked them), baseline = plan B, speedup = B's time / A's
  await expect(sims.getByTestId(`sim-select-${onA.id}`)).toBeChecked();
  await expect(sims.getByTestId(`sim-select-${onB.id}`)).toBeChecked();
  await sims.getByTestId("sim-compare").click();
  const cmp = page.getByTestId("sim-compare-dialog");
  await cmp.getByTestId("sim-baseline").selectOption(String(b.id));
  const table = cmp.getByTestId("speedup-table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.locator("tbody tr").first()).toHaveAttribute("data-plan", String(b.id));
  await expect(table.getByTestId(`speedup-${b.id}`).getByTestId("speedup")).toHaveText(results[1]!.result!.job_completion_s === null ? "—" : "1.00×");
  const [ja, jb] = [results[0]!.result!.job_completion_s, results[1]!.result!.job_completion_s];
  await expect(table.getByTestId(`speedup-${a.id}`).getByTestId("speedup")).toHaveText(ja && jb ? `${(jb / ja).toFixed(2)}×` : "—");
  await expect(table.getByTestId(`speedup-${a.id}`).getByTestId("jct")).toHaveText(ja ? seconds(ja) : "none: flows did not finish");
  await expect(cmp.getByTestId("chart-compare-cdf").locator("canvas")).toBeVisible();
  // the overlaid CDFs are the runs' own per-flow ones: one x per distinct completion time of either run
  const xs = new Set<number>();
  for (const r of results) {
    const body = await (await page.request.get(`/api/v1/simulations/${r.id}/results/flows/cdf`)).body();
    for (let i = 0; i + 8 <= body.length; i += 8) xs.add(body.readDoubleLE(i) * 1000);
  }
  await expect(cmp.getByTestId("chart-compare-cdf")).toContainText("every finished flow");
  await expect(cmp.getByTestId("chart-compare-cdf")).toHaveAttribute("data-points", String(xs.size));
  await page.screenshot({ path: "artifacts/simulations-compare.png" });
  await page.keyboard.press("Escape");

  // --- A run whose flows stall is never a plain success: a single-homed plan whose first rack's ToR
  // is down from the start (its 15 servers have no path left), a shuffle over the first 2 racks.
  const c = await generate(page, projectId, hallId, "single-homed");
  const scenario = await (await page.request.get(`/api/v1/wiring-plans/${c.id}/scenario`)).json();
  const nodes = scenario.network.nodes as { id: string; role: string; logical_rack?: string }[];
  const firstRack = nodes.find((n) => n.role === "server")!.logical_rack;
  const tor = nodes.find((n) => n.role === "tor" && n.logical_rack === firstRack)!;
  await page.getByRole("tab", { name: "Plans" }).click();
  await tickPlans(page, [c.id]);
  await page.getByTestId("plans-simulate").click();
  await form.getByTestId("preset-shuffle").check();
  await form.getByTestId("param-job_racks").fill("2");
  await form.getByTestId("param-bytes").fill("1");
  await form.getByTestId("sim-fail-node").selectOption(tor.id);
  await form.getByTestId("sim-fail-at").fill("0");
  const beforeCut = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  const cutName = `shuffle 2 racks × 1 MB · ${tor.id} down at 0 ms · ECMP · seed 1`;
  const fresh = async (seen: Set<number>) => (await jobs(page, projectId)).filter((j) => !seen.has(j.id));
  await expect.poll(async () => (await fresh(beforeCut)).filter((j) => j.name === cutName).length).toBe(1);
  const cut = (await fresh(beforeCut)).find((j) => j.name === cutName)!;
  await expect(sims.getByTestId(`sim-status-${cut.id}`)).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  const cutResult = await job(page, cut.id);
  // Every pair with a server of the first rack (15 x 15 sending, 15 x 15 receiving, 15 x 14 within) has no path.
  expect(cutResult.result!.flows.stalled).toBe(15 * 29 + 15 * 15);
  await expect(sims.getByTestId(`sim-status-${cut.id}`)).toHaveAttribute("data-outcome", "partial");
  await expect(sims.getByTestId(`sim-status-${cut.id}`)).toContainText(`finished incomplete: ${15 * 29 + 15 * 15} stalled`);
  await sims.getByTestId(`sim-open-${cut.id}`).click();
  const cutView = page.getByTestId("sim-result");
  await expect(cutView.getByTestId("sim-headline")).toHaveAttribute("data-verdict", "incomplete");
  await expect(cutView.getByTestId("sim-headline-sentence")).toContainText(`${15 * 29 + 15 * 15} flows stalled with no path between their servers`);
  await expect(cutView.getByTestId("sim-headline-jct")).toHaveText("none (not every flow finished)");
  await expect(cutView.getByTestId("sim-why")).toContainText(tor.id);
  // The result as a file: the JSON download is the engine's result with the outcome around it.
  const [file] = await Promise.all([page.waitForEvent("download"), cutView.getByTestId("sim-download-json").click()]);
  const body = JSON.parse(await readFile((await file.path())!, "utf8"));
  expect(body.outcome).toBe("partial");
  expect(body.result.flows.stalled).toBe(15 * 29 + 15 * 15);
  await page.keyboard.press("Escape");

  // --- Cancel: a large all-to-all on one plan, cancelled once a worker runs it
  await tickPlans(page, [a.id]);
  await page.getByTestId("plans-simulate").click();
  await form.getByTestId("preset-all-to-all").check();
  await form.getByTestId("param-job_racks").fill("96");
  await form.getByTestId("param-bytes").fill("100");
  const beforeBig = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  // (the submit checks a 2-million-flow scenario with the engine first: seconds on a loaded machine)
  await expect
    .poll(async () => (await fresh(beforeBig)).filter((j) => j.name.startsWith("all-to-all 96 racks")).length, {
      timeout: 30_000,
    })
    .toBe(1);
  const big = (await fresh(beforeBig)).find((j) => j.name.startsWith("all-to-all 96 racks"))!;
  await expect(sims.getByTestId(`sim-status-${big.id}`)).toHaveAttribute("data-status", "running", { timeout: 60_000 });
  // The engine's own progress while it runs: 1,440 servers, every ordered pair.
  await expect(sims.getByTestId(`sim-status-${big.id}`)).toContainText(`of ${(1440 * 1439).toLocaleString("en")} flows done`, { timeout: 30_000 });
  await sims.getByTestId(`sim-cancel-${big.id}`).click();
  await expect(sims.getByTestId(`sim-status-${big.id}`)).toHaveAttribute("data-status", "cancelled");
  await expect(sims.getByTestId(`sim-cancel-${big.id}`)).toBeHidden();
  expect((await job(page, big.id)).status).toBe("cancelled");

  // --- Sweep: single-homed and side-to-side x seeds 1..3 (6 points); they arrive into the table
  await page.getByRole("tab", { name: "Plans" }).click();
  await sims.getByTestId("sweep-new").click();
  const sd = page.getByTestId("sweep-dialog");
  await sd.getByTestId("sweep-job-racks").fill("2");
  await sd.getByTestId("sweep-mb").fill("1");
  await sd.getByTestId("sweep-param-0").selectOption("pattern");
  await sd.getByTestId("sweep-values-0").fill("single-homed, side-to-side");
  await sd.getByTestId("sweep-param-1").selectOption("seed");
  await sd.getByTestId("sweep-values-1").fill("1, 2, 3");
  await sd.getByTestId("sweep-run").click();
  await expect(sd.getByTestId("sweep-table").locator("tbody tr")).toHaveCount(6);
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        const done = Number(await sd.getByTestId("sweep-status").getAttribute("data-done"));
        seen.add(done);
        return done;
      },
      { timeout: 120_000, intervals: [200] },
    )
    .toBe(6);
  await expect(sd.getByTestId("sweep-status")).toHaveAttribute("data-status", "succeeded");
  await expect(sd.getByTestId("sweep-chart").locator("canvas")).toBeVisible();
  // The frontier is decided between configurations (the pattern), each seed a draw of the workload:
  // the mean job completion of a configuration's three seeds, with their spread, from the API's points.
  const sweepId = Number(/Sweep (\d+)/.exec((await sd.getByRole("heading").first().textContent()) ?? "")![1]);
  const detail = await (await page.request.get(`/api/v1/sweeps/${sweepId}`)).json();
  // Points arrive one by one: when they finished further apart than the dialog's refresh (1 s,
  // plus a request), the dialog must have shown a count between none and all.
  const finished = (detail.points as { finished_at: string }[]).map((p) => Date.parse(p.finished_at));
  if (Math.max(...finished) - Math.min(...finished) > 2500)
    expect([...seen].some((d) => d > 0 && d < 6), `points seen done: ${[...seen]}`).toBe(true);
  type F = { cost_total: number; job_completion_s: number | null; outcome: string };
  type P = { index: number; params: { pattern: string }; figures: F };
  const configs = ["single-homed", "side-to-side"].map((pattern) => {
    const mine = (detail.points as P[]).filter((p) => p.params.pattern === pattern);
    const times = mine.filter((p) => p.figures.outcome === "complete").map((p) => p.figures.job_completion_s!);
    return {
      pattern,
      cost: mine[0]!.figures.cost_total,
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      complete: times.length === mine.length,
      indices: mine.map((p) => p.index),
    };
  });
  const [sh, ss] = configs as [(typeof configs)[0], (typeof configs)[0]];
  // Two configurations: one dominates the other when it is no dearer and no slower on average, and
  // better in one (equal in both: the first in cost order stands for them).
  const beats = (a: typeof sh, b: typeof sh) =>
    a.complete && a.cost <= b.cost && a.mean <= b.mean && (a.cost < b.cost || a.mean < b.mean || a === sh);
  const onFront = new Map([
    ["single-homed", sh.complete && !beats(ss, sh)],
    ["side-to-side", ss.complete && !beats(sh, ss)],
  ]);
  expect([...onFront.values()].some(Boolean)).toBe(true);
  for (const c of configs) {
    const row = sd.locator(`[data-testid="sweep-config"][data-config="pattern=${c.pattern}"]`);
    await expect(row).toHaveAttribute("data-pareto", String(onFront.get(c.pattern)));
    await expect(row).toContainText("3 of 3");
    for (const i of c.indices)
      await expect(sd.getByTestId(`sweep-point-${i}`)).toHaveAttribute("data-pareto", String(onFront.get(c.pattern)));
  }
  await expect(sd.getByTestId("sweep-chart")).toHaveAttribute("data-points", "2");
  await page.screenshot({ path: "artifacts/simulations-sweep.png" });
  await page.keyboard.press("Escape");

  // --- A sweep cancelled while its points run
  await sims.getByTestId("sweep-new").click();
  await sd.getByTestId("sweep-values-0").fill("single-homed, side-to-side, paired-row");
  await sd.getByTestId("sweep-run").click();
  await expect(sd.getByTestId("sweep-table").locator("tbody tr")).toHaveCount(9);
  await sd.getByTestId("sweep-cancel").click();
  await expect(sd.getByTestId("sweep-status")).toHaveAttribute("data-status", "cancelled");
  await expect(sd.getByTestId("sweep-cancel")).toBeHidden();
});
