/**
 * A GPU cluster as a planner builds it (issue 31): a GPU hall of 4 scalable units created from the
 * project page, wired rail-optimized and rail-only from the Wiring tab, the two plans compared (cable
 * counts and which is cheaper, derived by hand from the cluster's numbers), a training step run on both,
 * and a message-size sweep of an all-reduce read as its bus-bandwidth chart and table.
 *
 * The cluster: 4 SUs x 4 servers of the builtin `8x400G GPU server` (DGX H100: 8 GPUs, 8 compute NICs of
 * 400G, one rail each), 4 servers a rack, rail leaves `32x400G+32x400G leaf`, 2 spines `64x400G 1U spine`.
 */
import { expect, test, type Page } from "@playwright/test";
import { ARTIFACTS, login, waitForEditor } from "./helpers";
import { plansOf, type Plan } from "./planning";
import { ids, simulationJob, simulationJobs } from "./simulating";

interface Training {
  iterations: number;
  buckets: number;
  step_time_s: number;
  compute_s: number;
  exposed_communication_s: number;
  algbw_gbps: number;
  busbw_gbps: number;
}
interface Job {
  id: number;
  plan_id: number;
  name: string;
  status: string;
  result: { job_completion_s: number | null; training?: Training | null } | null;
}

/** Seconds as the view writes them (µs, ms or s). */
function seconds(s: number): string {
  if (s < 1e-3) return `${(s * 1e6).toLocaleString("en", { maximumFractionDigits: 1 })} µs`;
  if (s < 1) return `${(s * 1e3).toLocaleString("en", { maximumFractionDigits: 2 })} ms`;
  return `${s.toLocaleString("en", { maximumFractionDigits: 3 })} s`;
}
/** Gb/s as the view writes them, with nccl-tests' GB/s beside. */
function bandwidth(gbps: number): string {
  const f = (x: number) => x.toLocaleString("en", { maximumFractionDigits: x < 10 ? 2 : 1 });
  return `${f(gbps)} Gb/s (${f(gbps / 8)} GB/s)`;
}

const SUS = 4;
const SERVERS_PER_SU = 4;
const RAILS = 8; // the server's compute NICs
const NIC_GBPS = 400;
const FRONT_END_NICS = 4; // the server's front-end NIC ports (storage, in-band management)
const SERVERS = SUS * SERVERS_PER_SU;
/** Every server's NIC i to rail leaf i of its SU: one cable per NIC, in both plans. */
const SERVER_CABLES = SERVERS * RAILS;
/** Rail-optimized at 1:1: each leaf has as many 400G uplinks as 400G servers below it (U = SU size). */
const UPLINK_CABLES = SUS * RAILS * SERVERS_PER_SU;

const int = (x: number) => x.toLocaleString("en");
const cell = (page: Page, key: string, planId: number) =>
  page.getByTestId(`compare-${key}`).locator(`td[data-plan="${planId}"]`);

async function catalogId(page: Page, kind: string, name: string): Promise<string> {
  const items = (await (await page.request.get(`/api/v1/catalog/${kind}?limit=200`)).json()).items as { id: number; name: string }[];
  const found = items.find((x) => x.name === name);
  expect(found, `${name} in the catalog`).toBeTruthy();
  return String(found!.id);
}

/** Generate a rail plan from the Wiring tab; returns the API's plan. */
async function railPlan(page: Page, pattern: "rail-optimized" | "rail-only", leafId: string): Promise<Plan> {
  const { projectId, hallId } = ids(page);
  const before = (await plansOf(page.request, projectId, hallId)).length;
  await page.getByRole("tab", { name: "Wiring" }).click();
  const panel = page.getByTestId("wiring-panel");
  await panel.getByTestId("wiring-fabric").selectOption("compute");
  // The hall's options are read (MC-LAG cannot wire a GPU server's NICs to ToRs of its own rack: one per rack);
  // a rail pattern is not judged by them (its SU size and leaf model are the planner's): no "cannot be built" on it.
  const menu = panel.getByTestId("wiring-pattern");
  // A GPU hall's first plan: the form starts on the rail-optimized pattern by itself.
  if (before === 0) await expect(menu).toHaveValue("rail-optimized");
  await expect(menu.locator('option[value="mc-lag"]')).toContainText("cannot be built here");
  await expect(menu.locator(`option[value="${pattern}"]`)).toHaveText(pattern === "rail-optimized" ? "Rail-optimized (GPU)" : "Rail-only (GPU)");
  await panel.getByTestId("wiring-pattern").selectOption(pattern);
  await expect(panel.getByTestId("wiring-pattern-infeasible")).toHaveCount(0);
  await panel.getByTestId("wiring-su-size").fill(String(SERVERS_PER_SU));
  await panel.getByTestId("wiring-leaf-model").selectOption(leafId);
  await expect(panel.getByTestId("wiring-oversubscription")).toHaveCount(pattern === "rail-optimized" ? 1 : 0);
  await panel.getByTestId("wiring-generate").click();
  await expect.poll(async () => (await plansOf(page.request, projectId, hallId)).length, { timeout: 60_000 }).toBe(before + 1);
  const plan = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  await expect(panel.getByTestId("wiring-plans")).toHaveValue(String(plan.id));
  await expect(panel.getByTestId("cable-count")).toHaveText(int(plan.summary.cables), { timeout: 60_000 });
  return plan;
}

