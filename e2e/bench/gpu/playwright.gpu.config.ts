import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

/** Builds the halls the GPU benchmark replays (`halls.setup.ts`); not part of the pass/fail suite or `make bench`. */
export default defineConfig({
  ...base,
  testDir: ".",
  testIgnore: [],
  testMatch: ["halls.setup.ts"],
  timeout: 40 * 60_000,
  reporter: [["list"]],
});
