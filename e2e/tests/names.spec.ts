/**
 * Issue 24 item 9, as a cabling lead does it: set the hall's naming template in the editor's Names
 * tab, see the names there, download the wiring sheet and find them in it, upload a CSV of
 * overrides (a bad one is refused naming line and column, and changes nothing).
 */
import { expect, test } from "@playwright/test";
import { freshHall, login, waitForEditor } from "./helpers";
import { download, parseCsv } from "./planning";

test("device names: a template, the names in the editor and the wiring sheet, a CSV of overrides", async ({ page }) => {
  test.setTimeout(120_000);
  await login(page);
  const hall = await freshHall(page.request, "names");
  const models = async (kind: string) => (await (await page.request.get(`/api/v1/catalog/${kind}?limit=500`)).json()).items as { id: number; name: string }[];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const [servers, switches, racks] = [await models("server-models"), await models("switch-models"), await models("rack-types")];
  // Row R01: two racks, each 3 servers (U1-U3) and a ToR on top (U4); row N01: a network rack, one spine at U20.
  const lr = { servers: 3, server_model_id: id(servers, "2x25G server"), ports_used: 1, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const row = await page.request.post(`/api/v1/halls/${hall.id}/rows`, {
    data: { name: "R01", x_m: 1.2, y_m: 1.2, rack_count: 2, rack_template: { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr] } },
  });
  expect(row.status(), await row.text()).toBe(201);
  const net = await page.request.post(`/api/v1/halls/${hall.id}/rows`, {
    data: {
      name: "N01",
      x_m: 1.2,
      y_m: 6,
      racks: [{ name: "N01-01", role: "network", rack_type_id: id(racks, "42U 600x1200"), fabric_switches: [{ name: "SP1", role: "spine", switch_model_id: id(switches, "64x100G spine"), u: 20 }] }],
    },
  });
  expect(net.status(), await net.text()).toBe(201);
  const hallName = (await (await page.request.get(`/api/v1/halls/${hall.id}`)).json()).name as string;
  const [k1, k2] = ((await row.json()).racks as { name: string; position_m: number }[]).sort((a, b) => a.position_m - b.position_m).map((k) => k.name);
  const loc = (rack: string, u: number, r = "R01") => `${hallName}.${r}.${rack}.U${String(u).padStart(2, "0")}`;

  await page.goto(`/projects/${hall.projectId}/halls/${hall.id}`);
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Names" }).click();
  const panel = page.getByTestId("device-names");
  // Before any naming, a device is called by its location.
  await expect(panel.getByTestId(`device-${loc(k1!, 1)}`)).toContainText(`${loc(k1!, 1)}${loc(k1!, 1)}`);
  await expect(panel).toContainText("9 devices");

  // A template without the rack counter would name two devices alike: refused, naming both.
  const field = panel.getByRole("textbox", { name: "Naming template" });
  await field.fill("{row}-s{u:02}");
  await panel.getByRole("button", { name: "Apply template" }).click();
  await expect(panel.getByTestId("template-error")).toHaveText(
    `${loc(k1!, 1)} and ${loc(k2!, 1)} would both be named 'R01-s01': host names must be unique in the hall`,
  );
  await field.fill("{row}{rack:02}-s{u:02}");
  await panel.getByRole("button", { name: "Apply template" }).click();
  await expect(panel.getByTestId(`device-${loc(k1!, 1)}`)).toContainText("R0101-s01");
  await expect(panel.getByTestId(`device-${loc(k2!, 4)}`)).toContainText("R0102-s04");
  await expect(panel.getByTestId(`device-${loc("N01-01", 20, "N01")}`)).toContainText("N0101-s20");
  await page.screenshot({ path: "artifacts/names-template.png" });

  // A plan, opened; its wiring sheet names both ends by host name.
  const plan = await page.request.post(`/api/v1/halls/${hall.id}/wiring-plans`, { data: { name: "names", pattern: "single-homed" } });
  expect(plan.status(), await plan.text()).toBe(201);
  const planId = (await plan.json()).id as number;
  await page.goto(`/projects/${hall.projectId}/halls/${hall.id}?plan=${planId}`);
  await waitForEditor(page);
  await page.getByRole("tab", { name: "Plans" }).click();
  const sheet = parseCsv((await download(page, "download-wiring-csv")).body.toString("utf8")).filter((r) => r.some((f) => f !== ""));
  const col = (name: string) => sheet[0]!.indexOf(name);
  const server1 = sheet.find((r) => r[col("a_device")] === "R0101-s01" || r[col("b_device")] === "R0101-s01")!;
  expect(server1, "a cable of R0101-s01").toBeTruthy();
  expect([server1[col("a_device")], server1[col("b_device")]].sort()).toEqual(["R0101-s01", "R0101-s04"]);
  expect(server1[col("label")]).toMatch(/^(R0101-s01:p1 \/ R0101-s04:e\d+|R0101-s04:e\d+ \/ R0101-s01:p1)$/);
  const devices = new Set(sheet.slice(1).flatMap((r) => [r[col("a_device")], r[col("b_device")]]));
  expect([...devices].filter((d) => d!.startsWith(`${hallName}.`))).toEqual([]);

  // Overrides by CSV: a bad file names line and column and changes nothing; a good one applies.
  await page.getByRole("tab", { name: "Names" }).click();
  await expect(panel.getByTestId(`device-${loc(k1!, 1)}`)).toContainText("R0101-s01");
  const upload = panel.getByTestId("names-csv-upload");
  const bad = `device,host_name,asset_tag\n${loc(k1!, 1)},db-01,AT-1\n${loc(k1!, 9)},db-02,\n${loc(k1!, 2)},-x-,\n`;
  await upload.setInputFiles({ name: "names.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  const errors = panel.getByTestId("names-upload-errors").locator("li");
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0)).toHaveText(`line 3, column device: no device '${loc(k1!, 9)}' in this hall (use the location names the export lists)`);
  await expect(errors.nth(1)).toContainText("line 4, column host_name:");
  await expect(panel.getByTestId(`device-${loc(k1!, 1)}`)).toContainText("R0101-s01");
  const good = `device,host_name,asset_tag\n${loc(k1!, 1)},db-01,AT-1\n${loc(k2!, 4)},tor-east,\n`;
  await upload.setInputFiles({ name: "names.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
  await expect(panel.getByTestId(`device-${loc(k1!, 1)}`)).toContainText("db-01AT-1");
  await expect(panel.getByTestId(`device-${loc(k2!, 4)}`)).toContainText("tor-east");
  await expect(panel.getByTestId(`device-${loc(k1!, 2)}`)).toContainText("R0101-s02");
  await expect(panel.getByTestId("names-upload-errors")).toHaveCount(0);
  // The NetBox devices file carries the names and the asset tag.
  const netbox = await page.request.get(`/api/v1/wiring-plans/${planId}/exports/netbox-cables.csv`);
  expect(await netbox.text()).toContain("db-01");
});
