/**
 * Issue 24, what a new user tripped on, done as the user did it: prices saved in the price book show
 * at once in the plan list and in Compare; a viewer sees every write control off, "Read-only" in the
 * bar, and an attempted write changes nothing; a simulation has one name in the list and its result,
 * packet runs say so, rack counts say logical racks and the busiest queues say which queues and which
 * buffer; and the small things (the view button just clicked, notices, undo keeping the selection, a
 * drag selecting no text, the empty hall's hint).
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { freshHall, login, openHall, saved, view, waitForEditor, type LayoutRow } from "./helpers";
import { plannedHall, plansOf, TORS, type Plan } from "./planning";

const TOR = "48x25G+8x100G ToR";
const SPINE = "64x100G spine";
/** The planned hall's network rack holds four spines (planning.ts). */
const SPINES = 4;
const money = (x: number, cur: string) => `${x.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${cur}`;

async function generateByApi(page: Page, hallId: number, body: Record<string, unknown>): Promise<Plan> {
  const res = await page.request.post(`/api/v1/halls/${hallId}/wiring-plans`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

test("a saved price book shows at once in the plan list and in Compare, without a reload", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "prices");
  const a = await generateByApi(page, hallId, { name: "paired", pattern: "paired-row" });
  const b = await generateByApi(page, hallId, { name: "side", pattern: "side-to-side", ports: 2 });
  // Before: the switches are the only unpriced lines (the default book has no switch prices).
  for (const p of [a, b]) {
    expect(p.summary.cost.switches).toBe(0);
    expect((p.summary.cost.unpriced as { part_number: string }[]).map((u) => u.part_number).sort()).toEqual([TOR, SPINE].sort());
  }
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await expect(panel.getByTestId(`plan-${a.id}`)).toContainText(money(a.summary.cost.total, a.summary.cost.currency));
  // The total says plainly what it leaves out (the default book prices no switch), with the way to fix it.
  const note = await panel.getByTestId(`plan-unpriced-${a.id}`).innerText();
  expect(note).toMatch(/switches unpriced \((.+)\): the total leaves them out/);
  expect(note.match(/\((.+)\)/)![1]!.split(", ").sort()).toEqual([TOR, SPINE].sort());

  // The user's steps: Set switch prices… (one click to the price book, at the unpriced switches) ->
  // ToR 9,000, spine 25,000 -> Save -> Close.
  await panel.getByTestId(`plan-set-prices-${a.id}`).click();
  const book = page.getByTestId("pricebook-dialog");
  const first = a.summary.cost.unpriced[0] as { part_number: string };
  await expect(book.getByTestId(`price-${first.part_number}`)).toBeFocused();
  await expect(book.locator("tr.focused")).toHaveCount(2);
  await book.getByTestId(`price-${TOR}`).fill("9000");
  await book.getByTestId(`price-${SPINE}`).fill("25000");
  await book.getByTestId("pricebook-save").click();
  await expect(book.getByTestId("pricebook-version")).toContainText("Version 1");
  await book.getByRole("button", { name: "Close" }).click();
  await expect(book).toBeHidden();

  // By hand: 24 ToRs x 9,000 + 4 spines x 25,000 = 216,000 + 100,000 = 316,000 more on each plan.
  expect(TORS).toBe(24);
  const switches = TORS * 9000 + SPINES * 25000;
  expect(switches).toBe(316_000);
  for (const p of [a, b]) {
    const row = panel.getByTestId(`plan-${p.id}`);
    await expect(row).toContainText(money(p.summary.cost.total + switches, p.summary.cost.currency));
    await expect(panel.getByTestId(`plan-unpriced-${p.id}`)).toHaveCount(0);
  }
  // The API agrees (priced as it is read).
  for (const p of await plansOf(page.request, projectId, hallId)) {
    const before = p.id === a.id ? a : b;
    expect(p.summary.cost.total).toBeCloseTo(before.summary.cost.total + switches, 2);
  }

  await panel.getByTestId(`plan-select-${a.id}`).check();
  await panel.getByTestId(`plan-select-${b.id}`).check();
  await panel.getByTestId("plans-compare").click();
  const compare = page.getByTestId("compare-dialog");
  for (const p of [a, b]) {
    const cell = (key: string) => compare.getByTestId(`compare-${key}`).locator(`td[data-plan="${p.id}"]`);
    await expect(cell("cost.switches")).toHaveText(money(switches, p.summary.cost.currency));
    await expect(cell("cost.total")).toHaveText(money(p.summary.cost.total + switches, p.summary.cost.currency));
    await expect(cell("cost.unpriced")).toHaveText("0");
  }
});

