/**
 * Issue 24 item 12, as a cabling team does it: a plan, then its upgrade (p = 1 -> 2); the upgrade's
 * Downloads offer "NetBox upgrade from #<base>", whose ZIP holds only what changes for the NetBox
 * that holds the first plan: here the added cables alone (Subways p -> p + 1 moves nothing, adds no
 * hardware), one per server on its new port p2, exactly the diff's added cables, coloured by type.
 * The first plan itself offers no such button.
 */
import { expect, test } from "@playwright/test";
import JSZip from "jszip";
import { download, generate, parseCsv, plannedHall, SERVERS } from "./planning";
import { ARTIFACTS, login, waitForEditor } from "./helpers";

const COLOURS: Record<string, string> = { "dac-passive": "000000", "dac-active": "607d8b", aoc: "ff9800", "mmf-om4": "00ffff" };

test("an upgrade's NetBox changes download as the added cables alone", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const { projectId, hallId } = await plannedHall(page.request, "netbox-upgrade");
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);
  const base = await generate(page, projectId, hallId, "side-to-side", "1");
  const made = await page.request.post(`/api/v1/wiring-plans/${base.id}/upgrades`, { data: { name: "p2", ports: 2 } });
  expect(made.status(), await made.text()).toBe(201);
  const upgrade = await made.json();

  await page.reload();
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  await panel.getByTestId(`plan-view-${base.id}`).click();
  await expect(panel.getByTestId("download-netbox")).toBeVisible();
  await expect(panel.getByTestId("download-netbox-upgrade")).toHaveCount(0);

  await panel.getByTestId(`plan-view-${upgrade.id}`).click();
  const button = panel.getByTestId("download-netbox-upgrade");
  await expect(button).toContainText(`NetBox upgrade from #${base.id}`);
  await page.screenshot({ path: `${ARTIFACTS}/netbox-upgrade-download.png` });
  const file = await download(page, "download-netbox-upgrade");
  expect(file.name).toBe(`plan-${upgrade.id}-from-${base.id}-netbox-upgrade.zip`);

  const zip = await JSZip.loadAsync(file.body);
  expect(Object.keys(zip.files)).toEqual(["README.txt", "8-cables.csv"]);
  const readme = await zip.file("README.txt")!.async("string");
  expect(readme).toContain(`${SERVERS}  DCIM > Cables > Import`);
  const [header, ...rows] = parseCsv(await zip.file("8-cables.csv")!.async("string")).filter((r) => r.length > 1);
  const col = (name: string) => header.indexOf(name);
  expect(header).toContain("color");
  expect(rows.length).toBe(SERVERS);
  for (const r of rows) {
    expect(r[col("side_a_name")]).toBe("p2");
    expect(r[col("color")]).toBe(COLOURS[r[col("type")]]);
    expect(r[col("status")]).toBe("planned");
  }
  // Exactly the diff's added cables, by label.
  const added: string[] = [];
  for (let pg = 1; added.length < SERVERS; pg++) {
    const res = await page.request.get(`/api/v1/wiring-plans/${upgrade.id}/diff/cables?against=${base.id}&status=added&limit=100&page=${pg}`);
    expect(res.status(), await res.text()).toBe(200);
    const items: { cable: { label: string } }[] = (await res.json()).items;
    expect(items.length).toBeGreaterThan(0);
    added.push(...items.map((x) => x.cable.label));
  }
  expect(rows.map((r) => r[col("label")]).sort()).toEqual(added.sort());
});
