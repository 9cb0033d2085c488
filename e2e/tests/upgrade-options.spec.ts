/**
 * Issue 24 items 2 and 6, as the user did it: a plan whose servers use both of their 2 NIC ports; "Plan an
 * upgrade" no longer preselects p = 3 (which the servers cannot take) but a buildable upgrade, says p = 3
 * needs servers with 3 NIC ports and offers to switch the logical racks to the 4x25G server, which then
 * generates p = 3 (Subways: nothing moves). Then an upgrade that moves cables (to single-homed) and its
 * re-cabling work order downloaded as CSV, XLSX and PDF and read back against the API's diff.
 */
import { expect, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { download, generate, parseCsv, plannedHall, plansOf, printedText, SERVERS, TORS, xlsxBytes } from "./planning";
import { ARTIFACTS, login, waitForEditor } from "./helpers";

type End = { device: string; port: string; rack: string };
type DiffItem = { cable: { label: string; a: End; b: End }; moved_from: { label: string; a: End; b: End } | null };

test("upgrades the hall can build, a server model switched for p + 1, and the work order of a re-cabling", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "upgrade-options");
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  // Paired rows with p = 2: both NIC ports of the 2x25G servers are cabled (the demo's situation).
  const base = await generate(page, projectId, hallId, "paired-row", "2");

  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-view-${base.id}`).click();
  await panel.getByTestId("plan-upgrade").click();
  const dialog = page.getByTestId("upgrade-dialog");
  await expect(dialog.getByTestId("upgrade-options")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  // p = 3 is offered as what it is: it needs a third NIC port on the 24 logical racks' servers.
  const p3 = dialog.getByTestId("upgrade-option-p=3");
  await expect(p3).toHaveAttribute("data-feasible", "false");
  await expect(p3.getByTestId("upgrade-needs-hardware")).toContainText(`Needs servers with 3 NIC ports (${TORS} logical racks have fewer)`);
  await expect(p3.locator("input[type=radio]")).toBeDisabled();
  // The preselected upgrade is one the hall builds, and it is the first the API says it can.
  const options = await (await page.request.get(`/api/v1/wiring-plans/${base.id}/upgrade-options`)).json();
  const first = options.options[options.preselected];
  expect(first.feasible).toBe(true);
  await expect(dialog.getByTestId(`upgrade-option-${first.label}`).locator("input[type=radio]")).toBeChecked();
  await expect(dialog.getByTestId("upgrade-generate")).toBeEnabled();
  await expect(dialog.getByTestId("upgrade-generate")).not.toContainText("p=3");
  await page.screenshot({ path: `${ARTIFACTS}/upgrade-options.png` });

  // The offered change: switch the servers to the 4x25G server, then generate p = 3.
  await p3.getByTestId("upgrade-switch-model").filter({ hasText: "4x25G server" }).click();
  const diffDialog = page.getByTestId("diff-dialog");
  await expect(diffDialog).toBeVisible({ timeout: 60_000 });
  const p3Plan = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect((p3Plan as unknown as { spec: { ports: number } }).spec.ports).toBe(3);
  expect(p3Plan.base_plan_id).toBe(base.id);
  const layout = await (await page.request.get(`/api/v1/halls/${hallId}/layout`)).json();
  const models = new Map((layout.server_models as { id: number; name: string }[]).map((m) => [m.id, m.name]));
  const used = new Set<string>();
  for (const row of layout.rows) for (const rack of row.racks) for (const lr of rack.logical_racks) used.add(models.get(lr.server_model_id)!);
  expect([...used]).toEqual(["4x25G server"]);
  // Subways p -> p + 1: nothing moves, one cable more per server.
  await expect(diffDialog.getByTestId("diff-tab-moved")).toContainText("moved 0");
  await expect(diffDialog.getByTestId("diff-tab-added")).toContainText(`added ${SERVERS.toLocaleString("en")}`);
  await page.keyboard.press("Escape");

  // --- an upgrade that re-cables: p = 3 paired rows -> single-homed (every port to the server's own ToR)
  await panel.getByTestId(`plan-view-${p3Plan.id}`).click();
  await panel.getByTestId("plan-upgrade").click();
  await expect(dialog.getByTestId("upgrade-options")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  const single = dialog.getByTestId("upgrade-option-pattern single-homed");
  await expect(single).toHaveAttribute("data-feasible", "true");
  await single.locator("input[type=radio]").check();
  await expect(dialog.getByTestId("upgrade-generate")).toContainText("pattern single-homed");
  await dialog.getByTestId("upgrade-generate").click();
  await expect(diffDialog).toBeVisible({ timeout: 60_000 });
  const sh = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  expect(sh.base_plan_id).toBe(p3Plan.id);
  const api = await (await page.request.get(`/api/v1/wiring-plans/${sh.id}/diff?against=${p3Plan.id}`)).json();
  expect(api.counts.moved).toBeGreaterThan(0);
  const moved: DiffItem[] = [];
  for (let pg = 1; moved.length < api.counts.moved; pg++) {
    const res = await page.request.get(`/api/v1/wiring-plans/${sh.id}/diff/cables?against=${p3Plan.id}&status=moved&limit=100&page=${pg}`);
    expect(res.status(), await res.text()).toBe(200);
    const items: DiffItem[] = (await res.json()).items;
    expect(items.length).toBeGreaterThan(0);
    moved.push(...items);
  }
  expect(moved.length).toBe(api.counts.moved);
  // The moved tab shows where each cable comes from.
  await diffDialog.getByTestId("diff-tab-moved").click();
  const m0 = moved[0]!;
  await expect(diffDialog.getByTestId("diff-moved-from").first()).toContainText(`${m0.moved_from!.label}: ${m0.moved_from!.a.device}:${m0.moved_from!.a.port}`);

  // The work order, as CSV: every step in order, phases 1 -> 3, grouped by rack, old ends -> new ends.
  const csv = await download(page, "download-work-order-csv");
  expect(csv.name).toBe(`plan-${sh.id}-from-${p3Plan.id}-work-order.csv`);
  const [head, ...rows] = parseCsv(csv.body.toString("utf8")).filter((r) => r.length > 1);
  const col = (name: string) => head!.indexOf(name);
  const steps = api.counts.added + api.counts.moved + api.counts.removed + api.counts.changed;
  expect(rows.length).toBe(steps);
  expect(rows.map((r) => Number(r[col("step")]))).toEqual(rows.map((_, i) => i + 1));
  const phaseOf = (r: string[]) => Number(r[col("phase")]!.slice(0, 1));
  const keys = rows.map((r) => [phaseOf(r), r[col("row")], r[col("rack")], r[col("label")]].join("\u0000"));
  expect(keys).toEqual([...keys].sort());
  const byLabel = new Map(moved.map((m) => [m.cable.label, m]));
  const recables = rows.filter((r) => r[col("action")] === "re-cable");
  expect(recables.length).toBe(api.counts.moved);
  for (const r of recables) {
    const m = byLabel.get(r[col("label")]!)!;
    expect(r[col("unplug_a")]).toBe(`${m.moved_from!.a.device}:${m.moved_from!.a.port}`);
    expect(r[col("unplug_b")]).toBe(`${m.moved_from!.b.device}:${m.moved_from!.b.port}`);
    expect(r[col("plug_a")]).toBe(`${m.cable.a.device}:${m.cable.a.port}`);
    expect(r[col("plug_b")]).toBe(`${m.cable.b.device}:${m.cable.b.port}`);
  }
  // Three links per server, at most two of them moved at a time: nobody goes off.
  expect(rows.filter((r) => r[col("servers_offline")] !== "")).toEqual([]);

  // XLSX: a sheet per phase, the same steps.
  const xlsx = await download(page, "download-work-order-xlsx");
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsxBytes(xlsx.body));
  expect(book.worksheets.map((w) => w.name)).toEqual(["1 plug", "2 re-cable", "3 unplug"]);
  expect(book.worksheets.reduce((n, w) => n + w.rowCount - 1, 0)).toBe(steps);
  expect(String(book.getWorksheet("2 re-cable")!.getRow(2).getCell(col("label") + 1).value)).toBe(recables[0]![col("label")]);

  // PDF: printable, the first re-cabled cable's label and a box to tick.
  const pdf = await download(page, "download-work-order-pdf");
  const { text } = await printedText(pdf.body);
  expect(text).toContain("Re-cabling work order");
  expect(text).toContain("2. Re-cable moved cables, replace changed ones");
  expect(text).toContain(recables[0]![col("label")]!);
  expect(text).toContain("Done");
  await page.screenshot({ path: `${ARTIFACTS}/upgrade-work-order.png` });
});

test("GRIN on 2-port servers in a new hall: the form says it needs a third NIC port and switches the model", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  // A new hall of one row whose 2x25G servers cable both ports (p = 2): GRIN needs p + n = 3.
  const request = page.request;
  const project = await request.post("/api/v1/projects", { data: { name: `grin-${Date.now().toString(36)}` } });
  const projectId: number = (await project.json()).id;
  const hallId: number = (await (await request.post(`/api/v1/projects/${projectId}/halls`, { data: { name: "H1", width_m: 16, depth_m: 12 } })).json()).id;
  const models = async (kind: string) => (await (await request.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const [servers, switches, racks] = [await models("server-models"), await models("switch-models"), await models("rack-types")];
  const lr = { servers: 10, server_model_id: id(servers, "2x25G server"), ports_used: 2, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const row = await request.post(`/api/v1/halls/${hallId}/rows`, {
    data: { name: "R01", x_m: 1.2, y_m: 1.2, rack_count: 4, rack_template: { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr, lr] } },
  });
  expect(row.status(), await row.text()).toBe(201);
  const spine = { name: "SP1", role: "spine", switch_model_id: id(switches, "64x100G spine"), u: 20 };
  const net = await request.post(`/api/v1/rows/${(await row.json()).id}/racks`, { data: { name: "N01", role: "network", fabric_switches: [spine] } });
  expect(net.status(), await net.text()).toBe(201);

  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Wiring" }).click();
  const panel = page.getByTestId("wiring-panel");
  await expect(panel.getByTestId("wiring-pattern").locator('option[value="grin"]')).toContainText("needs more NIC ports");
  await panel.getByTestId("wiring-pattern").selectOption("grin");
  const note = panel.getByTestId("wiring-pattern-infeasible");
  await expect(note).toContainText("grin needs servers with 3 NIC ports (8 logical racks have fewer)");
  await note.getByTestId("wiring-switch-model").filter({ hasText: "4x25G server" }).click();
  await expect(panel.getByTestId("cable-count")).toBeVisible({ timeout: 60_000 });
  const plans = await plansOf(request, projectId, hallId);
  expect(plans.length).toBe(1);
  expect((plans[0] as unknown as { spec: { pattern: string } }).spec.pattern).toBe("grin");
  const layout = await (await request.get(`/api/v1/halls/${hallId}/layout`)).json();
  expect((layout.server_models as { name: string }[]).map((m) => m.name)).toEqual(["4x25G server"]);
  await expect(note).toBeHidden();
});
