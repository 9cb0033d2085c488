/**
 * The facility heat map, as a planner uses it (issue 28): a rack's servers raised in the property panel
 * until its power turns red on the hall, the reason read (the feed that cannot carry it), servers moved
 * to the neighbour and the rack clear again; the trays made small in the hall's facility settings until
 * a segment of the plan is over its 40 % fill, named in the worst list, flown to, and given a tray of
 * its own that clears it. Expected figures come from the catalog's facts and the domain's default feeds
 * (230 V, 32 A, one phase, power factor 1, 80 % continuous), derived here by hand.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { download, generate, parseCsv, printedText, xlsxBytes } from "./planning";
import { ARTIFACTS, floorPoint, login, openHall, saved, view } from "./helpers";

const GREEN = "#22c55e";
const AMBER = "#f59e0b";
const RED = "#ef4444";

/** One default feed's continuous limit: 230 V x 32 A x 1 phase x PF 1 x 80 % = 5,888 W. */
const FEED_LIMIT_W = 230 * 32 * 1 * 1 * 0.8;

interface Facility {
  errors: { code: string; field: string; message: string }[];
  warnings: { code: string; field: string; message: string }[];
  racks: { rack: string; max_w: number; worst_pct: number; worst: string; feeds: { feed: string; limit_w: number; load_w: number }[] }[];
  trays: { name: string; run: string; level: string; start_m: number[]; end_m: number[]; cables: number; fill_pct: number; limit_pct: number; kg_per_m: number; load_kg_per_m: number }[];
}

