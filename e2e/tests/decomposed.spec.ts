/**
 * Decomposed mode as a planner uses it, on a plan of the demo hall: the simulation form's third mode
 * with its cluster threshold and cost estimate (links to simulate, clustered and idle, the time per
 * worker and how many workers: what the API answered for the form as it stands), a routing the mode
 * cannot run flagged before submitting, a decomposed run's progress counted in links, and its result:
 * the model badge and note, the link counts, the warnings and, per flow-size bucket, the error measured
 * against full packet mode. A real Celery worker runs the compiled engine.
 */
import { expect, test, type Page, type Response } from "@playwright/test";
import { generate } from "./planning";
import { login } from "./helpers";
import { ids, simulationJobs, simulationJob } from "./simulating";

interface DecomposedEstimate {
  links_total: number;
  links_with_flows: number;
  links_simulated: number;
  links_clustered: number;
  links_idle: number;
  cluster_threshold: number;
  workers: number;
  wall_s: number;
  fits: boolean;
  reason: string | null;
}
interface Estimate {
  workload: { flows: number };
  decomposed: DecomposedEstimate | null;
  decomposed_refused: string | null;
}
interface Stats {
  count: number;
  mean?: number | null;
  p99?: number | null;
}
interface Decomposition {
  links_total: number;
  links_simulated: number;
  links_clustered: number;
  links_idle: number;
  cluster_threshold: number;
  warnings: string[];
  /** Absent until a calibration against packet mode has been run. */
  accuracy?: { measured_on: string[]; by_size: { bucket: string; mean_slowdown_error: number; p99_slowdown_error: number }[]; source: string };
}
interface Job {
  id: number;
  status: string;
  model: string;
  note: string;
  progress: number;
  links_done: number | null;
  links_total: number | null;
  result: {
    model: string;
    note: string;
    flows: { total: number; finished: number; by_size: { bucket: string; fct_s: Stats; slowdown: Stats }[] };
    decomposition: Decomposition;
  } | null;
}

const jobs = simulationJobs<Job>;

/** Web-search flows between the first logical racks: sizes over several buckets; the run takes some 16 s on one worker here at load 4 (8 s with 4,000 flows, 32 s with 8,000), long enough to see its progress between the view's polls (1 s). */
const JOB_RACKS = 4;
const FLOWS = 6000;
const job = simulationJob<Job>;

const DECOMPOSED_NOTE =
  "link-level decomposition: every busy link simulated at packet level with the flows that cross it, per-hop delays summed along each flow's path (see sim-engine/README.md)";

/** As the view writes them (packet.ts formatDuration, decomposed.ts): written out here so a change to either is caught. */
function duration(s: number): string {
  if (s < 10) return `${s.toLocaleString("en", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toLocaleString("en", { maximumFractionDigits: 1 })} h`;
}
const n = (x: number) => x.toLocaleString("en");
const perWorker = (e: DecomposedEstimate) => `about ${duration(e.wall_s)} per worker (${n(e.workers)} worker${e.workers === 1 ? "" : "s"} alive)`;
/** A measured error as a whole percent, rounded up (the view never states less than was measured). */
const pct = (e: number) => Math.max(0, Math.ceil(e * 100 - 1e-9));

interface Asked {
  mode: string;
  preset: string;
  packet?: { transport?: string } | null;
  decomposed?: { cluster_threshold?: number } | null;
  routing?: { type?: string };
  params: Record<string, unknown>;
}

/** The form's estimate request for the request `matches` says (earlier ones may still be answering). */
function estimateFor(page: Page, matches: (body: Asked) => boolean): Promise<Response> {
  return page.waitForResponse(
    (r) => r.url().endsWith("/simulations/estimate") && r.request().method() === "POST" && matches(r.request().postDataJSON() as Asked),
  );
}

