/**
 * The whole planning journey of issue 15 from a fresh account, in the browser: sign up, create a
 * project and a hall, draw two rows, generate two plans, compare them, plan a p -> p+1 upgrade (moved
 * 0, added cables highlighted), price a part and see the BOM total move, create and revoke an API
 * token, download the exports and read them back.
 *
 * The spines go in as a person places them: a one-rack row made a network rack in the property panel.
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { download, drawnDiff, generate, parseCsv, plansOf, printedText, xlsxBytes } from "./planning";
import { ARTIFACTS, dragOnFloor, floorPoint, saved, view, waitForEditor } from "./helpers";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = "copper loop upgrade 77";
/** Each drawn row: 6.0 m of 0.6 m racks; each rack 2 logical racks (the editor's default contents). */
const RACKS_PER_ROW = 10;
const TORS = 2 * RACKS_PER_ROW * 2;
const SERVERS = TORS * 15;
const int = (x: number) => x.toLocaleString("en");

test("issue 15's journey: sign up -> project -> hall -> rows -> two plans -> compare -> upgrade -> price -> token -> downloads", async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  const email = `planner-${unique()}@example.com`;

  // ---- sign up; the empty state leads to a project, then a hall
  await page.goto("/");
  await page.getByRole("link", { name: "Create an account" }).click();
  const signUp = page.getByRole("form", { name: "Create an account" });
  await signUp.getByLabel("Email").fill(email);
  await signUp.getByLabel("Your name").fill("Grace");
  await signUp.getByLabel("Password").fill(PASSWORD);
  await signUp.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("empty-state")).toContainText("Start with a project");
  const newProject = page.getByRole("form", { name: "New project" });
  await newProject.getByLabel("Project name").fill(`Journey ${unique()}`);
  await newProject.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  const projectId = Number(/\/projects\/(\d+)$/.exec(page.url())![1]);
  const newHall = page.getByRole("form", { name: "New hall" });
  await newHall.getByLabel("Hall name").fill("H1");
  await newHall.getByLabel("Floor width (m)").fill("16");
  await newHall.getByLabel("Floor depth (m)").fill("12");
  await newHall.getByRole("button", { name: "Create hall" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/halls/\\d+$`));
  const hallId = Number(/\/halls\/(\d+)$/.exec(page.url())![1]);
  await waitForEditor(page);

  // ---- draw two rows facing across a cold aisle
  await view(page, "plan");
  await page.getByRole("button", { name: "Draw a row" }).click();
  await page.getByTestId("draw-front").selectOption("left");
  await dragOnFloor(page, [1.3, 1.25], [7.1, 1.3]);
  await saved(page);
  await page.getByRole("button", { name: "Draw a row" }).click();
  await page.getByTestId("draw-front").selectOption("right");
  await dragOnFloor(page, [1.2, 3.6], [7.2, 3.6]);
  await saved(page);
  const drawn = (await (await page.request.get(`/api/v1/halls/${hallId}/layout`)).json()).rows as { name: string; racks: unknown[] }[];
  expect(drawn.map((r) => r.racks.length)).toEqual([RACKS_PER_ROW, RACKS_PER_ROW]);

  // ---- the spines' network rack: a one-rack row, set to Network in the property panel, four spines
  await expect(page.getByTestId("fabric-missing")).toContainText("Select a rack, set it to Network and add spines.");
  await page.getByRole("button", { name: "Draw a row" }).click();
  await dragOnFloor(page, [1.3, 8.4], [1.8, 8.4]);
  await saved(page);
  const netRow = ((await (await page.request.get(`/api/v1/halls/${hallId}/layout`)).json()).rows as { x_m: number; y_m: number; racks: { name: string }[] }[])[2]!;
  expect(netRow.racks).toHaveLength(1);
  await page.keyboard.press("Escape");
  const netTop = await floorPoint(page, netRow.x_m + 0.3, netRow.y_m + 0.6, 2.0);
  await page.mouse.click(netTop.x, netTop.y);
  await page.mouse.click(netTop.x, netTop.y);
  await page.getByTestId("input-rack-role").selectOption("network");
  const netPanel = page.getByTestId("network-rack");
  await expect(netPanel.getByTestId("input-switch-model")).toHaveValue("64x100G spine");
  for (let i = 1; i <= 4; i++) {
    await netPanel.getByTestId("add-switch").click();
    await expect(netPanel.getByTestId("fabric-switches").locator("li")).toHaveCount(i);
  }
  await saved(page);
  await expect(page.getByTestId("fabric-missing")).toBeHidden();
  await page.reload();
  await waitForEditor(page);

  // ---- two plans from the Wiring tab: paired rows at p = 1, side-to-side at the racks' p = 2
  const a = await generate(page, projectId, hallId, "paired-row", "1");
  const b = await generate(page, projectId, hallId, "side-to-side");
  expect([a.summary.servers, b.summary.servers]).toEqual([SERVERS, SERVERS]);
  expect(b.summary.by_class.server_tor!.count - a.summary.by_class.server_tor!.count).toBe(SERVERS);

  // ---- compare them
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-select-${a.id}`).check();
  await panel.getByTestId(`plan-select-${b.id}`).check();
  await panel.getByTestId("plans-compare").click();
  const compare = page.getByTestId("compare-dialog");
  for (const p of [a, b]) {
    await expect(page.getByTestId("compare-cables").locator(`td[data-plan="${p.id}"]`)).toHaveText(int(p.summary.cables));
    await expect(page.getByTestId("compare-loops").locator(`td[data-plan="${p.id}"]`)).toHaveText(int(p.summary.loops));
  }
  await expect(page.getByTestId("compare-cables")).toHaveClass(/differs/);
  await compare.getByRole("button", { name: "Close" }).click();

  // ---- plan a p -> p+1 upgrade of A: moved 0, the new ports' cables added and highlighted
  await panel.getByTestId(`plan-view-${a.id}`).click();
  await panel.getByTestId("plan-upgrade").click();
  const upgrade = page.getByTestId("upgrade-dialog");
  await expect(upgrade.getByTestId("upgrade-ports")).toHaveValue("2");
  await upgrade.getByTestId("upgrade-generate").click();
  const details = page.getByTestId("diff-dialog");
  await expect(details).toBeVisible({ timeout: 60_000 });
  await expect(details.getByTestId("diff-tab-moved")).toContainText("moved 0");
  await expect(details.getByTestId("diff-tab-added")).toContainText(`added ${int(SERVERS)}`);
  await details.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("diff-count-moved")).toHaveText("0");
  await expect(page.getByTestId("diff-count-added")).toHaveText(int(SERVERS));
  const up = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect(up.base_plan_id).toBe(a.id);
  const shown = await drawnDiff(page, up.id);
  expect(shown.drawn.moved).toBe(0);
  expect(shown.drawn.added).toBe(SERVERS);
  expect(shown.colours.added).toBe(await page.getByTestId("diff-legend-added").getAttribute("data-colour"));
  await page.screenshot({ path: `${ARTIFACTS}/journey-upgrade.png` });

  // ---- price the ToRs in the project's book: A's BOM total moves by 40 x the price
  await panel.getByTestId(`plan-view-${a.id}`).click();
  const before = await (await page.request.get(`/api/v1/wiring-plans/${a.id}/bom`)).json();
  const tor = before.lines.find((l: { category: string; part_number: string }) => l.category === "switch" && l.part_number === "48x25G+8x100G ToR");
  expect(tor.quantity).toBe(TORS);
  await panel.getByTestId("open-pricebook").click();
  const book = page.getByTestId("pricebook-dialog");
  await book.getByTestId("price-48x25G+8x100G ToR").fill("2500");
  await book.getByTestId("pricebook-save").click();
  await expect(book.getByTestId("pricebook-version")).toContainText("Version 1");
  await book.getByRole("button", { name: "Close" }).click();
  await panel.getByTestId("plan-bom").click();
  const expected = Math.round((before.total + TORS * (2500 - (tor.unit_price ?? 0))) * 100) / 100;
  await expect(page.getByTestId("bom-dialog").getByTestId("bom-total")).toHaveAttribute("data-total", String(expected));
  await page.getByTestId("bom-dialog").getByRole("button", { name: "Close" }).click();

  // ---- downloads, read back
  const last = await (await page.request.get(`/api/v1/wiring-plans/${a.id}/cables?limit=1&page=${a.summary.cables}`)).json();
  expect(last.total).toBe(a.summary.cables);
  const sample = last.items[0] as { label: string };
  const csv = parseCsv((await download(page, "download-wiring-csv")).body.toString("utf8")).filter((r) => r.some((f) => f));
  expect(csv.length - 1).toBe(a.summary.cables);
  const xlsx = new ExcelJS.Workbook();
  await xlsx.xlsx.load(xlsxBytes((await download(page, "download-wiring-xlsx")).body));
  expect(xlsx.worksheets.length).toBeGreaterThanOrEqual(2);
  for (const ws of xlsx.worksheets) expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
  for (const pdf of ["download-wiring-pdf", "download-labels-pdf"]) {
    const text = (await printedText((await download(page, pdf)).body)).text.replace(/\s+/g, " ");
    for (const end of sample.label.split(" / ")) expect(text, `${pdf} holds ${end}`).toContain(end);
  }

  // ---- an API token: created with a scope, used, revoked
  await page.getByRole("link", { name: "API tokens" }).click();
  const newToken = page.getByRole("form", { name: "New API token" });
  await newToken.getByLabel("Name").fill("cabling team");
  await newToken.locator('input[value="wiring:read"]').check();
  await newToken.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByTestId("token-secret").getByLabel("Token secret").inputValue();
  expect(secret).toMatch(/^llt_/);
  const program = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${secret}` } });
  const sheet = await program.get(`/api/v1/wiring-plans/${a.id}/exports/wiring-sheet.csv`);
  expect(sheet.status()).toBe(200);
  expect(parseCsv(await sheet.text()).filter((r) => r.some((f) => f)).length - 1).toBe(a.summary.cables);
  await page.reload();
  const token = ((await (await page.request.get("/api/v1/tokens")).json()).items as { id: number; name: string }[]).find((t) => t.name === "cabling team")!;
  const row = page.getByTestId(`token-${token.id}`);
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(row.getByTestId("token-state")).toContainText("Revoked");
  expect((await program.get(`/api/v1/wiring-plans/${a.id}/exports/wiring-sheet.csv`)).status()).toBe(401);
  await program.dispose();
  expect((await plansOf(page.request, projectId, hallId)).length).toBe(3);
});