const VIEWER_PASSWORD = "violet tractor meadow 42";

/** A second browser logged in as a new account that is a viewer of the project. */
async function viewerPage(browser: Browser, owner: Page, projectId: number): Promise<Page> {
  const email = `viewer-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`;
  const context = await browser.newContext();
  const page = await context.newPage();
  const reg = await page.request.post("/api/v1/auth/register", { data: { email, password: VIEWER_PASSWORD, display_name: "Vera" } });
  expect(reg.ok(), await reg.text()).toBe(true);
  const invited = await owner.request.post(`/api/v1/projects/${projectId}/invitations`, { data: { email, role: "viewer" } });
  expect(invited.status(), await invited.text()).toBe(201);
  await page.goto("/");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(VIEWER_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("me")).toHaveText(email);
  const accepted = await page.request.post("/api/v1/auth/invitations/accept", { data: { token: (await invited.json()).token } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return page;
}

test("a viewer sees the editing tools off and 'Read-only', and an attempted write changes nothing", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "viewer");
  await generateByApi(page, hallId, { name: "paired", pattern: "paired-row" });
  const layoutOf = async (p: Page) => {
    const res = await p.request.get(`/api/v1/halls/${hallId}/layout`);
    expect(res.status()).toBe(200);
    return (await res.json()) as { rows: LayoutRow[] };
  };
  const before = await layoutOf(page);
  expect(before.rows.map((r) => r.name).sort()).toEqual(["N01", "R01", "R02"]);

  const viewer = await viewerPage(browser, page, projectId);
  await viewer.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(viewer);
  const bar = viewer.getByRole("navigation", { name: "Editor tools" });
  await expect(bar.getByTestId("read-only")).toHaveText("Read-only");
  for (const label of ["Draw a row", "Add a facing pair (cold aisle)", "Duplicate row at next aisle", "Rotate row 90°", "Flip front side", "Delete", "Undo", "Redo"])
    await expect(bar.getByRole("button", { name: label, exact: true })).toBeDisabled();
  // Reading stays on: the views and selecting.
  await expect(bar.getByRole("button", { name: "Plan view (top-down)" })).toBeEnabled();
  await expect(bar.getByRole("button", { name: "Select", exact: true })).toBeEnabled();

  // Select a row (plan view), then try the shortcuts that write: facing pair, draw, nudge, rotate, delete.
  await view(viewer, "plan");
  const r01 = before.rows.find((r) => r.name === "R01")!;
  const at = await viewer.evaluate(([x, y]) => window.__loopline!.project!(x * 1000, y * 1000, 0), [r01.x_m + 1.5, r01.y_m + 0.6] as const);
  await viewer.mouse.click(at.x, at.y);
  await expect.poll(() => viewer.evaluate(() => window.__loopline!.session.getState().selection.length)).toBeGreaterThan(0);
  const records = () => viewer.evaluate(() => JSON.stringify(window.__loopline!.store.records));
  const shown = await records();
  for (const key of ["p", "d", "ArrowRight", "r", "Shift+F", "Delete", "Control+d", "Control+z"]) await viewer.keyboard.press(key);
  expect(await viewer.evaluate(() => window.__loopline!.session.getState().view)).toBe("plan");
  // A drag on a row in the plan view selects; it never moves the row.
  const from = await viewer.evaluate(([x, y]) => window.__loopline!.project!(x * 1000, y * 1000, 0), [r01.x_m + 1.5, r01.y_m + 0.6] as const);
  await viewer.mouse.move(from.x, from.y);
  await viewer.mouse.down();
  for (let i = 1; i <= 8; i++) await viewer.mouse.move(from.x + i * 12, from.y + i * 6);
  await viewer.mouse.up();
  await saved(viewer);
  expect(await records()).toBe(shown);

  // The property panel shows, but every control in it is off.
  await expect(viewer.getByTestId("property-fieldset")).toHaveAttribute("disabled", "");
  await expect(viewer.getByTestId("property-fieldset").locator("select").first()).toBeDisabled();
  await expect(viewer.getByTestId("apply-contents")).toBeDisabled();
  // Wiring, the plan's upgrade, simulating, sweeping and the price book's save are off too.
  await viewer.getByRole("tab", { name: "Wiring" }).click();
  await expect(viewer.getByTestId("wiring-generate")).toBeDisabled();
  await viewer.getByRole("tab", { name: "Plans" }).click();
  const panel = viewer.getByTestId("plans-panel");
  await panel.locator('button[data-testid^="plan-view-"]').first().click();
  await expect(panel.getByTestId("plan-upgrade")).toBeDisabled();
  await expect(panel.getByTestId("plans-simulate")).toBeDisabled();
  await expect(panel.locator('button[data-testid^="plan-set-prices-"]').first()).toBeDisabled();
  await expect(viewer.getByTestId("sweep-new")).toBeDisabled();
  await panel.getByTestId("open-pricebook").click();
  const book = viewer.getByTestId("pricebook-dialog");
  const price = book.getByTestId(`price-${TOR}`);
  await expect(price).toHaveAttribute("readonly", "");
  await price.pressSequentially("123", { timeout: 2_000 }).catch(() => undefined);
  await expect(price).toHaveValue("");
  await expect(book.getByTestId("pricebook-save")).toBeDisabled();
  await book.getByRole("button", { name: "Close" }).click();

  // A write sent from the page anyway (the API the editor uses) is refused, and nothing changed.
  const answer = await viewer.evaluate(
    async ([rowId, version]) => {
      const res = await fetch(`/api/v1/rows/${rowId}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", "If-Match": `"${version}"` },
        body: JSON.stringify({ x_m: 3.6 }),
      });
      return res.status;
    },
    [r01.id, r01.version] as const,
  );
  expect(answer).toBe(403);
  expect(await layoutOf(page)).toEqual(before);
  await viewer.context().close();
});

test("a simulation has one name in the list and its result; packet runs say so; logical racks and NIC queues are named", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "names");
  const plan = await generateByApi(page, hallId, { name: "paired", pattern: "paired-row" });
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-select-${plan.id}`).check();
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");
  await form.getByTestId("preset-shuffle").check();
  // The counts are logical racks, and the form says so.
  await expect(form.getByTestId("param-job_racks").locator("xpath=..")).toContainText("Logical racks in the job");
  await expect(form.getByTestId("logical-racks-note")).toContainText("Rack counts are logical racks");
  await form.getByTestId("param-job_racks").fill("2");
  await form.getByTestId("param-bytes").fill("0.2");
  await form.getByTestId("sim-mode-packet").check();
  const listed = async () => (await (await page.request.get(`/api/v1/projects/${projectId}/simulations?limit=100`)).json()).items as { id: number; name: string; plan_id: number; status: string; model: string }[];
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await listed()).length).toBe(1);
  const job = (await listed())[0]!;
  expect(job.model).toBe("packet");
  await expect.poll(async () => (await listed())[0]!.status, { timeout: 180_000 }).toBe("succeeded");

  // One name: the list and the result's title both call it "Simulation #<job>: <name> (packet)", on plan #<plan>.
  const name = `Simulation #${job.id}: ${job.name} (packet)`;
  const sims = page.getByTestId("simulations-panel");
  const title = sims.getByTestId(`sim-title-${job.id}`);
  await expect(title).toContainText(name);
  await expect(title).toContainText(`on plan #${plan.id} paired`);
  await expect(sims.getByTestId(`sim-packet-${job.id}`)).toHaveText("packet");
  await expect(sims.getByTestId(`sim-open-${job.id}`)).toBeVisible({ timeout: 30_000 });
  await sims.getByTestId(`sim-open-${job.id}`).click();
  const result = page.getByTestId("sim-result");
  await expect(result.getByRole("heading").first()).toHaveText(`${name} · on plan #${plan.id}`);

  // The busiest queues say which queues they are and which buffer holds them.
  const detail = (await (await page.request.get(`/api/v1/simulations/${job.id}`)).json()) as {
    result: { servers: { id: string }[]; packet: { queues: { from: string }[] } };
  };
  const servers = new Set(detail.result.servers.map((s) => s.id));
  const nic = detail.result.packet.queues.filter((q) => servers.has(q.from)).length;
  const sw = detail.result.packet.queues.length - nic;
  expect(nic + sw).toBeGreaterThan(0);
  const stats = result.getByTestId("packet-stats");
  if (sw > 0) {
    const caption = stats.getByTestId("packet-queues-switch").locator("caption");
    await expect(caption).toContainText(`Busiest switch ports (${Math.min(8, sw)} of ${sw}`);
    await expect(caption).toContainText("switch buffer per port");
  }
  if (nic > 0) {
    const caption = stats.getByTestId("packet-queues-nic").locator("caption");
    await expect(caption).toContainText(`Busiest server NIC queues (${Math.min(8, nic)} of ${nic}`);
    await expect(caption).toContainText("never drops");
  }
});

