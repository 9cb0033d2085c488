/**
 * Regression tests for the editor defects a new user found (issue 15, item 6), each used as a person
 * would: drawing with D, clicking, dragging, P and Ctrl+D, reading the messages and the status bar.
 */
import { expect, test, type APIRequestContext, type Page, type Request } from "@playwright/test";
import { ARTIFACTS, dragOnFloor, floorPoint, freshHall, layout, login, openHall, saved, view, type HallInfo } from "./helpers";

interface RackCentre {
  rowId: string;
  rowName: string;
  x: number;
  y: number;
}

/** Centre (m) of every rack in the editor's store, with its row: what a person would click. */
async function rackCentres(page: Page): Promise<RackCentre[]> {
  return page.evaluate(() => {
    const recs = Object.values(window.__loopline!.store.records) as unknown as Array<Record<string, unknown>>;
    const rows = new Map(recs.filter((r) => r.typeName === "row").map((r) => [r.id as string, r]));
    return recs
      .filter((r) => r.typeName === "rack")
      .map((r) => {
        const row = rows.get(r.rowId as string)!;
        const d = row.direction as number;
        const u = d === 0 ? [1, 0] : d === 90 ? [0, 1] : d === 180 ? [-1, 0] : [0, -1];
        const n = [-u[1]!, u[0]!];
        const along = (r.positionMm as number) + 300;
        return {
          rowId: row.id as string,
          rowName: row.name as string,
          x: ((row.xMm as number) + u[0]! * along + n[0]! * 600) / 1000,
          y: ((row.yMm as number) + u[1]! * along + n[1]! * 600) / 1000,
        };
      });
  });
}

async function selection(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__loopline!.session.getState().selection);
}

/** Click the top of a rack (2 m up) and return what got selected. */
async function clickRack(page: Page, c: RackCentre): Promise<string[]> {
  await page.keyboard.press("Escape");
  const p = await floorPoint(page, c.x, c.y, 2.0);
  await page.mouse.click(p.x, p.y);
  return selection(page);
}

/** Layout writes the page sends (POST/PATCH/DELETE of rows and racks). */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on("request", (r: Request) => {
    if (r.method() !== "GET" && /\/api\/v1\/(halls\/\d+\/rows|rows|racks)/.test(r.url())) writes.push(`${r.method()} ${r.url()}`);
  });
  return writes;
}

/** The rack and model ids a row body needs, read from a layout the editor wrote. */
async function catalogIds(request: APIRequestContext) {
  const models = (await (await request.get("/api/v1/catalog/switch-models?limit=200")).json()).items as { id: number; name: string }[];
  const racks = (await (await request.get("/api/v1/catalog/rack-types?limit=200")).json()).items as { id: number; name: string }[];
  const servers = (await (await request.get("/api/v1/catalog/server-models?limit=200")).json()).items as { id: number; name: string }[];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  return {
    rack: id(racks, "42U 600x1200"),
    server: id(servers, "2x25G server"),
    tor: id(models, "48x25G+8x100G ToR"),
    spine: id(models, "64x100G spine"),
  };
}

