import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureAdmin } from "./helpers";
import { statePath } from "./state";

// Project "setup" in playwright.config.ts: runs once per run, after the first-run spec and
// before every other spec. Signing in (argon2, then the landing page) is done here once and
// the specs start with the saved session.

test("sign in as the e2e admin; the browser tests reuse this session", async ({ page }) => {
  test.setTimeout(120_000); // a sign-in journey, as in accounts.spec.ts
  await ensureAdmin(page);
  const file = statePath("admin.json");
  mkdirSync(path.dirname(file), { recursive: true });
  await page.context().storageState({ path: file });
});