test("a GPU hall of 4 SUs wired rail-optimized and rail-only: cables, cost comparison, a training step on both, the bus-bandwidth chart", async ({ page }) => {
  test.setTimeout(420_000);
  await login(page, "/projects");
  // A project of its own: its own price book, its own plans.
  const res = await page.request.post("/api/v1/projects", { data: { name: `gpu-${Date.now().toString(36)}` } });
  expect(res.status(), await res.text()).toBe(201);
  const projectId: number = (await res.json()).id;
  const [server, leaf, spine] = await Promise.all([
    catalogId(page, "server-models", "8x400G GPU server"),
    catalogId(page, "switch-models", "32x400G+32x400G leaf"),
    catalogId(page, "switch-models", "64x400G 1U spine"),
  ]);

  // --- the GPU hall, from the project page
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("new-gpu-hall").click();
  const form = page.getByRole("form", { name: "New GPU hall" });
  await form.getByLabel("Hall name").fill("GPU1");
  await form.getByLabel("Floor width (m)").fill("20");
  await form.getByLabel("Floor depth (m)").fill("20");
  await form.getByLabel("Scalable units (SUs)").fill(String(SUS));
  await form.getByLabel("GPU servers per SU").fill(String(SERVERS_PER_SU));
  await form.getByLabel("GPU servers per rack").fill("4");
  // Refused before sending, at the field: no server model chosen yet.
  await form.getByRole("button", { name: "Create GPU hall" }).click();
  await expect(form.getByText("Choose the GPU server model.")).toBeVisible();
  await form.getByLabel("GPU server model").selectOption(server);
  await form.getByLabel("Rail leaf model").selectOption(leaf);
  await form.getByLabel("Spine model", { exact: true }).selectOption(spine);
  // A spine model without spines: the server's refusal lands under Spines.
  await form.getByRole("button", { name: "Create GPU hall" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "needs at least 1 spine" })).toBeVisible();
  await expect(form.getByLabel("Spines", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Spines", { exact: true }).fill("2");
  await form.getByRole("button", { name: "Create GPU hall" }).click();
  await waitForEditor(page);
  const { hallId } = ids(page);

  // The hall list says what kind of hall it is.
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId(`hall-${hallId}`).getByTestId("hall-kind")).toHaveText("GPU hall");
  await page.getByTestId(`hall-${hallId}`).locator("a.hall-open").click();
  await waitForEditor(page);

  // --- rail-optimized, then rail-only, from the Wiring tab
  const optimized = await railPlan(page, "rail-optimized", leaf);
  const only = await railPlan(page, "rail-only", leaf);
  expect(optimized.summary.servers).toBe(SERVERS);
  expect(optimized.summary.cables).toBe(SERVER_CABLES + UPLINK_CABLES);
  expect(only.summary.cables).toBe(SERVER_CABLES);
  // Rail-only leaves no path between SUs, and says so.
  expect(only.summary.warnings.some((w) => w.includes("share no switch"))).toBe(true);

  // --- the front-end network over the same racks: a plan of its own, each server's front-end NICs to its
  // rack's ToR; the rail patterns wire the compute fabric only, and the refusal lands under the Network menu
  const wiring = page.getByTestId("wiring-panel");
  await wiring.getByTestId("wiring-fabric").selectOption("front_end");
  await wiring.getByTestId("wiring-generate").click();
  await expect(wiring.getByTestId("wiring-error-fabric")).toContainText("rail-only wires the compute fabric");
  await wiring.getByTestId("wiring-pattern").selectOption("single-homed");
  await wiring.getByTestId("wiring-generate").click();
  await expect.poll(async () => (await plansOf(page.request, projectId, hallId)).length, { timeout: 60_000 }).toBe(3);
  const frontEnd = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect(frontEnd.name).toBe("Single-homed (Type 0) (front end)");
  expect(frontEnd.summary.cables).toBe(SERVERS * FRONT_END_NICS);
  await expect(wiring.getByTestId("cable-count")).toHaveText(int(SERVERS * FRONT_END_NICS));

  // --- the two compute plans compared: rail-only has the same server cables and no uplinks, so it is cheaper
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await expect(panel.getByTestId(`plan-${frontEnd.id}`)).toContainText(`${int(SERVERS * FRONT_END_NICS)} cables`);
  await panel.getByTestId(`plan-select-${optimized.id}`).check();
  await panel.getByTestId(`plan-select-${only.id}`).check();
  await panel.getByTestId("plans-compare").click();
  const compare = page.getByTestId("compare-dialog");
  await expect(compare).toBeVisible();
  await expect(cell(page, "cables", optimized.id)).toHaveText(int(SERVER_CABLES + UPLINK_CABLES));
  await expect(cell(page, "cables", only.id)).toHaveText(int(SERVER_CABLES));
  await expect(page.getByTestId("compare-servers")).not.toHaveClass(/differs/);
  await expect(page.getByTestId("compare-cables")).toHaveClass(/differs/);
  expect(only.summary.cost.total).toBeLessThan(optimized.summary.cost.total);
  const total = async (id: number) => Number((await cell(page, "cost.total", id).innerText()).replace(/[^0-9.]/g, ""));
  expect(await total(only.id)).toBeLessThan(await total(optimized.id));
  await page.screenshot({ path: `${ARTIFACTS}/gpu-compare.png` });
  await compare.getByRole("button", { name: "Close" }).click();

  // --- a training step on both plans: 100 MB of gradients per GPU in 25 MB buckets (4 all-reduces), one SU's
  // 32 GPUs (its 4 servers, packed), forward 50 ms + backward 100 ms (the preset's defaults)
  for (const box of await panel.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await panel.getByTestId(`plan-select-${optimized.id}`).check();
  await panel.getByTestId(`plan-select-${only.id}`).check();
  await page.getByTestId("plans-simulate").click();
  const sim = page.getByTestId("simulate-dialog");
  await sim.getByTestId("preset-training-step").check();
  await sim.getByTestId("param-bytes").fill("100");
  await sim.getByTestId("param-bucket_bytes").fill("25");
  await sim.getByTestId("param-gpus").fill(String(SERVERS_PER_SU * RAILS));
  await sim.getByTestId("param-placement").selectOption("packed");
  // The failed switch is chosen among the plan's switches (rail leaves, spines), never a server's interconnect.
  const failable = await sim.getByTestId("param-failed").locator("option").allTextContents();
  expect(failable[0]).toBe("none");
  expect(failable.filter((o) => o.includes("(tor)"))).toHaveLength(SUS * RAILS);
  expect(failable.some((o) => o.includes("interconnect"))).toBe(false);
  await sim.getByTestId("sim-seeds").fill("1");
  const before = new Set((await simulationJobs<Job>(page, projectId)).map((j) => j.id));
  await sim.getByTestId("sim-run").click();
  await expect(sim).toBeHidden();
  await expect.poll(async () => (await simulationJobs<Job>(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(2);
  const runs = (await simulationJobs<Job>(page, projectId)).filter((j) => !before.has(j.id));
  const sims = page.getByTestId("simulations-panel");
  for (const j of runs) await expect(sims.getByTestId(`sim-status-${j.id}`)).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  const times: Record<number, number> = {};
  for (const j of runs) {
    const done = await simulationJob<Job>(page, j.id);
    const t = done.result!.training!;
    // 100 MB / 25 MB = 4 buckets; compute = forward + backward = 150 ms; the bucket all-reduces' busbw is
    // above 0 and at most a GPU's NIC (400G): a rank's ring neighbours on other servers are one 400G rail away.
    expect([t.iterations, t.buckets]).toEqual([1, 4]);
    expect(t.compute_s).toBeCloseTo(0.15, 9);
    expect(t.busbw_gbps).toBeGreaterThan(0);
    expect(t.busbw_gbps).toBeLessThanOrEqual(NIC_GBPS);
    expect(t.step_time_s).toBeGreaterThanOrEqual(t.compute_s);
    times[done.plan_id] = t.step_time_s;
    await sims.getByTestId(`sim-open-${j.id}`).click();
    const view = page.getByTestId("sim-result");
    await expect(view.getByTestId("sim-training-step")).toHaveText(seconds(t.step_time_s));
    await expect(view.getByTestId("sim-training-compute")).toHaveText("150 ms");
    await expect(view.getByTestId("sim-training-exposed")).toContainText(seconds(t.exposed_communication_s));
    await expect(view.getByTestId("sim-training-busbw")).toHaveText(bandwidth(t.busbw_gbps));
    await expect(view.getByTestId("sim-training-buckets")).toHaveText("1 × 4");
    await page.keyboard.press("Escape");
    await expect(view).toBeHidden();
  }
  // The job fits one SU, whose servers share every rail leaf in both plans: the same paths, the same step.
  expect(times[only.id]).toBe(times[optimized.id]);

  // --- the runs compared with the plans' cost: rail-only is as fast and cheaper, so it alone is on the frontier
  for (const j of runs) await expect(sims.getByTestId(`sim-select-${j.id}`)).toBeChecked();
  await sims.getByTestId("sim-compare").click();
  const cmp = page.getByTestId("sim-compare-dialog");
  const table = cmp.getByTestId("speedup-table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.getByTestId(`speedup-${only.id}`)).toContainText("◆ Pareto");
  await expect(table.getByTestId(`speedup-${optimized.id}`)).not.toContainText("◆ Pareto");
  for (const id of [only.id, optimized.id]) await expect(table.getByTestId(`speedup-${id}`).getByTestId("step-time")).toHaveText(seconds(times[id]!));
  await page.screenshot({ path: `${ARTIFACTS}/gpu-training-compare.png` });
  await page.keyboard.press("Escape");
  await expect(cmp).toBeHidden();

  // --- the collective sweep on the rail-optimized plan's wiring: bus bandwidth against message size
  await sims.getByTestId("sweep-new").click();
  const sd = page.getByTestId("sweep-dialog");
  await sd.getByTestId("sweep-kind").selectOption("collective-sweep");
  await sd.getByTestId("sweep-pattern").selectOption("rail-optimized");
  await sd.getByTestId("sweep-su-size").fill(String(SERVERS_PER_SU));
  await sd.getByTestId("sweep-leaf-model").selectOption(leaf);
  await sd.getByTestId("sweep-param-op").selectOption("all_reduce");
  await sd.getByTestId("sweep-param-gpus").fill(String(SERVERS_PER_SU * RAILS));
  await sd.getByTestId("sweep-run").click();
  await expect(sd.getByTestId("sweep-status")).toHaveAttribute("data-status", "succeeded", { timeout: 240_000 });
  const chart = sd.getByTestId("busbw-chart");
  await expect(chart.locator("canvas")).toBeVisible();
  // 13 sizes: every power of two from 1 MiB (2^20) to 4 GiB (2^32), smallest first, each with its busbw
  await expect(chart).toHaveAttribute("data-points", "13");
  const rows = sd.getByTestId("busbw-table").locator("tbody tr");
  await expect(rows).toHaveCount(13);
  for (let i = 0; i < 13; i++) {
    await expect(rows.nth(i)).toHaveAttribute("data-bytes", String(2 ** (20 + i)));
    const busbw = Number(await rows.nth(i).getAttribute("data-busbw-gbps"));
    expect(busbw).toBeGreaterThan(0);
    expect(busbw).toBeLessThanOrEqual(NIC_GBPS);
  }
  await expect(rows.first()).toContainText("1 MiB");
  await expect(rows.last()).toContainText("4 GiB");
  await page.screenshot({ path: `${ARTIFACTS}/gpu-busbw.png` });
});

test("the collective preset spread over the SUs, a training step with a failed rail leaf that never ends, a sweep of the leaves' oversubscription", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page, "/projects");
  // The hall and its plan through the API (the first test draws them as a planner does): 2 SUs of 4 servers.
  const res = await page.request.post("/api/v1/projects", { data: { name: `gpu-fail-${Date.now().toString(36)}` } });
  expect(res.status(), await res.text()).toBe(201);
  const projectId: number = (await res.json()).id;
  const [server, leaf, spine] = await Promise.all([
    catalogId(page, "server-models", "8x400G GPU server"),
    catalogId(page, "switch-models", "32x400G+32x400G leaf"),
    catalogId(page, "switch-models", "64x400G 1U spine"),
  ]);
  const gpuCluster = {
    scalable_units: 2,
    servers_per_su: SERVERS_PER_SU,
    server_model_id: Number(server),
    servers_per_rack: 4,
    rail_leaf_model_id: Number(leaf),
    spine_model_id: Number(spine),
    spines: 1,
  };
  const hallRes = await page.request.post(`/api/v1/projects/${projectId}/halls`, {
    data: { name: "GPU2", width_m: 20, depth_m: 20, gpu_cluster: gpuCluster },
  });
  expect(hallRes.status(), await hallRes.text()).toBe(201);
  const hall = await hallRes.json();
  expect(hall.kind).toBe("gpu");
  const planRes = await page.request.post(`/api/v1/halls/${hall.id}/wiring-plans`, {
    data: { name: "rail-optimized", pattern: "rail-optimized", rail: { su_size: SERVERS_PER_SU, leaf_model_id: Number(leaf) } },
  });
  expect(planRes.status(), await planRes.text()).toBe(201);
  const plan = await planRes.json();
  await page.goto(`/projects/${projectId}/halls/${hall.id}`);
  await waitForEditor(page);

  const simulate = async () => {
    await page.getByRole("tab", { name: "Plans" }).click();
    await page.getByTestId("plans-panel").getByTestId(`plan-select-${plan.id}`).check();
    await page.getByTestId("plans-simulate").click();
    return page.getByTestId("simulate-dialog");
  };
  const runOne = async (form: ReturnType<Page["getByTestId"]>): Promise<Job> => {
    const before = new Set((await simulationJobs<Job>(page, projectId)).map((j) => j.id));
    await form.getByTestId("sim-run").click();
    await expect(form).toBeHidden();
    await expect.poll(async () => (await simulationJobs<Job>(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(1);
    const job = (await simulationJobs<Job>(page, projectId)).find((j) => !before.has(j.id))!;
    await expect(page.getByTestId("simulations-panel").getByTestId(`sim-status-${job.id}`)).toHaveAttribute("data-status", "succeeded", {
      timeout: 120_000,
    });
    return job;
  };

  // --- an all-reduce of 64 MiB per rank on 2 servers spread over the 2 SUs (16 GPUs); the algorithm left to the
  // engine (its default for an all-reduce is the ring)
  let form = await simulate();
  await form.getByTestId("preset-collective").check();
  await form.getByTestId("param-op").selectOption("all_reduce");
  await expect(form.getByTestId("param-algorithm")).toHaveValue("");
  await form.getByTestId("param-bytes").fill("64");
  await form.getByTestId("param-gpus").fill(String(2 * RAILS));
  await form.getByTestId("param-placement").selectOption("spread");
  // A skew is for an all-to-all: the engine refuses one on an all-reduce, and the refusal shows under Skew.
  await form.getByTestId("param-skew").fill("0.5");
  await form.getByTestId("sim-run").click();
  await expect(form.getByTestId("param-skew").locator("xpath=..").getByRole("alert")).toContainText("only all_to_all has a skew");
  await form.getByTestId("param-skew").fill("0");
  const coll = await runOne(form);
  expect(coll.name).toBe("all-reduce steps 64 MiB on 16 GPUs spread · ECMP · seed 1");
  const collResult = (await simulationJob<{ result: { collective: { ranks: number; algorithm: string; busbw_gbps: number } } }>(page, coll.id)).result;
  expect([collResult.collective.ranks, collResult.collective.algorithm]).toEqual([2 * RAILS, "ring"]);
  expect(collResult.collective.busbw_gbps).toBeGreaterThan(0);
  expect(collResult.collective.busbw_gbps).toBeLessThanOrEqual(NIC_GBPS);
  await page.getByTestId("simulations-panel").getByTestId(`sim-open-${coll.id}`).click();
  let view = page.getByTestId("sim-result");
  await expect(view.getByTestId("sim-collective")).toContainText("All-reduce · ring · steps · 16 ranks · 64 MiB");
  await expect(view.getByTestId("sim-collective-busbw")).toHaveText(bandwidth(collResult.collective.busbw_gbps));
  await page.keyboard.press("Escape");
  await expect(view).toBeHidden();

  // --- a training step over the same 16 GPUs with SU 1's first rail leaf down from the start: GPU 0 of the
  // SU 1 server has no way out of its server to the other SU, so the ring never closes and the step never ends
  form = await simulate();
  await form.getByTestId("preset-training-step").check();
  await form.getByTestId("param-bytes").fill("50");
  await form.getByTestId("param-gpus").fill(String(2 * RAILS));
  await form.getByTestId("param-placement").selectOption("spread");
  const firstLeaf = await form.getByTestId("param-failed").locator("option", { hasText: "SU1.RAIL1 (tor)" }).getAttribute("value");
  expect(firstLeaf).toMatch(/\.SU1\.RAIL1$/);
  await form.getByTestId("param-failed").selectOption(firstLeaf!);
  const failed = await runOne(form);
  expect(failed.name).toContain(`${firstLeaf} down`);
  await expect(page.getByTestId("simulations-panel").getByTestId(`sim-status-${failed.id}`)).toHaveAttribute("data-outcome", "partial");
  await page.getByTestId("simulations-panel").getByTestId(`sim-open-${failed.id}`).click();
  view = page.getByTestId("sim-result");
  await expect(view.getByTestId("sim-headline")).toHaveAttribute("data-verdict", "incomplete");
  await expect(view.getByTestId("sim-training-step")).toHaveText("—");
  await expect(view.getByTestId("sim-why")).toContainText(firstLeaf!);
  await page.screenshot({ path: `${ARTIFACTS}/gpu-failed-leaf.png` });
  await page.keyboard.press("Escape");
  await expect(view).toBeHidden();

  // --- what oversubscription the spine can take: a grid sweep of rail-optimized at 1:1, 2:1 and 4:1, each point
  // an all-reduce of every GPU. Each leaf has SU x 400G below it, so U = 4 x 400 / (ratio x 400) = 4, 2, 1
  // uplinks: 2 SUs x 8 leaves x U uplink cables beside the 8 servers x 8 NIC cables.
  await page.getByTestId("simulations-panel").getByTestId("sweep-new").click();
  const sd = page.getByTestId("sweep-dialog");
  await sd.getByTestId("sweep-base-pattern").selectOption("rail-optimized");
  await sd.getByTestId("sweep-su-size").fill(String(SERVERS_PER_SU));
  await sd.getByTestId("sweep-leaf-model").selectOption(leaf);
  await sd.getByTestId("sweep-param-0").selectOption("oversubscription");
  await sd.getByTestId("sweep-values-0").fill("1, 2, 4");
  await sd.getByTestId("sweep-param-1").selectOption("workload");
  await sd.getByTestId("sweep-values-1").fill("collective");
  await sd.getByTestId("sweep-mb").fill("16");
  await sd.getByTestId("sweep-run").click();
  await expect(sd.getByTestId("sweep-status")).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  const sweepId = Number(/Sweep (\d+)/.exec((await sd.locator("h2").first().innerText()) ?? "")?.[1]);
  const points = (await (await page.request.get(`/api/v1/sweeps/${sweepId}`)).json()).points as {
    params: { oversubscription: number };
    figures: { cables: number; cost_total: number; collective: { busbw_gbps: number } };
  }[];
  const byRatio = Object.fromEntries(points.map((p) => [p.params.oversubscription, p.figures]));
  const servers = 2 * SERVERS_PER_SU;
  expect([1, 2, 4].map((r) => byRatio[r]!.cables)).toEqual([4, 2, 1].map((u) => servers * RAILS + 2 * RAILS * u));
  // fewer uplinks, lower cost; a thinner spine cannot carry more
  expect(byRatio[1]!.cost_total).toBeGreaterThan(byRatio[2]!.cost_total);
  expect(byRatio[2]!.cost_total).toBeGreaterThan(byRatio[4]!.cost_total);
  for (const r of [1, 2, 4]) expect(byRatio[r]!.collective.busbw_gbps).toBeLessThanOrEqual(NIC_GBPS);
  // (a ring crosses the spine once per leaf, so the ratio barely matters to it: the two agree to
  // the solver's rounding, a few parts in a billion)
  expect(byRatio[4]!.collective.busbw_gbps).toBeLessThanOrEqual(byRatio[1]!.collective.busbw_gbps * (1 + 1e-6));
  await expect(sd.getByTestId("sweep-configs").locator("tbody tr")).toHaveCount(3);
  await page.screenshot({ path: `${ARTIFACTS}/gpu-oversubscription-sweep.png` });
});