/** Page coordinates of the middle of an element. */
async function middle(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test("small things: the clicked view button keeps its label, notices go, undo keeps the selection, a drag selects no text, an empty hall hints Draw row", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const hall = await freshHall(page.request, "small", 20, 14);
  await openHall(page, hall);

  // --- An empty hall says where to start; its Draw row button starts drawing.
  const hint = page.getByTestId("empty-hall-hint");
  await expect(hint).toContainText("This hall is empty. Start with Draw row");
  await hint.getByRole("button", { name: "Draw row" }).click();
  await expect.poll(() => page.evaluate(() => (window.__loopline!.session.getState() as unknown as { tool: string }).tool)).toBe("draw-row");
  await expect(hint).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(hint).toBeVisible();
  await page.keyboard.press("p");
  await saved(page);
  await expect(hint).toBeHidden();

  // --- The view button just clicked (still under the pointer) is drawn in the active colours, label readable.
  const planButton = page.getByRole("button", { name: "Plan view (top-down)" });
  await planButton.click();
  await page.waitForFunction(() => window.__loopline?.viewReady?.startsWith("plan:") ?? false);
  const colours = await planButton.evaluate((el) => {
    const s = getComputedStyle(el);
    return { bg: s.backgroundColor, fg: s.color, hovered: el.matches(":hover") };
  });
  // dark theme: --accent #38bdf8, --accent-text #04202e
  expect(colours).toEqual({ bg: "rgb(56, 189, 248)", fg: "rgb(4, 32, 46)", hovered: true });

  // --- Undo and redo keep the selection: select a row, nudge it, undo; delete it, undo, redo.
  const records = () => page.evaluate(() => Object.values(window.__loopline!.store.records).filter((r) => r.typeName === "row") as unknown as { id: string; xMm: number }[]);
  const selection = () => page.evaluate(() => window.__loopline!.session.getState().selection);
  const [row] = await records();
  await page.keyboard.press("Control+a");
  const chosen = await selection();
  expect(chosen).toHaveLength(2);
  await page.keyboard.press("ArrowRight");
  await saved(page);
  expect((await records()).find((r) => r.id === row!.id)!.xMm).toBe(row!.xMm + 600);
  await page.keyboard.press("Control+z");
  await saved(page);
  expect((await records()).find((r) => r.id === row!.id)!.xMm).toBe(row!.xMm);
  expect(await selection()).toEqual(chosen);
  await page.keyboard.press("Delete");
  await saved(page);
  expect(await records()).toHaveLength(0);
  expect(await selection()).toEqual([]);
  await page.keyboard.press("Control+z");
  await saved(page);
  expect(await records()).toHaveLength(chosen.length);
  expect(await selection()).toEqual(chosen);
  await page.keyboard.press("Control+Shift+z");
  await saved(page);
  expect(await selection()).toEqual([]);
  await page.keyboard.press("Control+z");
  await saved(page);
  expect(await selection()).toEqual(chosen);

  // --- Error notices: dismissable, gone when the tab changes, and gone by themselves.
  // The rows start two tiles from the wall: three nudges left put them outside the hall (refused here).
  const refuse = async () => {
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    await expect(page.getByTestId("notice-error").first()).toBeVisible();
  };
  await refuse();
  await page.getByTestId("notice-error").first().getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByTestId("notice-error")).toHaveCount(0);
  await refuse();
  await page.getByRole("tab", { name: "Wiring" }).click();
  await expect(page.getByTestId("notice-error")).toHaveCount(0);
  await page.getByRole("tab", { name: "Layout" }).click();
  await refuse();
  await expect(page.getByTestId("notice-error")).toHaveCount(0, { timeout: 20_000 });

  // --- A drag in the views that ends on the status bar selects no text: from the elevation's drawing
  // and from the legend over the 3D view (the canvas itself starts no selection).
  const selected = () => page.evaluate(() => window.getSelection()?.toString() ?? "");
  const drag = async (from: string) => {
    await page.evaluate(() => window.getSelection()?.removeAllRanges());
    const a = await middle(page, from);
    const b = await middle(page, ".statusbar");
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 10, a.y + ((b.y - a.y) * i) / 10);
    await page.mouse.move(b.x - 200, b.y);
    await page.mouse.up();
    return selected();
  };
  await view(page, "elevation");
  expect(await drag(".viewport svg")).toBe("");
  await view(page, "3d");
  expect(await drag(".legend")).toBe("");
  // The same drags with text selection allowed (as before the fix) do select: the check can fail.
  await page.addStyleTag({ content: ".viewport, .viewport *, .statusbar { user-select: text !important; }" });
  expect(await drag(".legend")).not.toBe("");
  await view(page, "elevation");
  expect(await drag(".viewport svg")).not.toBe("");
});
