import { expect, test } from "@playwright/test";
import { ADMIN, completeSetup, signOut } from "./helpers";

// Runs first (project "first-run" in playwright.config.ts), on the fresh database of the run.
// A whole sign-in journey (argon2) on the first pages the server renders, on 2-core machines
// that may be busy: the time accounts.spec.ts gives its journeys.
test.describe.configure({ timeout: 120_000 });

test("first run: every page goes to /setup; setup creates the admin and lands on the project", async ({ page, request }) => {
  const status = await request.get("/api/trpc/auth.status");
  const fresh = (await status.json()).result.data.needsSetup as boolean;
  test.info().annotations.push({ type: "database", description: fresh ? "fresh: first run exercised" : "already set up by another spec" });

  if (fresh) {
    for (const path of ["/", "/login", "/login?next=%2Fprojects%2Fnew", "/projects/new", "/account/password", "/p/anything", "/p/anything/settings/keys"]) {
      await page.goto(path);
      await expect(page, `${path} goes to /setup`).toHaveURL(/\/setup$/);
    }
    await completeSetup(page);
    await expect(page.getByRole("heading", { level: 1, name: ADMIN.projectName })).toBeVisible();
    await expect(page.getByText("No events yet")).toBeVisible();
    const origin = new URL(page.url()).origin;
    await expect(page.locator("#ingest-example")).toContainText(`curl -X POST ${origin}/api/trpc/ingest.batch`);
    await expect(page.locator("#ingest-example")).toContainText("Authorization: Bearer <your key>");
    await expect(page.locator("#otlp-example")).toContainText(`OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`);
    await expect(page.locator("#mcp-example")).toContainText(`TOOLGATE_URL=${origin} TOOLGATE_API_KEY=<your key>`);
    await expect(page.getByTestId("signed-in-email")).toHaveText(ADMIN.email);
    await signOut(page);
  }

  // once anyone exists, setup is closed: the page sends to /login, the API refuses
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/login$/);
  const again = await request.post("/api/trpc/auth.setup", {
    data: { email: "late@example.test", password: "another long password", projectName: "Late", projectSlug: "late" },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.message).toContain("already set up");
});