async function report(request: APIRequestContext, hallId: number, planId?: number): Promise<Facility> {
  const res = await request.get(`/api/v1/halls/${hallId}/facility${planId ? `?plan_id=${planId}` : ""}`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

type Model = { id: number; name: string; max_w: number | null };
async function models(request: APIRequestContext, kind: string): Promise<Model[]> {
  return (await (await request.get(`/api/v1/catalog/${kind}?limit=200`)).json()).items as Model[];
}

const SERVER = "2x25G server";
const TOR = "48x25G+8x100G ToR";

/** A project of its own with one hall; rows posted through the API (what the test is about is drawn in the editor). */
async function hallWith(request: APIRequestContext, tag: string, rows: Record<string, unknown>[]) {
  const project = await request.post("/api/v1/projects", { data: { name: `${tag}-${Date.now().toString(36)}` } });
  expect(project.status(), await project.text()).toBe(201);
  const projectId: number = (await project.json()).id;
  const hall = await request.post(`/api/v1/projects/${projectId}/halls`, { data: { name: "H1", width_m: 16, depth_m: 12 } });
  expect(hall.status(), await hall.text()).toBe(201);
  const hallId: number = (await hall.json()).id;
  for (const row of rows) {
    const res = await request.post(`/api/v1/halls/${hallId}/rows`, { data: row });
    expect(res.status(), await res.text()).toBe(201);
  }
  return { projectId, id: hallId };
}

async function ids(request: APIRequestContext) {
  const [servers, switches, racks] = await Promise.all([models(request, "server-models"), models(request, "switch-models"), models(request, "rack-types")]);
  const find = (xs: Model[], name: string) => {
    const m = xs.find((x) => x.name === name);
    expect(m, `catalog model ${name}`).toBeTruthy();
    return m!;
  };
  return { server: find(servers, SERVER), tor: find(switches, TOR), spine: find(switches, "64x100G spine"), rack: find(racks, "42U 600x1200") };
}

const hook = (page: Page) => ({
  rackColour: (name: string) => page.evaluate((n) => (window.__loopline as unknown as { rackColour?: (n: string) => string | null }).rackColour?.(n) ?? null, name),
  trayColour: (name: string) =>
    page.evaluate((n) => (window.__loopline as unknown as { facility?: { trayColour: (n: string) => string | null } }).facility?.trayColour(n) ?? null, name),
  selection: () => page.evaluate(() => window.__loopline!.session.getState().selection),
});

/** Click a rack on the floor (plan view) until it, not its row, is selected. */
async function selectRack(page: Page, x: number, y: number, rackId: string): Promise<void> {
  const p = await floorPoint(page, x, y);
  for (let i = 0; i < 3 && !(await hook(page).selection()).includes(rackId); i++) await page.mouse.click(p.x, p.y);
  expect(await hook(page).selection()).toEqual([rackId]);
}

/** Servers per logical rack of the selected rack, set in the property panel (Layout tab), then saved. */
async function setServers(page: Page, r: number): Promise<void> {
  await page.getByRole("tab", { name: "Layout" }).click();
  const panel = page.getByTestId("property-panel");
  await panel.getByTestId("input-r").fill(String(r));
  await panel.getByTestId("apply-contents").click();
  await saved(page);
}

/**
 * One row R01: racks of one logical rack each with `servers` servers (2x25G, one port cabled, their
 * ToR at the top) and, at its end, a network rack R01-NN with four spines.
 */
function rowWithSpines(c: Awaited<ReturnType<typeof ids>>, servers: number[]) {
  return {
    name: "R01",
    x_m: 1.2,
    y_m: 1.2,
    racks: [
      ...servers.map((n) => ({
        rack_type_id: c.rack.id,
        logical_racks: [{ servers: n, server_model_id: c.server.id, ports_used: 1, tor_model_id: c.tor.id, tor_position: "top" }],
      })),
      {
        name: `R01-${String(servers.length + 1).padStart(2, "0")}`,
        role: "network",
        rack_type_id: c.rack.id,
        fabric_switches: [20, 22, 24, 26].map((u, i) => ({ name: `SP${i + 1}`, role: "spine", switch_model_id: c.spine.id, u })),
      },
    ],
  };
}

const band = (pct: number) => (pct > 100 ? RED : pct >= 80 ? AMBER : GREEN);

test("a rack's servers raised until its power is red on the heat map, why, then moved to its neighbour: clear", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const c = await ids(page.request);
  expect(c.server.max_w, `${SERVER} has a max_w`).not.toBeNull();
  expect(c.tor.max_w, `${TOR} has a max_w`).not.toBeNull();
  const draw = (servers: number) => servers * c.server.max_w! + c.tor.max_w!;
  // The steps below mean what they say with the catalog's figures: 2 servers green, 6 amber, 8 red, 4 green.
  expect([2, 6, 8, 4].map((r) => band((draw(r) / FEED_LIMIT_W) * 100))).toEqual([GREEN, AMBER, RED, GREEN]);

  const lr = { servers: 2, server_model_id: c.server.id, ports_used: 1, tor_model_id: c.tor.id, tor_position: "top" };
  const hall = await hallWith(page.request, "facility-power", [
    { name: "R01", x_m: 1.2, y_m: 1.2, rack_count: 2, rack_template: { rack_type_id: c.rack.id, logical_racks: [lr] } },
  ]);
  await openHall(page, hall);
  const rackIds = await page.evaluate(() =>
    Object.fromEntries(Object.values(window.__loopline!.store.records).filter((r) => r.typeName === "rack").map((r) => [r.name, r.id])),
  );
  expect(Object.keys(rackIds).sort()).toEqual(["R01-01", "R01-02"]);

  // The heat map on: both racks green (2 x server + ToR against one feed's 5,888 W limit).
  await page.getByRole("tab", { name: "Facility" }).click();
  const facility = page.getByTestId("facility-panel");
  await facility.getByTestId("facility-toggle").check();
  await expect(page.getByTestId("facility-legend").first()).toBeVisible();
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(GREEN);
  await expect.poll(() => hook(page).rackColour("R01-02")).toBe(GREEN);
  const before = (await report(page.request, hall.id)).racks.find((r) => r.rack === "R01-01")!;
  expect(before.max_w).toBeCloseTo(draw(2), 6);
  expect(before.feeds.map((f) => f.feed)).toEqual(["A", "B"]);
  for (const f of before.feeds) expect(f.limit_w).toBeCloseTo(FEED_LIMIT_W, 6);
  await expect(page.getByTestId("facility-status")).toHaveAttribute("data-errors", "0");

  // Raise R01-01's servers: amber at 6, red at 8 (each feed alone must carry the whole rack).
  // Shortcuts are the editor's, not the focused checkbox's.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await view(page, "plan");
  await selectRack(page, 1.2 + 0.3, 1.2 + 0.6, rackIds["R01-01"]!);
  await setServers(page, 6);
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(AMBER);
  await setServers(page, 8);
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(RED);
  await expect.poll(() => hook(page).rackColour("R01-02")).toBe(GREEN);

  // Why: the property panel names the feed, with the load against its limit.
  const rack = page.getByTestId("rack-facility");
  await expect(rack).toHaveAttribute("data-rack", "R01-01");
  await expect(rack.getByTestId("rack-facility-worst")).toContainText(/feed [AB]/);
  const pct = (draw(8) / FEED_LIMIT_W) * 100;
  await expect.poll(async () => Number(await rack.getByTestId("rack-load-feed-A").getAttribute("data-pct"))).toBeCloseTo(pct, 6);
  await expect(rack.getByTestId("rack-load-feed-A")).toContainText(`${(draw(8) / 1000).toFixed(1)} kW of 5.9 kW (80 % of 7.4 kW)`);
  // The checks' errors are counted in the status bar; the worst list puts the rack first, and says why.
  const red = await report(page.request, hall.id);
  expect(red.errors.length).toBeGreaterThan(0);
  expect(red.errors.every((e) => e.field.includes("R01-01"))).toBe(true);
  await expect(page.getByTestId("facility-status")).toHaveAttribute("data-errors", String(red.errors.length));
  await page.getByRole("tab", { name: "Facility" }).click();
  const first = facility.getByTestId("facility-worst").locator("li").first();
  await expect(first.getByTestId("worst-rack-R01-01")).toHaveAttribute("data-band", "over");
  await expect(first).toContainText(red.racks.find((r) => r.rack === "R01-01")!.worst);
  // The finding itself, in the list of findings, names the rack and flies there (selecting it).
  await page.evaluate(() => window.__loopline!.session.getState().selection.length && (window.__loopline!.session as unknown as { setState: (p: object) => void }).setState({ selection: [] }));
  const findings = facility.getByTestId("facility-findings");
  await findings.locator("summary").click();
  const finding = findings.locator(`li[data-field="${red.errors[0]!.field}"]`);
  await expect(finding).toContainText(red.errors[0]!.message);
  await finding.getByRole("button").click();
  expect(await hook(page).selection()).toEqual([rackIds["R01-01"]]);
  await page.screenshot({ path: `${ARTIFACTS}/facility-rack-red.png` });

  // Move four servers to the neighbour: R01-01 back to 4 (green), R01-02 up to 6 (amber); nothing red.
  await setServers(page, 4);
  await page.getByRole("tab", { name: "Facility" }).click();
  await facility.getByTestId("worst-rack-R01-02").click();
  expect(await hook(page).selection()).toEqual([rackIds["R01-02"]]);
  await setServers(page, 6);
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(GREEN);
  await expect.poll(() => hook(page).rackColour("R01-02")).toBe(AMBER);
  await expect(page.getByTestId("facility-status")).toHaveAttribute("data-errors", "0");
  const after = await report(page.request, hall.id);
  expect(after.racks.map((r) => [r.rack, Math.round(r.max_w)]).sort()).toEqual([
    ["R01-01", Math.round(draw(4))],
    ["R01-02", Math.round(draw(6))],
  ]);
});

test("a tray segment filled over its limit is named in the worst list, flown to, and cleared by a tray of its own", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page);
  const c = await ids(page.request);
  // Each ToR's four uplinks run along the row's tray to the spines (AOC and fibre by length; an AOC is 3.0 mm across).
  const hall = await hallWith(page.request, "facility-trays", [rowWithSpines(c, [4, 4, 4, 4])]);
  await openHall(page, hall);
  const plan = await generate(page, hall.projectId, hall.id, "single-homed");

  // The plan's cables fit the default trays: no segment over its limit.
  const roomy = await report(page.request, hall.id, plan.id);
  expect(roomy.trays.length).toBeGreaterThan(0);
  expect(roomy.trays.filter((t) => t.fill_pct > t.limit_pct)).toEqual([]);
  const hallRead = await (await page.request.get(`/api/v1/halls/${hall.id}`)).json();
  const area = Object.fromEntries(
    (hallRead.facility.trays as { level: string; width_mm: number; usable_depth_mm: number }[]).map((t) => [t.level, t.width_mm * t.usable_depth_mm]),
  );

  // Small trays (4 x 4 mm: a single 3 mm cable fills 44 %) above the racks and across the aisles, set in
  // the hall's facility settings.
  await page.getByRole("tab", { name: "Facility" }).click();
  const facility = page.getByTestId("facility-panel");
  await facility.getByTestId("facility-toggle").check();
  const settings = facility.getByTestId("hall-facility");
  await settings.locator("summary").click();
  for (const level of ["above-racks", "cross-aisle"]) {
    await settings.getByTestId(`hall-tray.${level}.width_mm`).fill("4");
    await settings.getByTestId(`hall-tray.${level}.usable_depth_mm`).fill("4");
  }
  await settings.getByTestId("hall-facility-save").click();
  await expect(settings.getByTestId("hall-facility-saved")).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/facility-hall-settings.png` });

  // Each segment's fill grows by its level's default tray's cross-section over 16 mm².
  const tight = await report(page.request, hall.id, plan.id);
  for (const t of tight.trays.filter((x) => x.level !== "under-floor")) {
    const was = roomy.trays.find((x) => x.name === t.name)!;
    expect(t.fill_pct).toBeCloseTo((was.fill_pct * area[t.level]!) / 16, 6);
  }
  const over = tight.trays.filter((t) => t.fill_pct > t.limit_pct);
  expect(over.length).toBeGreaterThan(0);
  // Over 40 % in any case, and over its own limit (40 %, or 50 % for a tray of data cables only).
  expect(over.every((t) => t.fill_pct > 40 && (t.limit_pct === 40 || t.limit_pct === 50))).toBe(true);
  // The worst segment: the largest share of its limit (fill, or weight on the tray's rating), then its name.
  const share = (t: Facility["trays"][number]) => Math.max(t.fill_pct / t.limit_pct, t.kg_per_m / t.load_kg_per_m);
  const worst = [...over].sort((a, b) => share(b) - share(a) || (a.name < b.name ? -1 : 1))[0]!;

  const item = facility.getByTestId(`worst-tray-${worst.name}`);
  await expect(item).toHaveAttribute("data-band", "over");
  await expect(item).toContainText(worst.name);
  await expect.poll(() => hook(page).trayColour(worst.name)).toBe(RED);
  await expect(page.getByTestId("facility-status")).toHaveAttribute("data-errors", String(tight.errors.length));
  expect(tight.errors.some((e) => e.field.includes(worst.name))).toBe(true);

  // Flown to: the camera looks at the floor under the segment's middle (the canvas's centre), its panel
  // opens, its name is on the floor.
  const frame = await page.evaluate(() => window.__loopline!.viewReady);
  await item.click();
  await page.waitForFunction((f) => window.__loopline!.viewReady !== f, frame);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const at = await floorPoint(page, (worst.start_m[0]! + worst.end_m[0]!) / 2, (worst.start_m[1]! + worst.end_m[1]!) / 2);
  const box = (await page.locator("canvas").first().boundingBox())!;
  expect(Math.abs(at.x - (box.x + box.width / 2))).toBeLessThan(2);
  expect(Math.abs(at.y - (box.y + box.height / 2))).toBeLessThan(2);
  const panel = page.getByTestId("tray-panel");
  await expect(panel).toHaveAttribute("data-tray", worst.name);
  await expect(panel.getByTestId("tray-fill")).toContainText(`limit ${worst.limit_pct.toFixed(1)} %`);
  await expect(page.locator(`[data-testid="tray-label"][data-tray="${worst.name}"]`)).toBeAttached();
  await page.screenshot({ path: `${ARTIFACTS}/facility-tray.png` });

  // The run gets a tray of its own, 600 x 100 mm: its fill drops to 16 / 60,000 of the small tray's.
  await panel.getByTestId("tray-run-width_mm").fill("600");
  await panel.getByTestId("tray-run-usable_depth_mm").fill("100");
  await panel.getByTestId("tray-run-save").click();
  await expect(panel.getByTestId("tray-run-reset")).toBeVisible();
  const runs = await (await page.request.get(`/api/v1/halls/${hall.id}/tray-runs`)).json();
  expect(runs.items).toEqual([expect.objectContaining({ name: worst.run, width_mm: 600, usable_depth_mm: 100 })]);
  const cleared = await report(page.request, hall.id, plan.id);
  const now = cleared.trays.find((t) => t.name === worst.name)!;
  expect(now.fill_pct).toBeCloseTo((worst.fill_pct * 16) / 60_000, 6);
  await expect.poll(() => hook(page).trayColour(worst.name)).toBe(band((share(now) * 100)));
  await expect(page.getByTestId("tray-panel").getByTestId("tray-fill")).toContainText(`Fill ${((Math.round(now.fill_pct * 10) / 10).toFixed(1))} %`);

  // A click on another segment of the tray in the 3D view opens that one's panel.
  const other = tight.trays.find((t) => t.run === worst.run && t.name !== worst.name && t.cables > 0)!;
  await page.getByTestId("tray-panel").getByRole("button", { name: "Close the tray segment" }).click();
  await expect(page.getByTestId("tray-panel")).toHaveCount(0);
  const on = await floorPoint(page, (other.start_m[0]! + other.end_m[0]!) / 2, (other.start_m[1]! + other.end_m[1]!) / 2, other.start_m[2]! - 0.025);
  await page.mouse.click(on.x, on.y);
  await expect(page.getByTestId("tray-panel")).toHaveAttribute("data-tray", other.name);
});

test("a rack's feeds and budget, and its row's cooling, edited in the Facility tab: three-phase feeds carry it, a budget or cooling below its draw does not", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const c = await ids(page.request);
  const draw = 8 * c.server.max_w! + c.tor.max_w!;
  const lr = { servers: 8, server_model_id: c.server.id, ports_used: 1, tor_model_id: c.tor.id, tor_position: "top" };
  const hall = await hallWith(page.request, "facility-feeds", [
    { name: "R01", x_m: 1.2, y_m: 1.2, rack_count: 2, rack_template: { rack_type_id: c.rack.id, logical_racks: [lr] } },
  ]);
  await openHall(page, hall);
  const rackId = await page.evaluate(() => Object.values(window.__loopline!.store.records).find((r) => r.name === "R01-01")!.id);
  await page.getByRole("tab", { name: "Facility" }).click();
  const facility = page.getByTestId("facility-panel");
  await facility.getByTestId("facility-toggle").check();
  // Over its two single-phase feeds (as the first test): red. Picked from the worst list.
  await expect(facility.getByTestId("worst-rack-R01-01")).toHaveAttribute("data-band", "over");
  await facility.getByTestId("worst-rack-R01-01").click();
  expect(await hook(page).selection()).toEqual([rackId]);
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(RED);

  // Its panel shows the defaults; both feeds made three-phase: 230 V x 32 A x 3 x 0.8 = 17,664 W each.
  const form = facility.getByTestId("rack-facility-form");
  await expect(form.getByTestId("rack-feed-A-voltage_v")).toHaveAttribute("placeholder", "230 (default)");
  await expect(form.getByTestId("rack-feed-b")).toBeChecked();
  await form.getByTestId("rack-feed-A-phases").selectOption("3");
  await form.getByTestId("rack-feed-B-phases").selectOption("3");
  await form.getByTestId("rack-facility-save").click();
  const three = (draw / (230 * 32 * 3 * 0.8)) * 100;
  expect(band(three)).toBe(GREEN);
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(GREEN);
  const section = facility.getByTestId("rack-facility");
  await expect.poll(async () => Number(await section.getByTestId("rack-load-feed-B").getAttribute("data-pct"))).toBeCloseTo(three, 6);

  // A budget below its draw: red again, and the reason is the budget.
  await facility.getByTestId("rack-facility-form").getByTestId("rack-power_budget_kw").fill("5");
  await facility.getByTestId("rack-facility-form").getByTestId("rack-facility-save").click();
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(RED);
  await expect.poll(async () => Number(await section.getByTestId("rack-load-budget").getAttribute("data-pct"))).toBeCloseTo((draw / 5000) * 100, 6);
  await page.screenshot({ path: `${ARTIFACTS}/facility-rack-panel.png` });
  const stored = await (await page.request.get(`/api/v1/racks/${Number(rackId.split(":")[1])}`)).json();
  expect(stored.facility.power_budget_kw).toBe(5);
  expect(stored.facility.feeds.map((f: { name: string; phases: number; voltage_v: number; breaker_a: number }) => [f.name, f.phases, f.voltage_v, f.breaker_a])).toEqual([
    ["A", 3, 230, 32],
    ["B", 3, 230, 32],
  ]);
  expect(stored.facility.defaults).not.toContain("power_budget_kw");

  // The layout sync has the rack's new version: a layout edit after the facility saves goes through.
  await setServers(page, 7);
  await expect(page.getByTestId("notice-conflict")).toHaveCount(0);
  await expect.poll(async () => (await report(page.request, hall.id)).racks.find((r) => r.rack === "R01-01")!.max_w).toBeCloseTo(7 * c.server.max_w! + c.tor.max_w!, 6);

  // The row's own cooling, 10 kW, under the heat of its racks (7 + 8 servers and two ToRs): an error naming the row.
  const heat = 15 * c.server.max_w! + 2 * c.tor.max_w!;
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await view(page, "plan");
  await page.keyboard.press("Escape");
  const rowId = await page.evaluate(() => Object.values(window.__loopline!.store.records).find((r) => r.typeName === "row")!.id);
  const p = await floorPoint(page, 1.5, 1.8);
  await page.mouse.click(p.x, p.y);
  expect(await hook(page).selection()).toEqual([rowId]);
  await page.getByRole("tab", { name: "Facility" }).click();
  const row = facility.getByTestId("row-facility");
  await expect(row).toHaveAttribute("data-row", "R01");
  await expect(row.getByTestId("row-cooling_kw")).toHaveAttribute("placeholder", "none (default)");
  await row.getByTestId("row-cooling_kw").fill("10");
  await row.getByTestId("row-facility-save").click();
  await expect.poll(async () => Number(await row.getByTestId("row-heat").getAttribute("data-pct"))).toBeCloseTo((heat / 10_000) * 100, 6);
  await expect(row.getByTestId("row-heat")).toContainText(`Heat ${(heat / 1000).toFixed(1)} kW against 10.0 kW of its own cooling`);
  const cooled = await report(page.request, hall.id);
  expect(cooled.errors.filter((e) => e.field === "rows[R01]").length).toBe(1);
  await expect(page.getByTestId("facility-status")).toHaveAttribute("data-errors", String(cooled.errors.length));
});

test("the power sheet downloads and opens: a line per rack feed, the heat map's red rack over on it", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const c = await ids(page.request);
  // R01-01 with 8 servers is over its feeds (as in the first test), R01-02 with 2 is not.
  const hall = await hallWith(page.request, "facility-sheet", [rowWithSpines(c, [8, 2])]);
  await openHall(page, hall);
  const plan = await generate(page, hall.projectId, hall.id, "single-homed");
  await page.getByRole("tab", { name: "Facility" }).click();
  await page.getByTestId("facility-panel").getByTestId("facility-toggle").check();
  await expect.poll(() => hook(page).rackColour("R01-01")).toBe(RED);
  await expect.poll(() => hook(page).rackColour("R01-02")).toBe(GREEN);
  const rep = await report(page.request, hall.id, plan.id);
  // From above, the tray over the racks' back edge (0.3 m wide on the row's line at y = 2.4 m) does not
  // take a click there: it selects the rack's row.
  expect(rep.trays.some((t) => t.level === "above-racks" && t.start_m[1] === 2.4 && t.end_m[1] === 2.4)).toBe(true);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await view(page, "plan");
  const rowId = await page.evaluate(() => Object.values(window.__loopline!.store.records).find((r) => r.typeName === "row")!.id);
  const top = await floorPoint(page, 1.2 + 0.3, 2.3);
  await page.mouse.click(top.x, top.y);
  expect(await hook(page).selection()).toEqual([rowId]);

  await page.getByRole("tab", { name: "Plans" }).click();
  await expect(page.getByTestId("power-sheet-downloads")).toBeVisible();
  const csv = await download(page, "download-power-csv");
  expect(csv.name).toMatch(/power-sheet.*\.csv$/);
  const [header, ...lines] = parseCsv(csv.body.toString("utf8")).filter((r) => r.length > 1);
  expect(header).toEqual(["rack", "row", "feed", "voltage_v", "phases", "breaker_a", "pdu_model", "load_w", "capacity_w", "limit_w", "pct_of_limit", "phase_w", "typical_w", "status"]);
  const col = (name: string) => header!.indexOf(name);
  // A line per rack and feed, with the report's figures (whole watts): each feed alone carries the whole rack.
  expect(lines.map((l) => [l[col("rack")], l[col("feed")]])).toEqual(rep.racks.flatMap((r) => r.feeds.map((f) => [r.rack, f.feed])));
  for (const r of rep.racks)
    for (const f of r.feeds) {
      const line = lines.find((l) => l[col("rack")] === r.rack && l[col("feed")] === f.feed)!;
      expect([line[col("voltage_v")], line[col("phases")], line[col("breaker_a")]]).toEqual(["230", "1", "32"]);
      expect(Number(line[col("load_w")])).toBe(Math.round(f.load_w));
      expect(Number(line[col("load_w")])).toBe(Math.round(r.max_w));
      expect(Number(line[col("capacity_w")])).toBe(7360);
      expect(Number(line[col("limit_w")])).toBe(Math.round(FEED_LIMIT_W));
      expect(line[col("status")]).toBe(f.load_w > f.limit_w ? "over" : "ok");
    }
  expect(lines.filter((l) => l[col("status")] === "over").map((l) => `${l[col("rack")]}/${l[col("feed")]}`)).toEqual(["R01-01/A", "R01-01/B"]);
  // R01-01's draw: 8 servers and a ToR at their maximum, and the optics of its uplinks.
  expect(rep.racks.find((r) => r.rack === "R01-01")!.max_w).toBeGreaterThanOrEqual(8 * c.server.max_w! + c.tor.max_w!);

  // The XLSX and the PDF open, with the same racks.
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsxBytes((await download(page, "download-power-xlsx")).body));
  const cells = book.worksheets.flatMap((ws) => {
    const out: string[] = [];
    ws.eachRow((row) => out.push(String(row.getCell(1).value ?? "")));
    return out;
  });
  expect(cells.filter((v) => v === "R01-01")).toHaveLength(2);
  const pdf = await printedText((await download(page, "download-power-pdf")).body);
  for (const r of rep.racks) expect(pdf.text).toContain(r.rack);
});
