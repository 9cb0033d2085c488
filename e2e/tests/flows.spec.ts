/**
 * Per-flow results as a planner reads them: a shuffle on a plan of the demo hall, then the result
 * view's flow-completion CDF drawn from every finished flow (one point per flow, as many as the API
 * says finished), the per-flow table paged and sorted by completion time (the longest first = the
 * API's maximum), and the "Download flows (CSV)" file with one line per flow.
 */
import { expect, test } from "@playwright/test";
import { download, generate, parseCsv } from "./planning";
import { login } from "./helpers";
import { simulationJobs } from "./simulating";

interface Job {
  id: number;
  status: string;
  flow_records: number | null;
  result: { flows: { total: number; finished: number; fct_s: { max: number | null } } } | null;
}

const jobs = simulationJobs<Job>;

test("a result's exact completion CDF, its per-flow table and the flows CSV", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const m = /\/projects\/(\d+)\/halls\/(\d+)/.exec(new URL(page.url()).pathname)!;
  const [projectId, hallId] = [Number(m[1]), Number(m[2])];
  const plan = await generate(page, projectId, hallId, "paired-row");

  await page.getByRole("tab", { name: "Plans" }).click();
  const plans = page.getByTestId("plans-panel");
  for (const box of await plans.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await plans.getByTestId(`plan-select-${plan.id}`).check();
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");
  await form.getByTestId("preset-shuffle").check();
  await form.getByTestId("param-job_racks").fill("2");
  await form.getByTestId("param-bytes").fill("1");
  await form.getByTestId("sim-routing").selectOption("ecmp");
  await form.getByTestId("sim-seeds").fill("1");
  const before = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(1);
  const id = (await jobs(page, projectId)).find((j) => !before.has(j.id))!.id;
  const sims = page.getByTestId("simulations-panel");
  await expect(sims.getByTestId(`sim-status-${id}`)).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  const job: Job = await (await page.request.get(`/api/v1/simulations/${id}`)).json();
  const flows = job.result!.flows;
  expect(flows.total).toBe(30 * 29); // 2 racks x 15 servers, every ordered pair
  expect(job.flow_records).toBe(flows.total);

  await sims.getByTestId(`sim-open-${id}`).click();
  const view = page.getByTestId("sim-result");
  // The CDF: one point per finished flow, drawn (uPlot canvas)
  const cdf = view.getByTestId("fct-cdf");
  await expect(cdf).toHaveAttribute("data-exact", "true");
  await expect(view.getByTestId("chart-fct-cdf")).toHaveAttribute("data-points", String(flows.finished));
  await expect(view.getByTestId("chart-fct-cdf").locator("canvas")).toBeVisible();
  await expect(view.getByTestId("chart-fct-cdf")).toContainText(`all ${flows.finished} finished flows`);

  // The table: 50 a page, by index first; sorted by completion, longest first = the API's max
  const table = view.getByTestId("flows-table");
  await expect(table.getByTestId("flows-total")).toHaveAttribute("data-total", String(flows.total));
  await expect(table.getByTestId("flow-row")).toHaveCount(50);
  await expect(table.getByTestId("flow-row").first()).toHaveAttribute("data-index", "0");
  await expect(table.getByTestId("flows-page")).toHaveText(`page 1 of ${Math.ceil(flows.total / 50)}`);
  await table.getByTestId("flows-next").click();
  await expect(table.getByTestId("flow-row").first()).toHaveAttribute("data-index", "50");
  await table.getByTestId("flows-sort-fct_s").click(); // ascending, back to page 1
  await table.getByTestId("flows-sort-fct_s").click(); // descending
  await expect(table.getByTestId("flows-page")).toHaveText(`page 1 of ${Math.ceil(flows.total / 50)}`);
  if (flows.finished === flows.total) {
    // the descending page replaces the ascending one when its request returns: poll the first row
    const top = async () => Number(await table.getByTestId("flow-row").first().locator("td[data-fct]").getAttribute("data-fct"));
    await expect.poll(top).toBeCloseTo(job.result!.flows.fct_s.max!, 12);
  }
  await table.getByTestId("flows-filter").selectOption("unfinished");
  await expect(table.getByTestId("flows-total")).toHaveAttribute("data-total", String(flows.total - flows.finished));

  // The CSV: a header and one line per flow
  const file = await download(page, "sim-download-flows");
  expect(file.name).toBe(`simulation-${id}-flows.csv`);
  const rows = parseCsv(file.body.toString("utf8")).filter((r) => r.length > 1);
  expect(rows[0]).toEqual(["index", "src", "dst", "bytes", "start_s", "fct_s", "slowdown"]);
  expect(rows.length).toBe(1 + flows.total);
  expect(rows.slice(1).filter((r) => r[5] !== "").length).toBe(flows.finished);
  await page.screenshot({ path: "artifacts/simulation-flows.png" });
});
