/**
 * Shared by the plans and journey specs: plans generated from the Wiring tab as a person would, and
 * exports downloaded from the page and read back (CSV, XLSX, PDF).
 */
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import JSZip from "jszip";
import { extractText, getDocumentProxy } from "unpdf";

export interface Plan {
  id: number;
  name: string;
  hall_id: number;
  base_plan_id: number | null;
  summary: {
    servers: number;
    cables: number;
    loops: number;
    copper_share: number;
    transceiver_count: number;
    by_class: Record<string, { count: number; min_raw_length_m: number; mean_raw_length_m: number; max_raw_length_m: number }>;
    cost: { currency: string; cables: number; transceivers: number; switches: number; total: number; unpriced: unknown[] };
    warnings: string[];
  };
}

export async function plansOf(request: APIRequestContext, projectId: number, hallId: number): Promise<Plan[]> {
  const res = await request.get(`/api/v1/projects/${projectId}/wiring-plans?limit=100`);
  expect(res.status()).toBe(200);
  return ((await res.json()).items as Plan[]).filter((p) => p.hall_id === hallId).sort((a, b) => a.id - b.id);
}

export const RACKS_PER_ROW = 6;
export const LOGICAL_PER_RACK = 2;
export const SERVERS_PER_LOGICAL = 10;
/** Two facing rows: 2 x 6 racks x 2 logical racks, each with its own ToR. */
export const TORS = 2 * RACKS_PER_ROW * LOGICAL_PER_RACK;
export const SERVERS = TORS * SERVERS_PER_LOGICAL;

/**
 * A project of its own (its own price book), one hall, two facing rows of racks and a network rack whose
 * four spines are the catalog switch model `spineModelId` (the builtin 64 x 100G spine by default).
 */
export async function plannedHall(request: APIRequestContext, tag: string, spineModelId?: number) {
  const project = await request.post("/api/v1/projects", { data: { name: `${tag}-${Date.now().toString(36)}` } });
  expect(project.status(), await project.text()).toBe(201);
  const projectId: number = (await project.json()).id;
  const hallRes = await request.post(`/api/v1/projects/${projectId}/halls`, { data: { name: "H1", width_m: 16, depth_m: 12 } });
  expect(hallRes.status(), await hallRes.text()).toBe(201);
  const hallId: number = (await hallRes.json()).id;
  const models = async (kind: string) => (await (await request.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const servers = await models("server-models");
  const switches = await models("switch-models");
  const racks = await models("rack-types");
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  // p = 1 of the servers' two ports, so p -> p+1 fits the NIC.
  const lr = { servers: SERVERS_PER_LOGICAL, server_model_id: id(servers, "2x25G server"), ports_used: 1, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const pair = await request.post(`/api/v1/halls/${hallId}/row-pairs`, {
    data: { name_a: "R01", name_b: "R02", x_m: 1.2, y_m: 1.2, rack_count: RACKS_PER_ROW, rack_template: { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr, lr] } },
  });
  expect(pair.status(), await pair.text()).toBe(201);
  const net = await request.post(`/api/v1/halls/${hallId}/rows`, {
    data: {
      name: "N01",
      x_m: 1.2,
      y_m: 8.4,
      racks: [
        {
          name: "N01-01",
          role: "network",
          rack_type_id: id(racks, "42U 600x1200"),
          fabric_switches: [20, 22, 24, 26].map((u, i) => ({ name: `SP${i + 1}`, role: "spine", switch_model_id: spineModelId ?? id(switches, "64x100G spine"), u })),
        },
      ],
    },
  });
  expect(net.status(), await net.text()).toBe(201);
  return { projectId, hallId };
}

/** Generate a plan from the Wiring tab, as a person would; returns the API's plan. */
export async function generate(page: Page, projectId: number, hallId: number, pattern: string, ports = ""): Promise<Plan> {
  const before = (await plansOf(page.request, projectId, hallId)).length;
  await page.getByRole("tab", { name: "Wiring" }).click();
  const panel = page.getByTestId("wiring-panel");
  await panel.getByTestId("wiring-pattern").selectOption(pattern);
  await panel.getByTestId("wiring-p").fill(ports);
  await panel.getByTestId("wiring-generate").click();
  await expect(panel.getByTestId("cable-count")).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => (await plansOf(page.request, projectId, hallId)).length).toBe(before + 1);
  const plan = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  await expect(panel.getByTestId("wiring-plans")).toHaveValue(String(plan.id));
  return plan;
}


/** Click a download link and read the file it saves. */
export async function download(page: Page, testId: string): Promise<{ name: string; body: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  const path = await file.path();
  expect(path, `download ${testId} failed: ${await file.failure()}`).toBeTruthy();
  return { name: file.suggestedFilename(), body: await readFile(path!) };
}

/** RFC 4180 lines -> rows of fields (quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

async function pdfText(body: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/**
 * Text of a printable export: one PDF, or (a whole hall's sheets and labels) a ZIP of PDFs, whose
 * entries must all be PDFs. Returns the entry names too (empty for a single PDF).
 */
export async function printedText(body: Buffer): Promise<{ entries: string[]; text: string }> {
  if (body.subarray(0, 5).toString() === "%PDF-") return { entries: [], text: await pdfText(body) };
  expect(body.subarray(0, 2).toString(), "a PDF or a ZIP of PDFs").toBe("PK");
  const zip = await JSZip.loadAsync(body);
  const entries = Object.keys(zip.files).sort();
  const texts: string[] = [];
  for (const name of entries) {
    const bytes = Buffer.from(await zip.file(name)!.async("uint8array"));
    expect(bytes.subarray(0, 5).toString(), `${name} is a PDF`).toBe("%PDF-");
    texts.push(await pdfText(bytes));
  }
  return { entries, text: texts.join("\n") };
}

/** exceljs' types predate Node's generic Buffer: hand it the bytes as a plain ArrayBuffer. */
export function xlsxBytes(b: Buffer): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

export interface DrawnDiff {
  oldPlanId: number;
  newPlanId: number;
  drawn: Record<"kept" | "added" | "moved" | "removed", number>;
  colours: Record<"kept" | "added" | "moved" | "removed", string>;
}

/** The plan difference as the scene drew it (`window.__loopline.diff`), once it is the diff of `newPlanId`. */
export async function drawnDiff(page: Page, newPlanId: number): Promise<DrawnDiff> {
  const read = () => page.evaluate(() => (window as unknown as { __loopline: { diff?: DrawnDiff | null } }).__loopline.diff ?? null);
  await expect.poll(async () => (await read())?.newPlanId).toBe(newPlanId);
  return (await read())!;
}
