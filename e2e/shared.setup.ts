import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createProjectViaUi, ensureAdmin, unique } from "./helpers";
import { expectChartData } from "./demo-helpers";
import { saveDemoProject, statePath } from "./state";

// Project "setup" in playwright.config.ts: runs once per run, after the first-run spec and
// before every other spec. Signing in (argon2) and loading ~30,000 demo events are the slow
// parts of the browser tests, so they happen here once and the specs reuse the results.
test.describe.configure({ mode: "serial" });

test("sign in as the e2e admin; the browser tests reuse this session", async ({ page }) => {
  test.setTimeout(120_000); // a sign-in journey, as in accounts.spec.ts
  await ensureAdmin(page);
  const file = statePath("admin.json");
  mkdirSync(path.dirname(file), { recursive: true });
  await page.context().storageState({ path: file });
});

test.describe(() => {
  test.use({ storageState: statePath("admin.json"), viewport: { width: 1360, height: 900 } });

  /** DASHBOARD_SHOTS=/tmp/shots saves a full-page screenshot of the empty overview. */
  const shotsDir = process.env.DASHBOARD_SHOTS;

  test("a new project shows how to send events and offers demo data; loading it fills the overview", async ({ page }) => {
    test.setTimeout(150_000);
    const slug = await createProjectViaUi(page, unique("Demo"));

    await expect(page.getByText("No events yet")).toBeVisible();
    await expect(page.locator("#ingest-example")).toContainText("/api/trpc/ingest.batch");
    await expect(page.locator("canvas")).toHaveCount(0); // an empty state, not blank charts
    if (shotsDir) await page.screenshot({ path: `${shotsDir}/dash-overview-empty.png`, fullPage: true });

    const loaded = page.waitForResponse((r) => r.url().includes("/api/trpc/demo.load"), { timeout: 120_000 });
    await page.getByRole("button", { name: "Load demo data" }).click();
    expect((await loaded).ok()).toBe(true);
    // ~30,000 events through ingestion, then the page refreshes into the dashboards
    await expectChartData(page.getByTestId("rate-chart"), "data-points", 120_000);
    await expect(page.getByText("No events yet")).toHaveCount(0);
    saveDemoProject({ slug });
  });
});
