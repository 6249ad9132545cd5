import { expect, test, type Page } from "@playwright/test";
import { demoProject } from "./state";

// The tool page on the run's demo project (e2e/shared.setup.ts): its sections as linkable tabs,
// failure patterns with one definition of "recovered", suggestions with their diffs and without
// placeholder text, the verdict on the demo's schema change and which windows it used, and a dry
// run from the browser with its error states. Nothing is written: a dry run only reads.
test.describe.configure({ mode: "serial" });

let page: Page;
let slug: string;
/** DOCTOR_SHOTS=/tmp/shots saves screenshots. */
const shotsDir = process.env.DOCTOR_SHOTS;

test.beforeAll(async ({ browser }) => {
  slug = demoProject().slug;
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

const sections = () => page.getByRole("navigation", { name: "Sections of this tool page" });
const section = (id: string) => page.locator(`section#${id}`);

test("the tool page is in sections, each a tab with its own link, and the back button returns to the last one", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d`);
  const tabs = sections().getByRole("link");
  await expect(tabs).toHaveText([/^Overview/, /^Failure patterns and suggestions/, /^Dry run/, /^Versions/, /^Schema/]);
  // The overview first, the others hidden
  await expect(page.getByTestId("tile-calls")).toBeVisible();
  await expect(section("schema")).toBeHidden();
  await expect(tabs.first()).toHaveAttribute("aria-current", "true");

  // A link to a section opens on it
  await page.goto(`/p/${slug}/tools/getloan?range=30d#schema`);
  await expect(page.getByTestId("schema-json")).toBeVisible();
  await expect(page.getByTestId("tile-calls")).toBeHidden();
  await expect(sections().getByRole("link", { name: "Schema" })).toHaveAttribute("aria-current", "true");

  // By keyboard: focus a tab, Enter
  await sections()
    .getByRole("link", { name: /^Versions/ })
    .focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#versions$/);
  await expect(page.getByTestId("schema-versions")).toBeVisible();
  await expect(page.getByTestId("schema-json")).toBeHidden();
  await page.goBack();
  await expect(page).toHaveURL(/#schema$/);
  await expect(page.getByTestId("schema-json")).toBeVisible();
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/tool-page-schema.png` });
});

test("failure patterns count 'recovered' as the errors page does, and suggestions hold no placeholder text", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d#patterns`);
  const patterns = page.getByTestId("failure-pattern");
  await expect(patterns.first()).toBeVisible();
  expect(await patterns.count()).toBeGreaterThan(3);
  const number = patterns.filter({ hasText: "a whole number where a string is required" });
  await expect(number).toHaveCount(1);
  await expect(number).toContainText("loannumber");
  await expect(patterns.filter({ hasText: "name get_loan is not a registered tool" })).toHaveCount(1);
  // "Recovered": the next attempt was valid — not simply "was tried again", which was 100 % everywhere
  await expect(page.getByRole("columnheader", { name: "Recovered" })).toBeVisible();
  const recovered = await page.getByTestId("pattern-recovered").allTextContents();
  expect(recovered.some((r) => r.trim() !== "100%")).toBe(true);
  await expect(number.getByTestId("pattern-recovered")).toHaveAttribute("title", /\d+ of \d+ next attempts were valid/);
  // Examples open the call page.
  await number.getByTestId("pattern-example").first().click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/calls/`));
  await page.goto(`/p/${slug}/tools/getloan?range=30d#patterns`);

  const suggestions = page.getByTestId("suggestion");
  await expect(suggestions.first()).toBeVisible();
  await expect(suggestions.first().getByTestId("schema-diff").locator('[aria-label="added"]').first()).toBeVisible();
  for (const text of await suggestions.allTextContents()) expect(text).not.toMatch(/\(what |means to this tool\)/);
  // The schema lint's "describe includehistory" says what is unknown instead of inventing it
  const undescribed = page.locator('[data-testid="suggestion"][data-kind="undescribed_parameter"]').first();
  await expect(undescribed.getByTestId("suggestion-unknown")).toContainText("Toolgate cannot know what includehistory is for");
  // A description-only change cannot change a verdict: no dry run offered for it
  const descriptionOnly = page.locator('[data-testid="suggestion"][data-changes-verdicts="false"]');
  expect(await descriptionOnly.count()).toBeGreaterThan(0);
  await expect(descriptionOnly.getByRole("button", { name: "Try in a dry run" })).toHaveCount(0);
  await expect(page.locator('[data-testid="suggestion"][data-kind="missing_required"]').first()).toContainText("Descriptions only");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/tool-page-patterns.png`, fullPage: true });

  // A tool whose enum values the model keeps missing gets a suggestion from its calls.
  await page.goto(`/p/${slug}/tools/sendmessage?range=30d#patterns`);
  const named = page.locator('[data-testid="suggestion"][data-kind="name_enum_values"]');
  await expect(named).toContainText("channel");
  await expect(named.getByTestId("schema-diff")).toContainText("One of: email, sms.");
});

test("'did the schema change help?' measures inside the selected range, or says it could not", async () => {
  // The demo's schema change (getloan's loan number "digits, as a string") made that mistake rarer.
  await page.goto(`/p/${slug}/tools/getloan?range=30d#versions`);
  const verdict = page.getByTestId("version-verdict");
  await expect(verdict).toHaveAttribute("data-verdict", "better");
  await expect(verdict).toContainText("The change helped");
  await expect(verdict).toHaveAttribute("data-in-range", "true");
  await expect(page.getByTestId("version-windows")).toContainText("inside the selected range");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/tool-page-versions.png` });

  // The last 24 hours hold no schema change: the windows shown are the newest change's, and the page says so
  await page.goto(`/p/${slug}/tools/getloan?range=24h#versions`);
  await expect(verdict).toHaveAttribute("data-in-range", "false");
  await expect(page.getByTestId("version-windows")).toContainText("outside the selected range");
});

test("a dry run shows its progress and the calls it would break; an error never sits on top of an old result", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d#dry-run`);
  const panel = page.getByTestId("dry-run");
  const editor = panel.getByTestId("dry-run-schema");
  const result = panel.getByTestId("dry-run-result");
  const error = panel.getByTestId("dry-run-error");
  await expect(editor).toBeVisible();
  const current = JSON.parse(await editor.inputValue()) as { properties: { loannumber: Record<string, unknown> } };
  current.properties.loannumber.maxLength = 6; // stricter: 7- and 8-digit loan numbers are refused
  await editor.fill(JSON.stringify(current, null, 2));
  await panel.getByTestId("dry-run-start").click();

  await expect(panel.getByTestId("dry-run-progress")).toBeVisible();
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId("dry-run-progress")).toHaveAttribute("aria-valuenow", "100");
  await expect(panel.getByTestId("dry-run-progress-text")).toHaveText(/^([\d,]+) of \1 calls replayed$/);
  const broken = Number((await panel.getByTestId("dry-run-broken").textContent())!.replace(/,/g, ""));
  expect(broken).toBeGreaterThan(0);
  await expect(result).toContainText("breaks calls models already make");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/schema-doctor-dry-run.png`, fullPage: true });

  // Not JSON: the error, and the previous schema's result is gone
  await editor.fill('{"type": "object",');
  await expect(result).toBeHidden(); // an edit already makes the old result someone else's
  await panel.getByTestId("dry-run-start").click();
  await expect(error).toContainText("not valid JSON");
  await expect(result).toBeHidden();

  // A schema Toolgate refuses: an error saying why, not a green "nothing to replay"
  await editor.fill(JSON.stringify({ type: "object", properties: { loannumber: { type: "strnig" } } }));
  await panel.getByTestId("dry-run-start").click();
  await expect(error).toContainText("The dry run did not start");
  await expect(error).toContainText("not a valid JSON Schema");
  await expect(result).toBeHidden();
  await expect(panel).not.toContainText("nothing to replay");
});

test("a suggestion that changes verdicts opens the dry run with its schema", async () => {
  await page.goto(`/p/${slug}/tools/getloan?range=30d#patterns`);
  // the demo's models keep sending arguments getloan lacks: accepting one changes verdicts
  const tryable = page.locator('[data-testid="suggestion"][data-kind="extra_argument"][data-changes-verdicts="true"]');
  await expect(tryable.first()).toBeVisible();
  await tryable.first().getByRole("button", { name: "Try in a dry run" }).click();
  await expect(page).toHaveURL(/#dry-run$/);
  await expect(page.getByTestId("dry-run-schema")).toBeVisible();
  await expect(page.getByTestId("failure-pattern").first()).toBeHidden();
  // its schema is in the editor: the argument it adds is there
  const added = (await tryable.first().getAttribute("data-path"))!.split(".").pop()!;
  await expect(page.getByTestId("dry-run-schema")).toHaveValue(new RegExp(`"${added}": \\{\\}`));
});
