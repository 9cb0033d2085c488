import { expect, test } from "@playwright/test";
import { ARTIFACTS, clickFloor, dragOnFloor, floorPoint, freshHall, layout, login, openHall, saved, view } from "./helpers";

test.describe("layout editor", () => {
  test("draw two rows facing each other and see a cold aisle of the right width", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "draw");
    await openHall(page, hall);
    await view(page, "plan");
    await page.getByRole("button", { name: "Draw a row" }).click();

    // Row A: fronts on the left of the drag (+y); ten 0.6 m racks from x = 1.2 m to 7.2 m.
    await page.getByTestId("draw-front").selectOption("left");
    const a0 = [1.3, 1.25] as [number, number];
    const a1 = [7.1, 1.3] as [number, number];
    await dragOnFloor(page, a0, a1, async () => {
      // Dimension readout while drawing: the rack count follows the dragged length.
      await expect(page.getByTestId("draw-readout")).toHaveText("10 racks · 6.00 m × 1.20 m");
      await page.screenshot({ path: `${ARTIFACTS}/editor-drawing.png` });
    });
    await saved(page);
    // Row B, 1.2 m further on, facing back (fronts on the right of the drag).
    await page.getByRole("button", { name: "Draw a row" }).click();
    await page.getByTestId("draw-front").selectOption("right");
    await dragOnFloor(page, [1.2, 3.6], [7.2, 3.6]);
    await saved(page);

    const label = page.getByTestId("aisle-label");
    await expect(label).toHaveCount(1);
    await expect(label).toHaveAttribute("data-kind", "cold");
    await expect(label).toHaveAttribute("data-width-mm", "1200");
    await expect(label).toContainText("Cold aisle 1.20 m");

    // The API agrees: two rows of ten racks, one cold aisle 1.2 m wide.
    const doc = await layout(page.request, hall.id);
    expect(doc.rows.map((r) => r.racks.length)).toEqual([10, 10]);
    expect(doc.aisles).toEqual([expect.objectContaining({ kind: "cold", width_m: 1.2 })]);
    await page.screenshot({ path: `${ARTIFACTS}/editor-cold-aisle.png` });

    // Nudging row B closer makes the aisle too narrow: the editor warns.
    await page.keyboard.press("Escape"); // clear the selection: the click then selects the whole row
    await clickFloor(page, 4.0, 4.2);
    await page.keyboard.press("ArrowUp");
    await saved(page);
    await expect(page.getByTestId("aisle-warning")).toContainText("cold aisle");
    await expect(label).toHaveAttribute("data-width-mm", "600");
    await page.screenshot({ path: `${ARTIFACTS}/editor-narrow-aisle.png` });
  });

  test("edit a rack's contents, with errors shown next to the field", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "props");
    await openHall(page, hall);
    await page.keyboard.press("p"); // a facing pair of ten racks each
    await saved(page);
    await view(page, "plan");
    await page.getByRole("button", { name: "Frame selection" }).click();
    const doc = await layout(page.request, hall.id);
    const row = doc.rows[0]!;
    // Rack 3 of the first row: click selects the row, a second click the rack.
    const x = row.x_m + 2 * 0.6 + 0.3;
    const y = row.y_m + 0.6;
    await clickFloor(page, x, y, 2.0);
    await clickFloor(page, x, y, 2.0);
    const panel = page.getByTestId("property-panel");
    await expect(panel.getByRole("heading")).toHaveText(`Rack ${row.racks[2]!.name}`);

    // Too many servers: refused before it reaches the API, the message sits under the field.
    await panel.getByTestId("input-r").fill("25");
    await panel.getByTestId("apply-contents").click();
    await expect(panel.getByTestId("error-serversPerLogicalRack")).toContainText("needs 52U");

    await panel.getByTestId("input-r").fill("10");
    await panel.getByTestId("input-tor-position").selectOption("middle");
    await panel.getByTestId("apply-contents").click();
    await saved(page);
    await expect(panel.getByTestId("error-serversPerLogicalRack")).toHaveCount(0);
    const after = await layout(page.request, hall.id);
    const rack = after.rows[0]!.racks[2]!;
    expect(rack.logical_racks.map((l) => [l.servers, l.tor_position])).toEqual([
      [10, "middle"],
      [10, "middle"],
    ]);
    // Only that rack changed.
    expect(after.rows[0]!.racks[1]!.logical_racks[0]!.servers).toBe(15);
    await view(page, "elevation");
    await expect(page.getByTestId("elevation")).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/editor-rack-contents.png` });
  });

  test("undo an edit (and redo it), saved through the API each time", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "undo");
    await openHall(page, hall);
    await page.keyboard.press("p");
    await saved(page);
    expect((await layout(page.request, hall.id)).rows).toHaveLength(2);
    await view(page, "plan");
    const before = (await layout(page.request, hall.id)).rows[0]!;
    await page.keyboard.press("Escape");
    await clickFloor(page, before.x_m + 1.5, before.y_m + 0.6, 2.0);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await saved(page);
    expect((await layout(page.request, hall.id)).rows[0]!.x_m).toBeCloseTo(before.x_m + 1.2);

    await page.keyboard.press("Control+z");
    await saved(page);
    expect((await layout(page.request, hall.id)).rows[0]!.x_m).toBeCloseTo(before.x_m + 0.6);
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    await saved(page);
    // The facing pair itself is undone: the hall is empty again.
    expect((await layout(page.request, hall.id)).rows).toHaveLength(0);
    await page.screenshot({ path: `${ARTIFACTS}/editor-undo.png` });

    await page.keyboard.press("Control+Shift+Z");
    await saved(page);
    expect((await layout(page.request, hall.id)).rows).toHaveLength(2);
    await expect(page.getByTestId("aisle-label")).toHaveCount(1);
  });

  test("a second browser context edits the same row and the first sees the conflict", async ({ page, browser }) => {
    await login(page);
    const hall = await freshHall(page.request, "conflict");
    await openHall(page, hall);
    await page.keyboard.press("p");
    await saved(page);
    const row = (await layout(page.request, hall.id)).rows[0]!;

    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page2 = await other.newPage();
    await login(page2, `/?project=${hall.projectId}&hall=${hall.id}`);
    await view(page2, "plan");
    await clickFloor(page2, row.x_m + 1.5, row.y_m + 0.6, 2.0);
    await page2.keyboard.press("ArrowRight");
    await saved(page2);
    expect((await layout(page.request, hall.id)).rows[0]!.x_m).toBeCloseTo(row.x_m + 0.6);

    // The first tab still shows the old version of the row; its edit is refused with 409.
    await view(page, "plan");
    await page.keyboard.press("Escape");
    await clickFloor(page, row.x_m + 1.5, row.y_m + 0.6, 2.0);
    await page.keyboard.press("ArrowDown");
    await saved(page);
    const notice = page.getByTestId("notice-conflict");
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("was not saved");
    await expect(notice).toContainText("another tab");
    // It reloaded the fresh state: the other tab's move is visible, the refused one is not.
    await expect
      .poll(() =>
        page.evaluate(
          (name) => Object.values(window.__loopline!.store.records).find((r) => r.typeName === "row" && r.name === name) as unknown as { xMm: number; yMm: number },
          row.name,
        ),
      )
      .toEqual(expect.objectContaining({ xMm: Math.round((row.x_m + 0.6) * 1000), yMm: Math.round(row.y_m * 1000) }));
    await page.screenshot({ path: `${ARTIFACTS}/editor-conflict.png` });
    await other.close();
  });

  test("drag a row in the 3D view (snapped to the tiles)", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "drag3d");
    await openHall(page, hall);
    await page.keyboard.press("p");
    await saved(page);
    const row = (await layout(page.request, hall.id)).rows[1]!; // R02: its fronts face -y, towards the camera's far side
    await page.keyboard.press("Escape");
    await view(page, "3d");
    // Grab the back face of R02 (the +y side, facing the camera) near the floor and drag 1.2 m along +x.
    const y = row.y_m + 1.2 + 0.01;
    const a = await floorPoint(page, row.x_m + 3.3, y, 0.15);
    const b = await floorPoint(page, row.x_m + 4.5, y, 0.15);
    // In 3D a drag orbits unless it starts on the selection: click the row first, then drag it.
    await page.mouse.click(a.x, a.y);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 10, a.y + ((b.y - a.y) * i) / 10);
    await page.mouse.up();
    await saved(page);
    const after = (await layout(page.request, hall.id)).rows[1]!;
    expect(after.x_m).toBeCloseTo(row.x_m + 1.2);
    expect(after.y_m).toBeCloseTo(row.y_m);
    await page.screenshot({ path: `${ARTIFACTS}/editor-drag-3d.png` });
  });

  test("an edit past the wall is refused with its message next to the row", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "refused");
    await openHall(page, hall);
    await page.keyboard.press("p");
    await saved(page);
    const row = (await layout(page.request, hall.id)).rows[0]!;
    await view(page, "plan");
    await page.keyboard.press("Escape");
    await clickFloor(page, row.x_m + 1.5, row.y_m + 0.6);
    // Two tiles left is x = 0; the third would leave the hall (refused in the browser, as the API would).
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    await saved(page);
    const error = page.getByTestId("floor-error");
    await expect(error).toBeVisible();
    await expect(error).toContainText(`Row ${row.name}`);
    await expect(page.getByTestId("notice-error")).toContainText("would stand outside the hall");
    // The saved state is shown again: the row stopped at the wall.
    expect((await layout(page.request, hall.id)).rows[0]!.x_m).toBeCloseTo(0);
    await page.screenshot({ path: `${ARTIFACTS}/editor-api-error.png` });
  });

  test("the help overlay lists the shortcuts", async ({ page }) => {
    await login(page);
    await page.keyboard.press("Shift+?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Undo");
    await expect(dialog).toContainText("Ctrl + Shift + Z");
    await page.screenshot({ path: `${ARTIFACTS}/editor-help.png` });
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  });
});
