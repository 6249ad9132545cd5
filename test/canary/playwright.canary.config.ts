// The browser canary: the suite's own Playwright configuration (Debian's Chromium, the same
// launch options and reporter) pointed at one deliberately failing spec, without the app
// server. .ci/run requires `playwright test --config test/canary/playwright.canary.config.ts`
// to exit non-zero.
import { defineConfig } from "@playwright/test";
import suite from "../../playwright.config";

export default defineConfig({
  ...suite,
  testDir: ".",
  testMatch: /\.canary\.spec\.ts$/,
  outputDir: "../../test-results/canary",
  reporter: "list",
  projects: [{ name: "canary" }],
  webServer: undefined,
});
