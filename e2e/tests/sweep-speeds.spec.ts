/**
 * A sweep over port speeds, as a planner runs it on the demo hall (2x25G servers under 48x25G+8x100G
 * ToRs, 64x100G spines): the form says which speeds the hall's devices run, refuses one they do not
 * (naming the parameter), and the 2 x 2 grid of server and fabric speeds arrives into the table with
 * each point's speeds; slower links are cheaper and the shuffle on them slower. The stack runs a real
 * Celery worker and the compiled engine.
 */
import { expect, test } from "@playwright/test";
import { login } from "./helpers";

test("a sweep over server and fabric port speeds: the speeds the hall runs, a refused one, the points with their speeds", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  await page.getByRole("tab", { name: "Plans" }).click();
  await page.getByTestId("simulations-panel").getByTestId("sweep-new").click();
  const sd = page.getByTestId("sweep-dialog");
  await sd.getByTestId("sweep-job-racks").fill("2");
  await sd.getByTestId("sweep-mb").fill("1");
  await sd.getByTestId("sweep-param-0").selectOption("server_gbps");
  await expect(sd.getByTestId("sweep-speeds-0")).toHaveText("this hall runs 10, 25 Gb/s");
  await sd.getByTestId("sweep-param-1").selectOption("fabric_gbps");
  await expect(sd.getByTestId("sweep-speeds-1")).toHaveText("this hall runs 10, 25, 40, 50, 100 Gb/s");
  await sd.getByTestId("sweep-values-1").fill("40G, 100G");

  // 50G is more than the ToRs' server ports run: refused, next to the parameter
  await sd.getByTestId("sweep-values-0").fill("25, 50");
  await sd.getByTestId("sweep-run").click();
  await expect(sd).toContainText("this hall's devices cannot run server links at 50 Gb/s (they run 10, 25 Gb/s)");
  await expect(sd.getByTestId("sweep-table")).toBeHidden();

  await sd.getByTestId("sweep-values-0").fill("10, 25");
  await sd.getByTestId("sweep-run").click();
  const rows = sd.getByTestId("sweep-table").locator("tbody tr");
  await expect(rows).toHaveCount(4);
  const labels = ["server_gbps=10G, fabric_gbps=40G", "server_gbps=10G, fabric_gbps=100G", "server_gbps=25G, fabric_gbps=40G", "server_gbps=25G, fabric_gbps=100G"];
  for (const [i, label] of labels.entries()) await expect(sd.getByTestId(`sweep-point-${i}`)).toContainText(label);
  await expect(sd.getByTestId("sweep-status")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });
  for (const [i, label] of labels.entries()) await expect(sd.getByTestId(`sweep-point-${i}`)).toContainText(label);

  const sweepId = Number(/Sweep (\d+)/.exec((await sd.getByRole("heading").first().textContent()) ?? "")![1]);
  const detail = await (await page.request.get(`/api/v1/sweeps/${sweepId}`)).json();
  type P = { index: number; status: string; params: Record<string, unknown>; figures: { cost_total: number; job_completion_s: number; outcome: string } };
  const pts = detail.points as P[];
  expect(pts.map((p) => [p.params.server_gbps, p.params.fabric_gbps])).toEqual([[10, 40], [10, 100], [25, 40], [25, 100]]);
  expect(pts.every((p) => p.status === "succeeded" && p.figures.outcome === "complete")).toBe(true);
  // Slower cables and optics cost less; the shuffle on 10G servers takes longer than on 25G.
  const [s10f40, s10f100, s25f40, s25f100] = pts.map((p) => p.figures);
  expect(s10f40.cost_total).toBeLessThan(s10f100.cost_total);
  expect(s10f100.cost_total).toBeLessThan(s25f100.cost_total);
  expect(s10f40.cost_total).toBeLessThan(s25f40.cost_total);
  expect(s10f100.job_completion_s).toBeGreaterThan(s25f100.job_completion_s);
  // the table shows the API's costs
  await expect(sd.getByTestId("sweep-point-0")).toContainText(`${s10f40.cost_total.toLocaleString("en", { maximumFractionDigits: 0 })} USD`);
  await page.screenshot({ path: "artifacts/sweep-speeds.png" });
});
