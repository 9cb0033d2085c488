import { expect, test } from "@playwright/test";
import { ARTIFACTS, login, nonBackgroundShare } from "./helpers";

test("the app opens and Three.js draws the hall floor", async ({ page }) => {
  // The API sends a Content-Security-Policy: the editor must work under it without a violation.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.locator(".brand").first()).toHaveText("Loopline");
  await login(page);
  await expect(page.locator(".topbar .brand")).toHaveText("Loopline");
  const canvas = page.locator("canvas").first();
  await expect(canvas).toBeVisible();
  // The floor covers a large part of the view; a blank canvas would be all background.
  await expect.poll(() => nonBackgroundShare(page), { timeout: 15_000 }).toBeGreaterThan(0.2);
  await page.screenshot({ path: `${ARTIFACTS}/platform-hall-floor.png` });
  expect(violations).toEqual([]);
});

test("the health endpoint reports every part healthy", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.status).toBe("ok");
  // `lanes`: the process the front relays all but health and the cheap reads to (`make run` starts both).
  expect(Object.keys(body.parts).sort()).toEqual(["broker", "database", "engine", "lanes", "worker"]);
  expect(body.parts.engine.detail).toMatch(/^loopline-sim \d+\.\d+\.\d+/);
});
