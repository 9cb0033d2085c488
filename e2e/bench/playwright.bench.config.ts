import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

/** The rendering benchmark: not part of the pass/fail suite (`npx playwright test -c bench/playwright.bench.config.ts`). */
export default defineConfig({
  ...base,
  testDir: ".",
  testIgnore: [],
  testMatch: ["**/*.bench.ts"],
  timeout: 20 * 60_000,
  reporter: [["list"]],
});
