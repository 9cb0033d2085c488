/**
 * Issue 27 item 4: the server judges aisles, the editor draws its verdict. A hall that asks for wider
 * aisles than the usual 1.2 m cold / 0.9 m hot warns per its own setting, on the floor and in the
 * status bar, and rows further apart than the editor's old 6 m cut-off still have their aisle.
 */
import { expect, test } from "@playwright/test";
import { ARTIFACTS, clickFloor, freshHall, login, openHall, saved, view } from "./helpers";

test("a hall with its own aisle minimums warns per its setting in the status bar", async ({ page }) => {
  await login(page);
  const hall = await freshHall(page.request, "aisles", 20, 20);
  const own = await page.request.patch(`/api/v1/halls/${hall.id}`, {
    data: { min_cold_aisle_m: 1.5, min_hot_aisle_m: 1.1 },
    headers: { "If-Match": '"1"' },
  });
  expect(own.status(), await own.text()).toBe(200);
  const models = async (kind: string) => (await (await page.request.get(`/api/v1/catalog/${kind}?limit=500`)).json()).items as { id: number; name: string }[];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const [servers, switches, racks] = [await models("server-models"), await models("switch-models"), await models("rack-types")];
  const lr = { servers: 3, server_model_id: id(servers, "2x25G server"), ports_used: 1, tor_model_id: id(switches, "48x25G+8x100G ToR") };
  // Rows of six 0.6 m x 1.2 m racks from x = 1.2 m: A|B a 1.2 m cold aisle, B|C a 1.0 m hot one, C|D a 7.0 m cold one.
  for (const [name, y, front] of [["A", 1.2, "left"], ["B", 3.6, "right"], ["C", 5.8, "left"], ["D", 14, "right"]] as const) {
    const r = await page.request.post(`/api/v1/halls/${hall.id}/rows`, {
      data: { name, x_m: 1.2, y_m: y, front, rack_count: 6, rack_template: { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr] } },
    });
    expect(r.status(), await r.text()).toBe(201);
  }
  await openHall(page, hall);
  await view(page, "plan");

  // At the usual minimums neither aisle would be flagged; this hall asks 1.5 m cold and 1.1 m hot.
  const warnings = page.getByTestId("aisle-warning");
  await expect(warnings).toHaveText(["⚠ cold aisle A/B is 1.20 m (min 1.50 m)", "⚠ hot aisle B/C is 1.00 m (min 1.10 m)"]);
  await expect(warnings.first()).not.toHaveAttribute("data-stale", "true");
  const labels = page.getByTestId("aisle-label");
  await expect(labels).toHaveCount(3);
  await expect(page.locator('[data-testid="aisle-label"][data-width-mm="1200"]')).toHaveText("Cold aisle 1.20 m ⚠ too narrow (min 1.50 m)");
  await expect(page.locator('[data-testid="aisle-label"][data-width-mm="1000"]')).toHaveText("Hot aisle 1.00 m ⚠ too narrow (min 1.10 m)");
  // 7 m apart: an aisle all the same (the editor's own copy stopped at 6 m).
  await expect(page.locator('[data-testid="aisle-label"][data-width-mm="7000"]')).toHaveText("Cold aisle 7.00 m");
  await page.screenshot({ path: `${ARTIFACTS}/hall-aisles-own-minimums.png` });

  // Row C one tile further from B: the hot aisle is 1.6 m, wide enough; the report after the edit says so.
  await page.keyboard.press("Escape");
  await clickFloor(page, 4.5, 6.7, 2.0);
  await expect(page.getByText("1 selected")).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await saved(page);
  await expect(warnings).toHaveText(["⚠ cold aisle A/B is 1.20 m (min 1.50 m)"]);
  await expect(page.locator('[data-testid="aisle-label"][data-width-mm="1600"]')).toHaveText("Hot aisle 1.60 m");
  await expect(page.locator('[data-testid="aisle-label"][data-width-mm="6400"]')).toHaveText("Cold aisle 6.40 m");
});
