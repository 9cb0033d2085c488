/**
 * Issue 28 item 6: the power sheet downloads from a plan's downloads and opens. A rack of 40 servers of
 * 700 W max (450 W typical) and their ToR of 400 W (250 W) on two 230 V 32 A single-phase feeds, each
 * with a PDU: each feed must carry the whole rack alone (N+N), 40 x 700 + 400 = 28,400 W, against a
 * 230 x 32 = 7,360 W feed and its 0.8 x 7,360 = 5,888 W limit: 482.3 %, over. The plan has no optics
 * (no ToR uplinks: every cable is an in-rack DAC), so the plan's sheet is the devices' alone. The network
 * rack's spine (500 W max, 300 W typical) is on the default feeds without PDUs.
 */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import ExcelJS from "exceljs";
import { extractText, getDocumentProxy } from "unpdf";
import { download, generate, parseCsv, xlsxBytes } from "./planning";
import { login, waitForEditor } from "./helpers";

const COLUMNS = ["rack", "row", "feed", "voltage_v", "phases", "breaker_a", "pdu_model", "load_w", "capacity_w",
  "limit_w", "pct_of_limit", "phase_w", "typical_w", "status"];
const LINE = (feed: string, pdu: string) =>
  ["R01-01", "R01", feed, "230", "1", "32", pdu, "28400", "7360", "5888", "482.3", "28400", "18250", "over"];
/** The network rack on the default feeds (no PDU): its spine's 500 W (300 W typical), 500 / 5,888 = 8.5 %. */
const NETWORK = (feed: string) =>
  ["N01-01", "N01", feed, "230", "1", "32", "", "500", "7360", "5888", "8.5", "500", "300", "ok"];
const SHEET = (pdu: string) => [COLUMNS, NETWORK("A"), NETWORK("B"), LINE("A", pdu), LINE("B", pdu)];

async function created(res: APIResponse): Promise<{ id: number }> {
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number };
}

/** A project of its own (its fabric is changed) with one powered rack and a network rack. */
async function poweredHall(request: APIRequestContext, tag: string) {
  const project = await created(await request.post("/api/v1/projects", { data: { name: `${tag}-${Date.now().toString(36)}` } }));
  const hall = await created(await request.post(`/api/v1/projects/${project.id}/halls`, { data: { name: "H1", width_m: 16, depth_m: 12 } }));
  // No ToR uplinks: the plan's cables are the servers' DACs inside the rack, which draw nothing.
  const fabric = await request.get(`/api/v1/projects/${project.id}/fabric`);
  const patched = await request.patch(`/api/v1/projects/${project.id}/fabric`, {
    data: { tor_uplinks: 0 },
    headers: { "If-Match": fabric.headers()["etag"]! },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const tag36 = Date.now().toString(36);
  const server = await created(await request.post("/api/v1/catalog/server-models", {
    data: { name: `S700-${tag36}`, nic_ports: 1, port_gbps: 25, typical_w: 450, max_w: 700 },
  }));
  const tor = await created(await request.post("/api/v1/catalog/switch-models", {
    data: { name: `T400-${tag36}`, server_ports: 48, server_port_gbps: 25, uplink_ports: 8, uplink_gbps: 100, typical_w: 250, max_w: 400 },
  }));
  const pdu = await created(await request.post("/api/v1/catalog/pdu-models", {
    data: { name: `PDU-24-${tag36}`, outlets: 24, phases: 1, weight_kg: 4.5 },
  }));
  const racks = (await (await request.get("/api/v1/catalog/rack-types?limit=100")).json()).items as { id: number; name: string }[];
  const spineModel = await created(await request.post("/api/v1/catalog/switch-models", {
    data: { name: `SP500-${tag36}`, server_ports: 64, server_port_gbps: 100, uplink_ports: 0, uplink_gbps: 100, typical_w: 300, max_w: 500 },
  }));
  const rackType = racks.find((r) => r.name === "42U 600x1200")!.id;
  await created(await request.post(`/api/v1/halls/${hall.id}/rows`, {
    data: {
      name: "R01", x_m: 1.2, y_m: 1.2, rack_count: 1,
      rack_template: { rack_type_id: rackType, logical_racks: [{ servers: 40, server_model_id: server.id, ports_used: 1, tor_model_id: tor.id }] },
    },
  }));
  const spine = { name: "SP1", role: "spine", switch_model_id: spineModel.id, u: 20 };
  await created(await request.post(`/api/v1/halls/${hall.id}/rows`, {
    data: { name: "N01", x_m: 1.2, y_m: 8.4, racks: [{ name: "N01-01", role: "network", rack_type_id: rackType, fabric_switches: [spine] }] },
  }));
  const layout = await (await request.get(`/api/v1/halls/${hall.id}/layout`)).json();
  const rack = (layout.rows as { name: string; racks: { id: number; name: string; version: number }[] }[])
    .find((r) => r.name === "R01")!.racks[0]!;
  expect(rack.name).toBe("R01-01");
  const feeds = ["A", "B"].map((name) => ({ name, voltage_v: 230, phases: 1, breaker_a: 32, pdu_model_id: pdu.id }));
  const res = await request.patch(`/api/v1/racks/${rack.id}`, {
    data: { facility: { feeds } },
    headers: { "If-Match": `"${rack.version}"` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { projectId: project.id, hallId: hall.id, pdu: `PDU-24-${tag36}` };
}

test("the power sheet downloads from the plan's downloads and opens: CSV, XLSX and PDF", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId, pdu } = await poweredHall(page.request, "power-sheet");
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  const plan = await generate(page, projectId, hallId, "single-homed");

  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-view-${plan.id}`).click();
  const buttons = panel.getByTestId("power-sheet-downloads");
  await expect(buttons.getByRole("link")).toHaveText(["⤓ Power sheet (CSV)", "⤓ Power sheet (XLSX)", "⤓ Power sheet (PDF)"]);

  const csv = await download(page, "download-power-csv");
  expect(csv.name).toBe(`hall-${hallId}-power-sheet-plan-${plan.id}.csv`);
  const rows = parseCsv(csv.body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  expect(rows).toEqual(SHEET(pdu));

  const xlsx = await download(page, "download-power-xlsx");
  expect(xlsx.name).toBe(`hall-${hallId}-power-sheet-plan-${plan.id}.xlsx`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsxBytes(xlsx.body));
  expect(book.worksheets.map((w) => w.name)).toEqual(["N01", "R01"]);
  const cells = book.worksheets.map((sheet) => {
    const out: string[][] = [];
    sheet.eachRow((r) => out.push(COLUMNS.map((_, i) => String(r.getCell(i + 1).value ?? ""))));
    return out;
  });
  expect(cells).toEqual([
    [COLUMNS, NETWORK("A"), NETWORK("B")],
    [COLUMNS, LINE("A", pdu), LINE("B", pdu)],
  ]);

  const pdf = await download(page, "download-power-pdf");
  expect(pdf.name).toBe(`hall-${hallId}-power-sheet-plan-${plan.id}.pdf`);
  expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.body)), { mergePages: true });
  expect(text).toContain("R01-01");
  expect(text).toContain("482.3 %");
  expect(text.match(/OVER/g)?.length).toBe(2);
  expect(text.match(/\bOK\b/g)?.length).toBe(2);
});