test("decomposed mode: the estimate in links and time per worker, progress counted in links, the result's counts and measured accuracy", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page);
  const { projectId, hallId } = ids(page);
  const plan = await generate(page, projectId, hallId, "paired-row");
  const scenario = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/scenario`)).json()) as { network: { links: unknown[] } };

  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  for (const box of await panel.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await panel.getByTestId(`plan-select-${plan.id}`).check();
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");

  // --- The mode, beside flow and packet: its packet settings (MPTCP has no link to simulate it on) and a threshold
  await form.getByTestId("preset-poisson").check();
  await form.getByTestId("param-job_racks").fill(String(JOB_RACKS));
  await form.getByTestId("param-flows").fill(String(FLOWS));
  // A routing the mode cannot run is said before the mode is picked (the engine's refusal, naming the field) ...
  let answer = estimateFor(page, (b) => b.mode === "flow" && b.routing?.type === "detour");
  await form.getByTestId("sim-routing").selectOption("detour");
  const refused: Estimate = await (await answer).json();
  expect(refused.decomposed ?? null).toBeNull(); // (the API leaves out what is null)
  expect(refused.decomposed_refused).toMatch(/^scenario\.routing\.type: .*detour/);
  await expect(form.getByTestId("sim-estimate-refused")).toHaveText(`Decomposed mode cannot run this: ${refused.decomposed_refused}.`);
  await expect(form.getByTestId("sim-estimate-decomposed")).toHaveCount(0);
  // ... and, picked, the estimate is refused with the same reason
  answer = estimateFor(page, (b) => b.mode === "decomposed" && b.routing?.type === "detour");
  await form.getByTestId("sim-mode-decomposed").check();
  expect((await answer).status()).toBe(422);
  await expect(form.getByTestId("sim-estimate-error")).toHaveText(`No estimate: ${refused.decomposed_refused}`);
  // Adaptive routing it runs, with a warning in the result: each flow keeps its idle-network path
  await form.getByTestId("sim-routing").selectOption("adaptive");
  await expect(form.getByTestId("sim-estimate-error")).toHaveCount(0);
  await expect(form.getByTestId("sim-mode")).toContainText("Decomposed (link-level, tail-accurate)");
  await expect(form).toContainText("Link-level decomposition: every busy link at packet level");
  await expect(form.locator('[data-testid="sim-transport"] option[value="mptcp"]')).toBeDisabled();
  answer = estimateFor(page, (b) => b.mode === "decomposed" && b.decomposed?.cluster_threshold === 0.05);
  await form.getByTestId("sim-cluster-threshold").fill("0.05");
  const asked = await answer;
  expect(asked.request().postDataJSON()).toMatchObject({ mode: "decomposed", packet: { transport: "newreno" }, decomposed: { cluster_threshold: 0.05 } });
  const est: Estimate = await asked.json();
  const d = est.decomposed!;
  expect(est.decomposed_refused ?? null).toBeNull();
  // every directed link (two per cable) is simulated, clustered onto one that is, or idle
  expect(d.links_total).toBe(2 * scenario.network.links.length);
  expect(d.links_simulated + d.links_clustered).toBe(d.links_with_flows);
  expect(d.links_with_flows + d.links_idle).toBe(d.links_total);
  expect(d.cluster_threshold).toBe(0.05);
  expect(d.workers).toBe(1); // the stack runs one worker
  expect(d.fits).toBe(true);
  await expect(form.getByTestId("sim-estimate-decomposed")).toHaveText(`decomposed ${perWorker(d)}`);
  await expect(form.getByTestId("sim-estimate-links")).toHaveText(
    `Decomposed: ${n(d.links_simulated)} links to simulate, ${n(d.links_clustered)} clustered, ${n(d.links_idle)} idle of ${n(d.links_total)} directed links.`,
  );

  await form.screenshot({ path: "artifacts/decomposed-form.png" });

  // --- Run it: its progress counts links, to the end
  const before = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(1);
  const run = (await jobs(page, projectId)).find((j) => !before.has(j.id))!;
  expect([run.model, run.note]).toEqual(["decomposed", DECOMPOSED_NOTE]);
  const sims = page.getByTestId("simulations-panel");
  await expect(sims.getByTestId(`sim-decomposed-${run.id}`)).toHaveText("decomposed");
  await expect(sims.getByTestId(`sim-title-${run.id}`)).toContainText("(decomposed)");
  // mid-run: some links done, of the links the estimate planned
  await expect(sims.getByTestId(`sim-status-${run.id}`)).toHaveText(new RegExp(`^[1-9][\\d,]* / ${n(d.links_simulated)} links simulated`), {
    timeout: 120_000,
  });
  await sims.screenshot({ path: "artifacts/decomposed-progress.png" });
  await expect(sims.getByTestId(`sim-progress-${run.id}`)).toHaveAttribute("aria-valuenow", "100", { timeout: 240_000 });
  await expect(sims.getByTestId(`sim-status-${run.id}`)).toHaveAttribute("data-status", "succeeded");
  const done = await job(page, run.id);
  expect([done.links_done, done.links_total]).toEqual([d.links_simulated, d.links_simulated]);
  const res = done.result!;
  const dec = res.decomposition;
  expect([res.model, res.note]).toEqual(["decomposed", DECOMPOSED_NOTE]);
  // the run simulated what the estimate planned (the same scenario, the same plan)
  expect([dec.links_total, dec.links_simulated, dec.links_clustered, dec.links_idle, dec.cluster_threshold]).toEqual([
    d.links_total,
    d.links_simulated,
    d.links_clustered,
    d.links_idle,
    0.05,
  ]);

  // --- Read: the badge and note, the counts, the warnings first, the accuracy per flow-size bucket
  await sims.getByTestId(`sim-open-${run.id}`).click();
  const view = page.getByTestId("sim-result");
  await expect(view.getByTestId("sim-model")).toHaveText("decomposed");
  await expect(view.getByTestId("sim-note")).toHaveText(`${DECOMPOSED_NOTE}.`);
  const stats = view.getByTestId("decomposed-stats");
  await expect(stats.getByTestId("decomposed-simulated")).toHaveText(n(dec.links_simulated));
  await expect(stats.getByTestId("decomposed-clustered")).toHaveText(n(dec.links_clustered));
  await expect(stats.getByTestId("decomposed-idle")).toHaveText(n(dec.links_idle));
  await expect(stats.getByTestId("decomposed-total")).toHaveText(n(dec.links_total));
  await expect(stats.getByTestId("decomposed-cluster")).toContainText("within 5 % of each other");
  expect(dec.warnings.some((w) => w.startsWith("adaptive routing:"))).toBe(true);
  await expect(stats.getByTestId("decomposed-warnings")).toHaveAttribute("role", "alert");
  await expect(stats.getByTestId("decomposed-warning")).toHaveText(dec.warnings);
  const buckets = res.flows.by_size.filter((b) => b.fct_s.count > 0);
  expect(buckets.length).toBeGreaterThan(1); // web search sizes span several buckets
  const rows = stats.getByTestId("decomposed-bucket");
  await expect(rows).toHaveCount(buckets.length);
  let measured = 0;
  await expect(stats.getByTestId("decomposed-accuracy-caption")).toContainText(
    dec.accuracy ? `measured against full packet mode on ${dec.accuracy.measured_on.join(", ")}` : "Not yet measured against full packet mode",
  );
  for (const [i, b] of buckets.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-bucket", b.bucket);
    const acc = dec.accuracy?.by_size.find((a) => a.bucket === b.bucket);
    const cell = row.getByTestId("decomposed-bucket-accuracy");
    if (acc) {
      measured++;
      await expect(cell).toHaveText(
        `p99 within ±${pct(acc.p99_slowdown_error)} % of packet mode (measured); mean within ±${pct(acc.mean_slowdown_error)} % of packet mode (measured)`,
      );
    } else await expect(cell).toHaveText("not measured for this flow size");
  }
  // once calibrated, the buckets measured carry their error and the chart its bars
  if (dec.accuracy) {
    expect(measured).toBeGreaterThan(0);
    await expect(view.getByTestId("chart-slowdown")).toContainText("where packet mode's p99 lies");
  } else await expect(view.getByTestId("chart-slowdown")).not.toContainText("where packet mode's p99 lies");
  await page.screenshot({ path: "artifacts/decomposed-result.png" });
  await view.getByTestId("chart-slowdown").screenshot({ path: "artifacts/decomposed-slowdown.png" });
});
