import { expect, test, type Page } from "@playwright/test";
import { demoProject } from "./state";

// The schema doctor on the tool page, on the run's demo project (e2e/shared.setup.ts): failure
// patterns, suggestions with their diffs, the verdict on the demo's schema change, and a dry
// run from the browser. Nothing is written: a dry run only reads.
test.describe.configure({ mode: "serial" });

let page: Page;
let slug: string;
/** DOCTOR_SHOTS=/tmp/shots saves full-page screenshots. */
const shotsDir = process.env.DOCTOR_SHOTS;

test.beforeAll(async ({ browser }) => {
  slug = demoProject().slug;
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

test("the tool page groups the failures into patterns and suggests schema changes, each with its diff", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d`);
  const patterns = page.getByTestId("failure-pattern");
  await expect(patterns.first()).toBeVisible();
  expect(await patterns.count()).toBeGreaterThan(3);
  const number = patterns.filter({ hasText: "a whole number where a string is required" });
  await expect(number).toHaveCount(1);
  await expect(number).toContainText("loannumber");
  await expect(patterns.filter({ hasText: "name get_loan is not a registered tool" })).toHaveCount(1);
  // Examples open the call page.
  await number.getByTestId("pattern-example").first().click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/calls/`));
  await page.goBack();

  const suggestion = page.getByTestId("suggestion").first();
  await expect(suggestion).toBeVisible();
  const diff = suggestion.getByTestId("schema-diff");
  await expect(diff.locator('[aria-label="added"]').first()).toBeVisible();

  // The demo's schema change (getloan's loan number "digits, as a string") made that mistake rarer.
  const verdict = page.getByTestId("version-verdict");
  await expect(verdict).toHaveAttribute("data-verdict", "better");
  await expect(verdict).toContainText("The change helped");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/schema-doctor-getloan.png`, fullPage: true });

  // A tool whose enum values the model keeps missing gets a suggestion from its calls.
  await page.goto(`/p/${slug}/tools/sendmessage?range=30d`);
  const named = page.locator('[data-testid="suggestion"][data-kind="name_enum_values"]');
  await expect(named).toContainText("channel");
  await expect(named.getByTestId("schema-diff")).toContainText("One of: email, sms.");
});

test("a dry run of a stricter schema shows its progress and the calls it would break", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d`);
  const panel = page.getByTestId("dry-run");
  const editor = panel.getByTestId("dry-run-schema");
  await expect(editor).toBeVisible();
  // A suggestion's schema goes into the editor with one click.
  const suggested = page.locator('[data-testid="suggestion"][data-kind="missing_required"]');
  await suggested.getByRole("button", { name: "Try in a dry run" }).click();
  await expect(editor).toHaveValue(/"description": "Required: /);
  const current = JSON.parse(await editor.inputValue()) as { properties: { loannumber: Record<string, unknown> } };
  current.properties.loannumber.maxLength = 6; // stricter: 7- and 8-digit loan numbers are refused
  await editor.fill(JSON.stringify(current, null, 2));
  await panel.getByTestId("dry-run-start").click();

  await expect(panel.getByTestId("dry-run-progress")).toBeVisible();
  await expect(panel.getByTestId("dry-run-result")).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId("dry-run-progress")).toHaveAttribute("aria-valuenow", "100");
  await expect(panel.getByTestId("dry-run-progress-text")).toHaveText(/^([\d,]+) of \1 calls replayed$/);
  const broken = Number((await panel.getByTestId("dry-run-broken").textContent())!.replace(/,/g, ""));
  expect(broken).toBeGreaterThan(0);
  await expect(panel.getByTestId("dry-run-result")).toContainText("breaks calls models already make");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/schema-doctor-dry-run.png`, fullPage: true });
});
