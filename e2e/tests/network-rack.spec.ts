/**
 * A fresh hall has no fabric above its ToRs: the status bar says how to add it, and a person makes a
 * rack a network rack with two spines from the property panel, then wires the hall leaf-spine.
 */
import { expect, test } from "@playwright/test";
import { generate } from "./planning";
import { ARTIFACTS, dragOnFloor, floorPoint, freshHall, layout, login, openHall, saved, view } from "./helpers";

test("a network rack with two spines, made in the property panel, persists and lets leaf-spine wiring through", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const hall = await freshHall(page.request, "netrack", 16, 10);
  await openHall(page, hall);
  await view(page, "plan");
  await page.keyboard.press("d");
  await dragOnFloor(page, [1.3, 2.5], [7.1, 2.5]);
  await saved(page);
  const missing = page.getByTestId("fabric-missing");
  await expect(missing).toContainText("Select a rack, set it to Network and add spines.");

  // The row's last rack: click once for the row, again for the rack (its top, 2 m up).
  const row = (await layout(page.request, hall.id)).rows[0]!;
  expect(row.racks).toHaveLength(10);
  const last = row.racks[9]! as unknown as { name: string; position_m: number };
  await page.keyboard.press("Escape");
  const top = await floorPoint(page, row.x_m + last.position_m + 0.3, row.y_m + 0.6, 2.0);
  await page.mouse.click(top.x, top.y);
  await page.mouse.click(top.x, top.y);
  const panel = page.locator(".panel-section").filter({ has: page.getByTestId("input-rack-role") });
  await expect(panel.getByTestId("input-rack-role")).toHaveValue("compute");
  await panel.getByTestId("input-rack-role").selectOption("network");
  const net = page.getByTestId("network-rack");
  await expect(net.locator("h2")).toHaveText(`Rack ${last.name} · 0 fabric switches`);
  // Defaults: a spine, the catalog's spine model, the next free U.
  await expect(net.getByTestId("input-switch-model")).toHaveValue("64x100G spine");
  await expect(net.getByTestId("input-switch-u")).toHaveAttribute("placeholder", "1");
  await net.getByTestId("add-switch").click();
  await expect(net.getByTestId("input-switch-u")).toHaveAttribute("placeholder", "3");
  // A U taken by SP1 (U1-2) is refused next to the field, in words.
  await net.getByTestId("input-switch-u").fill("2");
  await net.getByTestId("add-switch").click();
  await expect(page.getByTestId("error-fabricSwitches")).toHaveText("U2 to U3 overlaps SP1 (U1).");
  await net.getByTestId("input-switch-u").fill("20");
  await net.getByTestId("add-switch").click();
  await expect(page.getByTestId("error-fabricSwitches")).toBeHidden();
  await expect(net.getByTestId("fabric-switches").locator("li")).toHaveCount(2);
  await expect(net.getByTestId("fabric-switch-SP2")).toContainText("SP2 · spine · 64x100G spine");
  await saved(page);
  await expect(missing).toBeHidden();
  await page.screenshot({ path: `${ARTIFACTS}/network-rack.png` });

  const stored = async () => {
    const r = (await layout(page.request, hall.id)).rows[0]!.racks[9]! as unknown as {
      role: string;
      logical_racks: unknown[];
      fabric_switches: { name: string; role: string; u: number }[];
    };
    return { role: r.role, servers: r.logical_racks.length, switches: r.fabric_switches.map((f) => `${f.name}:${f.role}@U${f.u}`) };
  };
  expect(await stored()).toEqual({ role: "network", servers: 0, switches: ["SP1:spine@U1", "SP2:spine@U20"] });

  // Undo takes the last spine out, redo puts it back; both are saved.
  await page.keyboard.press("Control+z");
  await saved(page);
  await expect.poll(async () => (await stored()).switches).toEqual(["SP1:spine@U1"]);
  await page.keyboard.press("Control+Shift+z");
  await saved(page);
  await expect.poll(async () => (await stored()).switches).toEqual(["SP1:spine@U1", "SP2:spine@U20"]);

  // After a reload the panel shows the same rack as the server holds it.
  await page.reload();
  await page.waitForFunction(() => Boolean(window.__loopline?.project && window.__loopline?.sync));
  await view(page, "plan");
  const again = await floorPoint(page, row.x_m + last.position_m + 0.3, row.y_m + 0.6, 2.0);
  await page.mouse.click(again.x, again.y);
  await page.mouse.click(again.x, again.y);
  await expect(page.getByTestId("input-rack-role")).toHaveValue("network");
  await expect(page.getByTestId("fabric-switches").locator("li")).toHaveCount(2);

  // Leaf-spine (the demo project's fabric) now wires: 9 compute racks x 2 ToRs x 4 uplinks, all to SP1/SP2.
  const plan = await generate(page, hall.projectId, hall.id, "single-homed");
  expect(plan.summary.by_class.tor_fabric!.count).toBe(9 * 2 * 4);
});
