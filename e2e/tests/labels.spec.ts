/**
 * Issue 24 item 11: a whole hall's labels came as a ZIP of PDFs. The plan's downloads offer one PDF
 * too ("Labels (one PDF)"): clicked, it saves a PDF with a page for every sheet of the ZIP's PDFs
 * together, and the labels of a sampled cable say what its wiring-sheet line says.
 */
import { expect, test } from "@playwright/test";
import JSZip from "jszip";
import { extractText, getDocumentProxy } from "unpdf";
import { download, generate, parseCsv, plannedHall } from "./planning";
import { login, waitForEditor } from "./helpers";

/** Pages of a PDF, read from the file by PDF.js (its page tree's count, checked by loading every page). */
async function pages(body: Buffer): Promise<{ count: number; text: string }> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  for (let i = 1; i <= pdf.numPages; i++) await pdf.getPage(i);
  const { text } = await extractText(pdf, { mergePages: true });
  return { count: pdf.numPages, text };
}

test("labels of the whole hall as one PDF: every sheet of the ZIP, in one file", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "labels");
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  const plan = await generate(page, projectId, hallId, "paired-row");

  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-view-${plan.id}`).click();
  const button = panel.getByTestId("download-labels-one-pdf");
  await expect(button).toHaveText(/Labels \(one PDF\)/);

  const one = await download(page, "download-labels-one-pdf");
  expect(one.name).toBe(`plan-${plan.id}-labels.pdf`);
  expect(one.body.subarray(0, 5).toString()).toBe("%PDF-");
  const printed = await pages(one.body);

  // The ZIP beside it, each of its PDFs counted the same way.
  const zip = await JSZip.loadAsync((await download(page, "download-labels-pdf")).body);
  let zipPages = 0;
  for (const name of Object.keys(zip.files)) zipPages += (await pages(Buffer.from(await zip.file(name)!.async("uint8array")))).count;
  // By hand: each ZIP entry holds whole racks of one row, two labels a cable, 21 labels a sheet.
  const cables = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/cables?limit=500`)).json()).items as {
    cable_id: string;
    label: string;
    a: { row: string; rack: string };
  }[];
  expect(cables.length).toBe(plan.summary.cables);
  expect(printed.count).toBe(zipPages);
  expect(printed.count).toBeGreaterThanOrEqual(Math.ceil((2 * cables.length) / 21));

  // Every cable's two labels, and a sampled cable's text as the wiring sheet has it.
  const ids = printed.text.match(/C[0-9a-f]{16}/g) ?? [];
  expect(ids.length).toBe(2 * cables.length);
  expect(new Set(ids).size).toBe(cables.length);
  const sheet = parseCsv((await download(page, "download-wiring-csv")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  const col = (name: string) => sheet[0]!.indexOf(name);
  const sample = sheet[Math.ceil(sheet.length / 2)]!;
  const text = printed.text.replace(/\s+/g, " ");
  for (const end of sample[col("label")]!.split(" / ")) expect(text).toContain(end);
  expect(text).toContain(sample[col("part_number")]!);
  expect(text.split(sample[col("cable_id")]!).length - 1).toBe(2);
});
