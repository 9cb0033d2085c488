import { defineConfig } from "@playwright/test";

/**
 * Runs against a stack that is already up (scripts/test_all.py or `make e2e` start it and set
 * LOOPLINE_E2E_URL). The browser is Debian's Chromium: browser downloads are impossible here.
 */
export default defineConfig({
  testDir: "./tests",
  testIgnore: ["**/bench/**"],
  timeout: 60_000,
  workers: 1,
  reporter: [["list"], ["junit", { outputFile: "artifacts/junit.xml" }]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.LOOPLINE_E2E_URL ?? "http://127.0.0.1:8765",
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
      ],
    },
  },
});