async function postRow(request: APIRequestContext, hall: HallInfo, body: Record<string, unknown>): Promise<void> {
  const res = await request.post(`/api/v1/halls/${hall.id}/rows`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
}

test.describe("editor defects", () => {
  test("rows drawn with D select by clicking, in every direction, in the same tab and after a reload", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "pick", 20, 20);
    await openHall(page, hall);
    await view(page, "plan");
    // Four rows of ten racks, one per drawing direction (40 racks: the rack mesh grows past 16 and 32).
    const drags: Array<[[number, number], [number, number]]> = [
      [[2.5, 2.5], [8.5, 2.5]], // +x
      [[17.5, 5.5], [11.5, 5.5]], // -x
      [[3.5, 9.5], [3.5, 15.5]], // +y
      [[9.5, 17.5], [9.5, 11.5]], // -y
    ];
    for (const [a, b] of drags) {
      await page.keyboard.press("d");
      await dragOnFloor(page, a, b);
      await saved(page);
      const mine = (await rackCentres(page)).filter((c, _, all) => c.rowId === all[all.length - 1]!.rowId);
      for (const c of [mine[0]!, mine[mine.length - 1]!]) expect(await clickRack(page, c)).toEqual([c.rowId]);
    }
    const doc = await layout(page.request, hall.id);
    expect(doc.rows.map((r) => [r.name, r.direction, r.racks.length])).toEqual([
      ["R01", 0, 10],
      ["R02", 180, 10],
      ["R03", 90, 10],
      ["R04", 270, 10],
    ]);

    await page.reload();
    await page.waitForFunction(() => Boolean(window.__loopline?.project && window.__loopline?.sync));
    for (const v of ["3d", "plan"] as const) {
      await page.keyboard.press("Escape");
      await view(page, v);
      const centres = await rackCentres(page);
      expect(centres).toHaveLength(40);
      const missed: string[] = [];
      for (const c of centres.filter((_, i) => i % 4 === 0)) {
        const sel = await clickRack(page, c);
        if (sel[0] !== c.rowId) missed.push(`${v}: ${c.rowName} at ${c.x},${c.y} selected ${JSON.stringify(sel)}`);
      }
      expect(missed).toEqual([]);
    }
  });

  test("in 3D a left drag orbits, also from a rack; only a selected row is dragged", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "orbit");
    await openHall(page, hall);
    const writes = recordWrites(page);
    await page.keyboard.press("p");
    await saved(page);
    const before = (await layout(page.request, hall.id)).rows[1]!;
    await page.keyboard.press("Escape");
    await view(page, "3d");
    const written = writes.length;
    // A drag that starts on the back face of R02 (not selected): the camera orbits, nothing moves.
    const y = before.y_m + 1.2 + 0.01;
    const a = await floorPoint(page, before.x_m + 3.3, y, 0.15);
    const probe = await floorPoint(page, 0, 0);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(a.x + 20 * i, a.y);
    await page.mouse.up();
    await saved(page);
    const probeAfter = await floorPoint(page, 0, 0);
    expect(Math.hypot(probeAfter.x - probe.x, probeAfter.y - probe.y)).toBeGreaterThan(20); // the view turned
    expect(writes.length).toBe(written); // nothing was sent
    expect(await selection(page)).toEqual([]); // an orbit is not a click
    expect((await layout(page.request, hall.id)).rows[1]).toEqual(before);

    // Click it first (selects the row), then drag it: it moves, snapped to the tiles.
    await view(page, "plan");
    await view(page, "3d");
    const g = await floorPoint(page, before.x_m + 3.3, y, 0.15);
    const h = await floorPoint(page, before.x_m + 4.5, y, 0.15);
    await page.mouse.click(g.x, g.y);
    expect(await selection(page)).toEqual([expect.stringMatching(/^row:/)]);
    await page.mouse.move(g.x, g.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(g.x + ((h.x - g.x) * i) / 10, g.y + ((h.y - g.y) * i) / 10);
    await page.mouse.up();
    await saved(page);
    const after = (await layout(page.request, hall.id)).rows[1]!;
    expect(after.x_m).toBeCloseTo(before.x_m + 1.2);
    expect(after.y_m).toBeCloseTo(before.y_m);

    // The help overlay says how it works.
    await page.keyboard.press("Shift+?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toContainText("3D view: orbit, wherever the drag starts");
    await expect(help).toContainText("3D view: move the selected row (click it first, then drag it)");
    await page.keyboard.press("Escape");
  });

  test("P and Ctrl+D find free floor keeping the aisles, or say there is none, without a refused request", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "free", 24, 8);
    await openHall(page, hall);
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 422) refused.push(r.url());
    });
    await page.keyboard.press("p");
    await saved(page);
    // Below the first pair is off the 8 m floor: the second pair goes to the nearest free floor, 0.9 m
    // clear of the first pair's end (x 7.2 + 0.9 -> 8.4 m on the tile grid), as low as the floor allows.
    await page.keyboard.press("p");
    await saved(page);
    let doc = await layout(page.request, hall.id);
    expect(doc.rows.map((r) => [r.name, r.x_m, r.y_m])).toEqual([
      ["R01", 1.2, 1.2],
      ["R02", 1.2, 3.6],
      ["R03", 8.4, 4.2],
      ["R04", 8.4, 6.6],
    ]);

    // Ctrl+D on R01: both of its sides are taken or off the floor; the copy goes to free floor.
    await page.keyboard.press("Escape");
    await view(page, "plan");
    const r01 = (await rackCentres(page)).find((c) => c.rowName === "R01")!;
    expect(await clickRack(page, r01)).toEqual([r01.rowId]);
    await page.keyboard.press("Control+d");
    await saved(page);
    doc = await layout(page.request, hall.id);
    expect(doc.rows).toHaveLength(5);

    // Fill the hall: P until there is no room left; the browser says so and sends nothing.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("p");
      await saved(page);
    }
    await expect(page.getByTestId("notice-error").last()).toContainText("There is no free floor for a facing pair of 10 racks");
    expect(refused).toEqual([]);
    // Every row inside the hall, nothing overlapping, no aisle below its minimum: the server agrees.
    const validation = await (await page.request.get(`/api/v1/halls/${hall.id}/validation`)).json();
    expect(validation.errors).toEqual([]);
    expect(validation.warnings.filter((w: { code: string }) => w.code === "aisle_too_narrow")).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/editor-free-floor.png` });
  });

  test("drawing and moving are checked in the browser: the preview turns red with the reason", async ({ page }) => {
    await login(page);
    // 7.8 m wide: room for a facing pair (x 1.2..7.2 m) and little more.
    const hall = await freshHall(page.request, "live", 7.8, 9);
    await openHall(page, hall);
    await view(page, "plan"); // frames the whole (empty) hall
    await page.keyboard.press("p");
    await saved(page);
    await page.keyboard.press("Escape");
    const writes = recordWrites(page);

    // Drawing through the east wall.
    const readout = page.getByTestId("draw-readout");
    await page.keyboard.press("d");
    await dragOnFloor(page, [2.2, 5.5], [8.2, 5.5], async () => {
      await expect(readout).toHaveAttribute("data-state", "blocked");
      await expect(readout).toContainText("10 racks · 6.00 m × 1.20 m — Row R03 would stand outside the hall");
      await expect(readout).toContainText("past the wall at x = 7.80 m");
      await page.screenshot({ path: `${ARTIFACTS}/editor-draw-blocked.png` });
    });
    await expect(readout).toBeHidden();
    await expect(page.getByTestId("floor-error")).toContainText("Row R03 would stand outside the hall");

    // Drawing over R01.
    await page.keyboard.press("d");
    await dragOnFloor(page, [2.5, 1.5], [6.1, 1.5], async () => {
      await expect(readout).toHaveAttribute("data-state", "blocked");
      await expect(readout).toContainText("Row R03 would overlap row R01");
    });
    // A row on free floor is fine while drawing.
    await page.keyboard.press("d");
    await dragOnFloor(page, [1.3, 5.5], [4.9, 5.5], async () => {
      await expect(readout).toHaveAttribute("data-state", "ok");
      await expect(readout).toHaveText("6 racks · 3.60 m × 1.20 m");
    });
    await saved(page);
    expect(writes.filter((w) => w.startsWith("POST"))).toHaveLength(1);

    // Moving R02 onto R01: red while dragging, refused on release, never sent.
    const sent = writes.length;
    const r02 = (await rackCentres(page)).find((c) => c.rowName === "R02")!;
    await dragOnFloor(page, [r02.x, r02.y], [r02.x, r02.y - 1.8], async () => {
      await expect(readout).toHaveAttribute("data-state", "blocked");
      await expect(readout).toContainText("Row R02 would overlap row R01");
      await page.screenshot({ path: `${ARTIFACTS}/editor-move-blocked.png` });
    });
    await saved(page);
    expect(writes.length).toBe(sent);
    await expect(readout).toBeHidden();
    await expect(page.getByTestId("floor-error")).toContainText("Row R02 would overlap row R01");
    const doc = await layout(page.request, hall.id);
    expect(doc.rows.find((r) => r.name === "R02")!.y_m).toBeCloseTo(3.6);
  });

  test("a refusal by the server is one short sentence next to the row; the rollback leaves nothing behind", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "refusal");
    await openHall(page, hall);
    await page.keyboard.press("p");
    await saved(page);
    // Someone else lays R09 at y 8.4 m (this tab does not know it yet).
    const ids = await catalogIds(page.request);
    const lr = { servers: 15, server_model_id: ids.server, ports_used: 2, tor_model_id: ids.tor };
    await postRow(page.request, hall, {
      name: "R09",
      x_m: 1.2,
      y_m: 8.4,
      direction: 0,
      front: "left",
      racks: Array.from({ length: 10 }, (_, i) => ({ name: `R09-${i + 1}`, rack_type_id: ids.rack, position_m: i * 0.6, role: "compute", port_face: "front", logical_racks: [lr, lr] })),
    });
    // This tab moves R01 onto it: fine as far as it knows, refused by the server (ten racks overlap).
    await view(page, "plan");
    await page.keyboard.press("Escape");
    const r01 = (await rackCentres(page)).find((c) => c.rowName === "R01")!;
    await dragOnFloor(page, [r01.x, r01.y], [r01.x, r01.y + 7.2]);
    await saved(page);
    const notice = page.getByTestId("notice-error").last();
    await expect(notice).toContainText(/^Your change to row R01 was refused: Rack R0\d-\d+ of row R0\d overlaps rack R0\d-\d+ of row R0\d\./);
    await expect(notice).toContainText("(9 more problems like it.)");
    const text = (await notice.textContent()) ?? "";
    expect(text).not.toMatch(/position_m|positionMm|rows\[|'/);
    expect(text.length).toBeLessThan(200);
    const floorError = page.getByTestId("floor-error");
    await expect(floorError).toHaveCount(1);
    await expect(floorError).not.toContainText("positionMm");
    // Rolled back: R01 where it was, R09 now shown, no preview left over.
    await expect
      .poll(() => page.evaluate(() => Object.values(window.__loopline!.store.records).filter((r) => r.typeName === "row").length))
      .toBe(3);
    await expect(page.getByTestId("draw-readout")).toBeHidden();
    expect((await layout(page.request, hall.id)).rows.find((r) => r.name === "R01")!.y_m).toBeCloseTo(1.2);
    await page.screenshot({ path: `${ARTIFACTS}/editor-refused.png` });

    // The elevation view: no floor label over it, and the notice does not cover its header.
    const r = (await rackCentres(page)).find((c) => c.rowName === "R01")!;
    await clickRack(page, r);
    await page.keyboard.press("Escape");
    await dragOnFloor(page, [r.x, r.y], [r.x, r.y + 7.2]); // refused again, by the browser this time (it knows R09)
    await expect(page.getByTestId("floor-error")).toBeVisible();
    await expect(page.getByTestId("notice-error").last()).toContainText("Row R01 would overlap row R09");
    await page.keyboard.press("3");
    await expect(page.getByTestId("elevation")).toBeVisible();
    await expect(page.getByTestId("floor-error")).toHaveCount(0);
    await expect(page.locator(".floor-label:visible")).toHaveCount(0);
    const head = await page.locator(".elevation-head").boundingBox();
    const notices = await page.locator(".notices").boundingBox();
    expect(head && notices).toBeTruthy();
    const overlap = head!.x < notices!.x + notices!.width && notices!.x < head!.x + head!.width && head!.y < notices!.y + notices!.height && notices!.y < head!.y + head!.height;
    expect(overlap).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/editor-elevation-notice.png` });
  });

  test("the status bar reports spine port exhaustion and oversubscription before Generate, as rows are drawn", async ({ page }) => {
    await login(page);
    const hall = await freshHall(page.request, "fabric", 20, 20);
    // A network rack with four 64-port spines (256 ports), by the east wall.
    const ids = await catalogIds(page.request);
    await postRow(page.request, hall, {
      name: "N01",
      x_m: 18.6,
      y_m: 1.2,
      direction: 0,
      front: "left",
      racks: [
        {
          name: "N01-01",
          rack_type_id: ids.rack,
          position_m: 0,
          role: "network",
          port_face: "front",
          logical_racks: [],
          fabric_switches: [1, 2, 3, 4].map((i) => ({ name: `SP${i}`, role: "spine", switch_model_id: ids.spine, u: 2 * i - 1 })),
        },
      ],
    });
    await openHall(page, hall);
    await page.keyboard.press("p"); // 20 racks x 2 logical racks = 40 ToRs x 4 uplinks = 160 links, 40 per spine
    await saved(page);
    const bar = page.locator("footer.statusbar");
    await expect(bar.getByTestId("oversubscription")).toHaveText("Oversubscription ToR 1.88:1");
    await expect(bar.getByTestId("fabric-warning")).toHaveCount(0);

    // Two more rows of ten, drawn: 80 ToRs x 4 = 320 links over 4 spines, 80 each, on 64 ports.
    await page.keyboard.press("Escape");
    await view(page, "plan");
    for (const y of [9.3, 11.7]) {
      await page.keyboard.press("d");
      await page.getByTestId("draw-front").selectOption(y < 10 ? "left" : "right");
      await dragOnFloor(page, [1.3, y], [7.1, y]);
      await saved(page);
    }
    const warning = bar.getByTestId("fabric-warning");
    await expect(warning).toHaveText("⚠ Spines short of ports: 320 needed, 256 available (SP1 needs 80 of 64): wiring will fail");
    await expect(warning).toHaveAttribute("data-layer", "spine");
    await page.screenshot({ path: `${ARTIFACTS}/editor-fabric-ports.png` });
    // The API says the same.
    const v = await (await page.request.get(`/api/v1/halls/${hall.id}/validation`)).json();
    expect(v.fabric_ports[1]).toMatchObject({ layer: "spine", ports_needed: 320, ports_available: 256, busiest_needed: 80, short: true });

    // Undo one row: 60 ToRs x 4 = 240 of 256, 60 per spine: the warning goes.
    await page.keyboard.press("Control+z");
    await saved(page);
    await expect(warning).toHaveCount(0);
  });
});
