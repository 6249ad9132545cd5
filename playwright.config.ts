import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { statePath } from "./e2e/state";

// Playwright's own browser download does not work offline: use Debian's Chromium.
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(`No Chromium at ${chromium}. Install it with \`apt-get install -y chromium\`, or set CHROMIUM_PATH to a Chromium binary.`);
}
// Each concurrent run on this machine (from any checkout) takes a slot: its own port and build folder. Slot 0
// (the usual single run, and CI) uses .next like `npm start`. Workers inherit the env.
if (!process.env.E2E_PORT) {
  const slot = claimSlot();
  process.env.E2E_PORT = String(3100 + slot);
  if (slot > 0) process.env.TOOLGATE_DIST_DIR = `.next-e2e-${slot}`;
}
const port = Number(process.env.E2E_PORT);

function claimSlot(): number {
  for (let slot = 0; slot < 8; slot++) {
    // in the machine's temporary folder, not the checkout: two checkouts must not share a port
    const lock = path.join(os.tmpdir(), `toolgate-e2e-slot-${slot}.lock`);
    try {
      const pid = Number(readFileSync(lock, "utf8"));
      process.kill(pid, 0);
      continue; // held by a live run
    } catch {
      writeFileSync(lock, String(process.pid));
      process.on("exit", () => rmSync(lock, { force: true }));
      return slot;
    }
  }
  throw new Error("All 8 browser-test slots are taken by running Playwright processes.");
}

export default defineConfig({
  testDir: "e2e",
  outputDir: `test-results/slot-${port - 3100}`,
  // Two spec files at a time, each file's tests in order in one worker: the accessibility spec
  // (axe in the browser, CPU-bound) takes about as long as all the others together, so on two
  // cores the two halves run side by side. Specs keep to their own projects or to what no other
  // spec checks on the shared demo project (e2e/state.ts), so their order and overlap do not matter.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ...(process.env.CI ? [] : [["html", { open: "never" }] as const]),
    // npm run test:timing reads each spec's durations from this report
    ...(process.env.TOOLGATE_PLAYWRIGHT_JSON ? [["json", { outputFile: process.env.TOOLGATE_PLAYWRIGHT_JSON }] as const] : []),
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  // One fresh database per run. "first-run" sees it empty; "setup" signs the admin in once and
  // fills one project with demo data through the UI (e2e/shared.setup.ts); the other specs
  // start signed in with that session (tests about signing in use a signed-out browser) and
  // read the shared demo project instead of loading ~30,000 events each. "sweeps" are the
  // *.sweep.spec.ts files that repeat one check over every page and mode (axe on each page, light and
  // dark, desktop and phone); "exhaustive" the *.exhaustive.spec.ts journeys too long for the
  // 6-minute `npm test` (alerts, accounts, the ops layer, the live pages, connect, no JavaScript).
  // `npm run test:exhaustive` runs both, `npm test` runs "chromium" (docs/maintaining.md).
  projects: [
    { name: "first-run", testMatch: /first-run\.spec\.ts$/ },
    { name: "setup", testMatch: /\.setup\.ts$/, dependencies: ["first-run"] },
    {
      name: "chromium",
      testIgnore: [/first-run\.spec\.ts$/, /\.sweep\.spec\.ts$/, /\.exhaustive\.spec\.ts$/],
      dependencies: ["setup"],
      use: { storageState: statePath("admin.json") },
    },
    { name: "sweeps", testMatch: /\.sweep\.spec\.ts$/, dependencies: ["setup"], use: { storageState: statePath("admin.json") } },
    { name: "exhaustive", testMatch: /\.exhaustive\.spec\.ts$/, dependencies: ["setup"], use: { storageState: statePath("admin.json") } },
  ],
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    url: `http://localhost:${port}/api/health`,
    timeout: 600_000, // a production build on a busy 2-core machine
    reuseExistingServer: false,
    stdout: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    env: { E2E_PORT: String(port), TOOLGATE_DIST_DIR: process.env.TOOLGATE_DIST_DIR ?? "" },
  },
});
