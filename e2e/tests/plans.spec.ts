/**
 * The Plans tab as a planner uses it: two plans of one hall compared (table = the API's figures), a
 * p -> p+1 upgrade whose difference shows in 3D (moved: 0, added cables in the added colour), a price
 * edited in the project's price book moving the BOM total by the hand-computed amount (and a stale
 * edit kept across someone else's save), and every export downloaded and parsed back.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { download, drawnDiff, generate, parseCsv, plannedHall, plansOf, printedText, SERVERS, TORS, xlsxBytes } from "./planning";
import { ARTIFACTS, login, waitForEditor } from "./helpers";

const int = (x: number) => x.toLocaleString("en");
const money = (x: number, cur: string) => `${x.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${cur}`;

/** The compare table's cell of one plan in one row. */
const cell = (page: Page, key: string, planId: number) => page.getByTestId(`compare-${key}`).locator(`td[data-plan="${planId}"]`);

test("plans side by side, a p -> p+1 upgrade in 3D, a price edit in the BOM, every export parsed back", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "plans");
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);

  // --- two plans, generated from the Wiring tab
  const a = await generate(page, projectId, hallId, "paired-row");
  const b = await generate(page, projectId, hallId, "side-to-side", "2");
  expect(a.summary.servers).toBe(SERVERS);
  // p = 1 (the racks' own) against p = 2: one server-ToR cable per server more in B.
  expect(b.summary.by_class.server_tor!.count - a.summary.by_class.server_tor!.count).toBe(SERVERS);

  // --- the plan list and the comparison: every figure equals the API's
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await expect(panel.getByTestId(`plan-${a.id}`)).toContainText(`${int(a.summary.cables)} cables`);
  await expect(panel.getByTestId(`plan-${b.id}`)).toContainText(`${int(b.summary.cables)} cables`);
  await panel.getByTestId(`plan-select-${a.id}`).check();
  await panel.getByTestId(`plan-select-${b.id}`).check();
  await panel.getByTestId("plans-compare").click();
  const compare = page.getByTestId("compare-dialog");
  await expect(compare).toBeVisible();
  for (const p of [a, b]) {
    const s = p.summary;
    await expect(cell(page, "servers", p.id)).toHaveText(int(s.servers));
    await expect(cell(page, "cables", p.id)).toHaveText(int(s.cables));
    await expect(cell(page, "loops", p.id)).toHaveText(int(s.loops));
    await expect(cell(page, "copper", p.id)).toHaveText(`${Math.round(s.copper_share * 1000) / 10}%`);
    await expect(cell(page, "optics", p.id)).toHaveText(int(s.transceiver_count));
    for (const [cls, st] of Object.entries(s.by_class)) {
      if (!st.count) continue;
      await expect(cell(page, `${cls}.count`, p.id)).toHaveText(int(st.count));
      await expect(cell(page, `${cls}.min`, p.id)).toHaveText(`${st.min_raw_length_m.toFixed(2)} m`);
      await expect(cell(page, `${cls}.mean`, p.id)).toHaveText(`${st.mean_raw_length_m.toFixed(2)} m`);
      await expect(cell(page, `${cls}.max`, p.id)).toHaveText(`${st.max_raw_length_m.toFixed(2)} m`);
    }
    await expect(cell(page, "cost.cables", p.id)).toHaveText(money(s.cost.cables, s.cost.currency));
    await expect(cell(page, "cost.optics", p.id)).toHaveText(money(s.cost.transceivers, s.cost.currency));
    await expect(cell(page, "cost.switches", p.id)).toHaveText(money(s.cost.switches, s.cost.currency));
    await expect(cell(page, "cost.total", p.id)).toHaveText(money(s.cost.total, s.cost.currency));
    await expect(cell(page, "warnings", p.id)).toHaveText(int(s.warnings.length));
  }
  // Same hall, same servers: not highlighted; the figures that differ are.
  await expect(page.getByTestId("compare-servers")).not.toHaveClass(/differs/);
  await expect(page.getByTestId("compare-cables")).toHaveClass(/differs/);
  await expect(page.getByTestId("compare-server_tor.count")).toHaveClass(/differs/);
  await page.screenshot({ path: `${ARTIFACTS}/plans-compare.png` });
  await compare.getByRole("button", { name: "Close" }).click();

  // --- the two plans' difference in 3D (older -> newer): the drawn colours match the API's diff
  await panel.getByTestId("plans-diff").click();
  await expect(page.getByTestId("diff-legend")).toContainText(`plan #${b.id} vs #${a.id}`);
  const abDiff = await (await page.request.get(`/api/v1/wiring-plans/${b.id}/diff?against=${a.id}`)).json();
  const abCounts = { kept: abDiff.counts.kept, added: abDiff.counts.added, moved: abDiff.counts.moved, removed: abDiff.counts.removed };
  // The pattern and p both change: something is added, and the old plan's cables are not all kept.
  expect(abCounts.added).toBeGreaterThan(0);
  expect(abCounts.kept + abCounts.moved + abCounts.removed).toBe(a.summary.cables);
  expect(abCounts.kept + abCounts.moved + abCounts.added).toBe(b.summary.cables);
  for (const [status, n] of Object.entries(abCounts)) await expect(page.getByTestId(`diff-count-${status}`)).toHaveText(int(n));
  const abDrawn = await drawnDiff(page, b.id);
  expect(abDrawn).toMatchObject({ newPlanId: b.id, drawn: abCounts });
  await page.screenshot({ path: `${ARTIFACTS}/plans-diff-two-plans.png` });
  // Only the change: the kept cables leave the picture (fewer line segments drawn).
  const linesDrawn = () =>
    page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return window.__loopline!.render()!.lines;
    });
  const withKept = await linesDrawn();
  await panel.getByTestId("diff-show-kept").uncheck();
  await expect.poll(linesDrawn).toBeLessThan(withKept);
  await panel.getByTestId("diff-clear").click();
  await expect(page.getByTestId("diff-legend")).toHaveCount(0);

  // --- the form of a viewed plan is that plan's (it used to keep another pattern)
  await panel.getByTestId(`plan-view-${a.id}`).click();
  await page.getByRole("tab", { name: "Wiring" }).click();
  await expect(page.getByTestId("wiring-pattern")).toHaveValue("paired-row");
  await expect(page.getByTestId("wiring-p")).toHaveValue("");
  await page.getByRole("tab", { name: "Plans" }).click();
  await panel.getByTestId(`plan-view-${b.id}`).click();
  await page.getByRole("tab", { name: "Wiring" }).click();
  await expect(page.getByTestId("wiring-pattern")).toHaveValue("side-to-side");
  await expect(page.getByTestId("wiring-p")).toHaveValue("2");
  await page.getByRole("tab", { name: "Plans" }).click();

  // --- plan a p -> p+1 upgrade of plan A: Subways moves no cable, the new ports' cables are added
  await panel.getByTestId(`plan-view-${a.id}`).click();
  await expect(panel.getByTestId("viewed-plan")).toContainText(`#${a.id}`);
  await panel.getByTestId("plan-upgrade").click();
  const upgrade = page.getByTestId("upgrade-dialog");
  await expect(upgrade.getByTestId("upgrade-kind")).toHaveValue("ports");
  await expect(upgrade.getByTestId("upgrade-ports")).toHaveValue("2"); // p = 1 -> 2
  await upgrade.getByTestId("upgrade-generate").click();
  const diffDialog = page.getByTestId("diff-dialog");
  await expect(diffDialog).toBeVisible({ timeout: 60_000 });
  const up = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect(up.base_plan_id).toBe(a.id);
  const apiDiff = await (await page.request.get(`/api/v1/wiring-plans/${up.id}/diff?against=${a.id}`)).json();
  expect(apiDiff.counts.moved).toBe(0);
  // One more port per server: one more server-ToR cable per server.
  expect(apiDiff.counts.added).toBe(SERVERS);
  await expect(diffDialog.getByTestId("diff-tab-moved")).toContainText("moved 0");
  await expect(diffDialog.getByTestId("diff-tab-added")).toContainText(`added ${int(SERVERS)}`);
  // The labelled table lists added cables the API knows, with both ends.
  const firstRow = diffDialog.getByTestId("diff-cables").locator("tbody tr").first();
  const addedLabels = await (await page.request.get(`/api/v1/wiring-plans/${up.id}/diff/cables?against=${a.id}&status=added&limit=1`)).json();
  await expect(firstRow).toContainText(addedLabels.items[0].cable.label);
  // The change's own BOM: what to buy has a cable line per added cable.
  const buyCables = apiDiff.bom.buy.lines.filter((l: { category: string }) => l.category === "cable").reduce((s: number, l: { quantity: number }) => s + l.quantity, 0);
  expect(buyCables).toBe(SERVERS);
  await expect(diffDialog.getByTestId("upgrade-buy-cable")).toContainText(int(SERVERS));
  await expect(diffDialog.getByTestId("upgrade-summary")).toContainText(`net ${money(apiDiff.bom.net_total, apiDiff.bom.buy.currency)}`);
  await page.screenshot({ path: `${ARTIFACTS}/plans-upgrade-details.png` });
  await diffDialog.getByRole("button", { name: "Close" }).click();

  // In 3D: counts in the legend and the colours actually drawn (read back from the buffers).
  await expect(page.getByTestId("diff-count-moved")).toHaveText("0");
  await expect(page.getByTestId("diff-count-added")).toHaveText(int(SERVERS));
  await expect(page.getByTestId("diff-count-kept")).toHaveText(int(a.summary.cables));
  const drawn = await drawnDiff(page, up.id);
  expect(drawn.newPlanId).toBe(up.id);
  expect(drawn.drawn).toEqual({ kept: apiDiff.counts.kept, added: apiDiff.counts.added, moved: 0, removed: apiDiff.counts.removed });
  const addedColour = await page.getByTestId("diff-legend-added").getAttribute("data-colour");
  expect(drawn.colours.added).toBe(addedColour);
  expect(new Set(Object.values(drawn.colours)).size).toBe(4);
  await page.screenshot({ path: `${ARTIFACTS}/plans-upgrade-diff.png` });

  // --- a parallel set of ports at a new speed (Type 2 augmentation): new ToRs, no cable moves, a NIC per server
  await panel.getByTestId(`plan-view-${a.id}`).click();
  await panel.getByTestId("plan-upgrade").click();
  await upgrade.getByTestId("upgrade-kind").selectOption("parallel");
  await expect(upgrade.getByTestId("upgrade-parallel-gbps")).toHaveValue("100");
  await upgrade.getByTestId("upgrade-generate").click();
  await expect(diffDialog).toBeVisible({ timeout: 60_000 });
  const par = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect([par.id, par.base_plan_id]).toEqual([up.id + 1, a.id]);
  const parDiff = await (await page.request.get(`/api/v1/wiring-plans/${par.id}/diff?against=${a.id}`)).json();
  expect([parDiff.counts.moved, parDiff.counts.removed, parDiff.counts.kept]).toEqual([0, 0, a.summary.cables]);
  await expect(diffDialog.getByTestId("diff-tab-added")).toContainText(`added ${int(parDiff.counts.added)}`);
  // Each server gets one 100G port its 2x25G model lacks: one added NIC per server, on the buy list.
  const nics = parDiff.bom.buy.lines.filter((l: { category: string }) => l.category === "nic");
  expect(nics.reduce((n: number, l: { quantity: number }) => n + l.quantity, 0)).toBe(SERVERS);
  await expect(diffDialog.getByTestId("upgrade-buy-nic")).toContainText(int(SERVERS));
  await diffDialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("diff-count-added")).toHaveText(int(parDiff.counts.added));

  // --- price a part in the project's book: the BOM total moves by quantity x price
  await panel.getByTestId(`plan-view-${a.id}`).click();
  const bomBefore = await (await page.request.get(`/api/v1/wiring-plans/${a.id}/bom`)).json();
  const tor = bomBefore.lines.find((l: { category: string; part_number: string }) => l.category === "switch" && l.part_number === "48x25G+8x100G ToR");
  expect(tor.quantity).toBe(TORS); // one ToR per logical rack, counted by hand
  const oldUnit: number = tor.unit_price ?? 0;
  const newUnit = 4321.5;
  await panel.getByTestId("open-pricebook").click();
  const book = page.getByTestId("pricebook-dialog");
  const torPrice = book.getByTestId("price-48x25G+8x100G ToR");
  await torPrice.fill(String(newUnit));
  // Someone else saves the book meanwhile (through the API): our save is refused, nothing typed is lost.
  const current = await (await page.request.get(`/api/v1/projects/${projectId}/price-book`)).json();
  const other = await page.request.patch(`/api/v1/projects/${projectId}/price-book`, {
    headers: { "If-Match": `"${current.version}"` },
    data: { upsert: [{ part_number: "ZZ-OTHER", category: "cable", description: "someone else's", base_price: 1, per_metre: 0 }], remove: [] },
  });
  expect(other.status(), await other.text()).toBe(200);
  await book.getByTestId("pricebook-save").click();
  await expect(book.getByTestId("pricebook-stale")).toContainText("Someone else changed the price book");
  await expect(torPrice).toHaveValue(String(newUnit));
  await page.screenshot({ path: `${ARTIFACTS}/plans-pricebook-stale.png` });
  await book.getByTestId("pricebook-reload").click();
  await expect(torPrice).toHaveValue(String(newUnit));
  await book.getByTestId("pricebook-save").click();
  await expect(book.getByTestId("pricebook-version")).toContainText(`Version ${current.version + 2}`);
  await book.getByRole("button", { name: "Close" }).click();
  const expectedTotal = Math.round((bomBefore.total + TORS * (newUnit - oldUnit)) * 100) / 100;
  await panel.getByTestId("plan-bom").click();
  const bomView = page.getByTestId("bom-dialog");
  await expect(bomView.getByTestId("bom-total")).toHaveAttribute("data-total", String(expectedTotal));
  await expect(bomView.getByTestId("bom-total")).toHaveText(money(expectedTotal, bomBefore.currency));
  await expect(bomView.locator('tr[data-part="48x25G+8x100G ToR"]')).toContainText("project book");
  await page.screenshot({ path: `${ARTIFACTS}/plans-bom.png` });
  // The same BOM as CSV: one line per BOM line, the ToR line at the project's price.
  const bomCsv = parseCsv((await download(page, "bom-csv")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  const col = (name: string) => bomCsv[0]!.indexOf(name);
  expect(bomCsv.length - 1).toBe(bomBefore.lines.length);
  const torLine = bomCsv.find((r) => r[col("part_number")] === "48x25G+8x100G ToR")!;
  expect([Number(torLine[col("quantity")]), Number(torLine[col("unit_price")]), torLine[col("price_source")]]).toEqual([TORS, newUnit, "project"]);
  await bomView.getByRole("button", { name: "Close" }).click();

  // The price book round-trips as CSV: export, change the ToR's price in the file, import it back.
  await panel.getByTestId("open-pricebook").click();
  const exported = (await download(page, "pricebook-export")).body.toString("utf8");
  const lines = parseCsv(exported).filter((r) => r.some((f) => f !== ""));
  const pcol = (name: string) => lines[0]!.indexOf(name);
  const torEntry = lines.find((r) => r[pcol("part_number")] === "48x25G+8x100G ToR")!;
  expect(Number(torEntry[pcol("base_price")])).toBe(newUnit);
  torEntry[pcol("base_price")] = "5000";
  const edited = lines.map((r) => r.map((f) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",")).join("\n") + "\n";
  await book.getByTestId("pricebook-import").setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(edited) });
  await expect(book.getByTestId("pricebook-version")).toContainText(`Version ${current.version + 3}`);
  await expect(torPrice).toHaveValue("5000");
  await book.getByRole("button", { name: "Close" }).click();
  const bomAfterImport = await (await page.request.get(`/api/v1/wiring-plans/${a.id}/bom`)).json();
  expect(bomAfterImport.total).toBeCloseTo(expectedTotal + TORS * (5000 - newUnit), 2);

  // --- every export, downloaded with the session cookie and parsed back
  const cables = (await (await page.request.get(`/api/v1/wiring-plans/${a.id}/cables?limit=500`)).json()).items as { label: string; a: { row: string }; b: { row: string } }[];
  expect(cables.length).toBe(a.summary.cables);
  const sample = cables[Math.floor(cables.length / 2)]!;

  const csv = parseCsv((await download(page, "download-wiring-csv")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  expect(csv.length - 1).toBe(a.summary.cables); // header + one line per cable
  expect(csv.some((r) => r.includes(sample.label))).toBe(true);

  const xlsx = new ExcelJS.Workbook();
  await xlsx.xlsx.load(xlsxBytes((await download(page, "download-wiring-xlsx")).body));
  const rowNames = [...new Set(cables.flatMap((c) => [c.a.row, c.b.row]))].sort();
  expect(xlsx.worksheets.map((w) => w.name).sort()).toEqual(rowNames);
  for (const ws of xlsx.worksheets) {
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const inRow = cables.filter((c) => c.a.row === ws.name || c.b.row === ws.name).length;
    expect(ws.actualRowCount - 1).toBe(inRow);
  }

  // The whole hall's printable exports are ZIPs of PDFs: the wiring sheet one per row, the labels by rack.
  for (const pdf of ["download-wiring-pdf", "download-labels-pdf"]) {
    const printed = await printedText((await download(page, pdf)).body);
    if (pdf === "download-wiring-pdf") expect(printed.entries).toEqual(rowNames.map((r) => `wiring-row-${r}.pdf`));
    else expect(printed.entries.length).toBeGreaterThan(0);
    const text = printed.text.replace(/\s+/g, " ");
    // The label's two ends (a label may wrap between them).
    for (const end of sample.label.split(" / ")) expect(text, `${pdf} holds ${end}`).toContain(end);
  }

  const pull = parseCsv((await download(page, "download-pull-list")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  const header = pull[0]!;
  const qty = header.findIndex((h) => /quantity|count|cables/i.test(h));
  expect(qty, `pull list header ${header}`).toBeGreaterThanOrEqual(0);
  expect(pull.slice(1).reduce((s, r) => s + Number(r[qty]), 0)).toBe(a.summary.cables);

  const zip = await JSZip.loadAsync((await download(page, "download-netbox")).body);
  const names = Object.keys(zip.files).sort();
  const cableFile = names.find((n) => /cables\.csv$/.test(n));
  expect(cableFile, `netbox set ${names}`).toBeTruthy();
  const netboxCables = parseCsv(await zip.file(cableFile!)!.async("string")).filter((r) => r.some((f) => f !== ""));
  expect(netboxCables.length - 1).toBe(a.summary.cables);
  expect(names.some((n) => /devices\.csv$/.test(n))).toBe(true);
  // NetBox makes the interfaces from the device types' templates: no interfaces file
  expect(names.some((n) => /locations\.csv$/.test(n))).toBe(true);
  const typesFile = names.find((n) => /device-types\.yaml$/.test(n));
  expect(typesFile, `netbox set ${names}`).toBeTruthy();
  expect(await zip.file(typesFile!)!.async("string")).toContain("interfaces:");

  const nb = parseCsv((await download(page, "download-netbox-cables")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  expect(nb.length - 1).toBe(a.summary.cables);

  // --- a rack's wiring sheet: the CSV and the workbook hold exactly the cables with an end in it
  const rackCables = cables as unknown as { cable_id: string; a: { rack: string }; b: { rack: string } }[];
  const rack = rackCables[0]!.a.rack;
  const inRack = rackCables.filter((c) => c.a.rack === rack || c.b.rack === rack).map((c) => c.cable_id).sort();
  await page.getByTestId("export-scope").selectOption("rack");
  await page.getByTestId("export-row").selectOption(rack.split(".")[1]!);
  await page.getByTestId("export-rack").selectOption(rack);
  const rackCsv = parseCsv((await download(page, "download-wiring-csv")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  expect(rackCsv.slice(1).map((r) => r[0]).sort()).toEqual(inRack);
  const rackBook = new ExcelJS.Workbook();
  await rackBook.xlsx.load(xlsxBytes((await download(page, "download-wiring-xlsx")).body));
  expect(rackBook.worksheets.map((w) => w.name)).toEqual([rack]);
  expect(rackBook.worksheets[0]!.actualRowCount - 1).toBe(inRack.length);
});
