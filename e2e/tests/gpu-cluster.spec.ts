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
import { ids } from "./simulating";

const SUS = 4;
const SERVERS_PER_SU = 4;
const RAILS = 8; // the server's compute NICs
const NIC_GBPS = 400;
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
  await panel.getByTestId("wiring-pattern").selectOption(pattern);
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

test("a GPU hall of 4 SUs wired rail-optimized and rail-only: cables, cost comparison", async ({ page }) => {
  test.setTimeout(240_000);
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
  await form.getByLabel("Spine model").selectOption(spine);
  // A spine model without spines: the server's refusal lands under Spines.
  await form.getByRole("button", { name: "Create GPU hall" }).click();
  await expect(form.getByText("A hall with a spine model needs at least 1 spine.")).toBeVisible();
  await form.getByLabel("Spines").fill("2");
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

  // --- the two plans compared: rail-only has the same server cables and no uplinks, so it is cheaper
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
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
});
