import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const ARTIFACTS = "artifacts";
export const DEMO = { email: "demo@loopline.local", password: "loopline-demo" };

/** Share of sampled canvas pixels that differ from the top-left (background) pixel. */
export async function nonBackgroundShare(page: Page, selector = "canvas"): Promise<number> {
  return page.evaluate((sel) => {
    const source = document.querySelector(sel) as HTMLCanvasElement | null;
    if (!source) return 0;
    const copy = document.createElement("canvas");
    copy.width = source.width;
    copy.height = source.height;
    const ctx = copy.getContext("2d");
    if (!ctx) return 0;
    ctx.drawImage(source, 0, 0);
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
    const [r0, g0, b0] = [data[0], data[1], data[2]];
    let differing = 0;
    let sampled = 0;
    for (let i = 0; i < data.length; i += 4 * 97) {
      sampled += 1;
      const d = Math.abs(data[i] - r0) + Math.abs(data[i + 1] - g0) + Math.abs(data[i + 2] - b0);
      if (d > 30) differing += 1;
    }
    return differing / Math.max(1, sampled);
  }, selector);
}

/**
 * Log in through the login form (the app asks for it when there is no session). Logged in, `/` is the
 * project list: open the first project's first hall from it, as a person would (a `path` naming a
 * hall opens that one).
 */
export async function login(page: Page, path = "/"): Promise<void> {
  await page.goto(path);
  await page.locator('input[name="email"]').fill(DEMO.email);
  await page.locator('input[name="password"]').fill(DEMO.password);
  await page.getByRole("button", { name: "Log in" }).click();
  if (!/[?&]hall=|\/halls\//.test(path)) {
    await page.getByTestId("project-list").locator("a.project-name").first().click();
    await page.getByTestId("project-page").locator("a.hall-open").first().click();
  }
  await waitForEditor(page);
}

export async function waitForEditor(page: Page): Promise<void> {
  await expect(page.locator("canvas").first()).toBeVisible({ timeout: 20_000 });
  await page.waitForFunction(() => Boolean(window.__loopline?.project && window.__loopline?.sync), undefined, { timeout: 20_000 });
}

export interface HallInfo {
  id: number;
  projectId: number;
}

/** A fresh, empty hall in the demo project, so tests do not see each other's rows. */
export async function freshHall(request: APIRequestContext, name: string, widthM = 20, depthM = 14): Promise<HallInfo> {
  const projects = await (await request.get("/api/v1/projects")).json();
  const projectId: number = projects.items[0].id;
  const res = await request.post(`/api/v1/projects/${projectId}/halls`, {
    data: { name: `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`, width_m: widthM, depth_m: depthM },
  });
  expect(res.status(), await res.text()).toBe(201);
  const hall = await res.json();
  return { id: hall.id, projectId };
}

export async function openHall(page: Page, hall: HallInfo): Promise<void> {
  await page.goto(`/?project=${hall.projectId}&hall=${hall.id}`);
  await waitForEditor(page);
}

/** Switch view with its shortcut and wait until the camera of that view has been framed. */
export async function view(page: Page, which: "3d" | "plan" | "elevation"): Promise<void> {
  await page.keyboard.press(which === "3d" ? "1" : which === "plan" ? "2" : "3");
  await page.waitForFunction((v) => window.__loopline?.viewReady?.startsWith(`${v}:`) ?? false, which);
  // One more frame so the controls have applied the new camera.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Page coordinates of a floor point given in metres. */
export async function floorPoint(page: Page, xM: number, yM: number, zM = 0): Promise<{ x: number; y: number }> {
  return page.evaluate(([x, y, z]) => window.__loopline!.project!(x * 1000, y * 1000, z * 1000), [xM, yM, zM] as const);
}

/** Wait until every edit has been answered by the API. */
export async function saved(page: Page): Promise<void> {
  await page.evaluate(() => (window.__loopline!.sync as { idle: () => Promise<void> }).idle());
}

export async function dragOnFloor(page: Page, from: [number, number], to: [number, number], beforeUp?: () => Promise<void>): Promise<void> {
  const a = await floorPoint(page, ...from);
  const b = await floorPoint(page, ...to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 8, a.y + ((b.y - a.y) * i) / 8);
  if (beforeUp) await beforeUp();
  await page.mouse.up();
}

export async function clickFloor(page: Page, x: number, y: number, z = 0, opts: { shift?: boolean } = {}): Promise<void> {
  const p = await floorPoint(page, x, y, z);
  if (opts.shift) await page.keyboard.down("Shift");
  await page.mouse.click(p.x, p.y);
  if (opts.shift) await page.keyboard.up("Shift");
}

export interface LayoutRow {
  id: number;
  name: string;
  x_m: number;
  y_m: number;
  direction: number;
  front: string;
  version: number;
  racks: { id: number; name: string; version: number; logical_racks: { servers: number; ports_used: number; tor_position: string }[] }[];
}

export async function layout(request: APIRequestContext, hallId: number): Promise<{ rows: LayoutRow[]; aisles: { kind: string; width_m: number; row_a: string; row_b: string }[] }> {
  const res = await request.get(`/api/v1/halls/${hallId}/layout`);
  expect(res.status()).toBe(200);
  return res.json();
}

declare global {
  interface Window {
    __loopline?: {
      render: () => { calls: number; triangles: number; lines: number; frame: number } | null;
      stats: { racks: number; devices: number; cables: number; cableSegments: number; firstRenderMs: number | null; firstHallRenderMs: number | null; lastPickMs: number | null };
      project?: (xMm: number, yMm: number, zMm?: number) => { x: number; y: number };
      sync?: unknown;
      viewReady?: string;
      store: { records: Record<string, { typeName: string; id: string; name: string }> };
      session: { getState: () => { selection: string[]; view: string } };
    };
  }
}
