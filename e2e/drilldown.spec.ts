import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { parseCsv } from "../test/csv";
import { unique, createKeyViaUi } from "./helpers";
import { demoProject } from "./state";

// Drill-down from the lists to one call: calls explorer, CSV export, call detail, run
// timeline, error messages, on the run's demo project (e2e/shared.setup.ts). Only the last
// test adds to it: an API key and two calls under a run id of its own.
test.describe.configure({ mode: "serial" });

let page: Page;
let slug: string;
/** DRILLDOWN_SHOTS=/tmp/shots saves a full-page screenshot of every page. */
const shotsDir = process.env.DRILLDOWN_SHOTS;
const shot = async (name: string) => {
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/drilldown-${name}.png`, fullPage: true });
};

test.beforeAll(async ({ browser }) => {
  slug = demoProject().slug;
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

const rows = () => page.getByTestId("call-row");
/** The filter form applies a choice at once only when hydrated. */
const filtersReady = () => expect(page.locator("form[data-ready]")).toHaveCount(1);

/** Every element (at least one) contains the text: one round trip, retried until true. */
async function expectEvery(cells: Locator, text: string) {
  await expect
    .poll(async () => {
      const texts = await cells.allTextContents();
      return texts.length > 0 ? texts.filter((t) => !t.includes(text)) : ["(no rows)"];
    })
    .toEqual([]);
}

async function downloadCsv(): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^toolgate-${slug}-calls-.*\\.csv$`));
  return parseCsv(await readFile((await download.path())!, "utf8"));
}

test("explorer: filters go into the URL and narrow the results; paging keeps them", async () => {
  await page.goto(`/p/${slug}/calls`);
  await expect(rows().first()).toBeVisible();
  await expect(page.getByTestId("result-summary")).toContainText("Last 7 days");
  await shot("calls");

  await filtersReady();
  await page.getByLabel("Verdict", { exact: true }).selectOption("invalid");
  await expect(page).toHaveURL(/[?&]valid=invalid(&|$)/);
  await expect(rows().first()).toBeVisible();
  await expect(rows().and(page.locator(':not([data-valid="false"])'))).toHaveCount(0);
  await expectEvery(page.getByTestId("verdict"), "invalid");

  await filtersReady();
  await page.getByLabel("Category").selectOption("wrong_type");
  await expect(page).toHaveURL(/category=wrong_type/);
  await expect(page).toHaveURL(/valid=invalid/); // the other filter stays
  await expect(rows().first()).toBeVisible();
  await expectEvery(page.getByTestId("verdict"), "Wrong type");
  await shot("calls-filtered");

  // cursor paging: older calls, same filters
  const newestOnFirstPage = (await rows().first().getAttribute("data-call-id"))!;
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page).toHaveURL(/valid=invalid/);
  await expect(page).toHaveURL(/category=wrong_type/);
  await expect(rows().first()).not.toHaveAttribute("data-call-id", newestOnFirstPage);
  await expectEvery(page.getByTestId("verdict"), "Wrong type");
  await expect(page.getByRole("link", { name: "← Newest" })).toHaveAttribute("href", /^(?!.*cursor=).*category=wrong_type/);

  // an empty result says what to change, and removing the filter brings the calls back
  await filtersReady();
  await page.getByLabel("Run id").fill("no-such-run");
  await page.getByLabel("Run id").press("Enter");
  await expect(page).toHaveURL(/runId=no-such-run/);
  await expect(page.getByTestId("empty-result")).toContainText("search all time");
  await shot("calls-empty");
  await page.getByRole("link", { name: "Remove filter run: no-such-run" }).click();
  await expect(page).not.toHaveURL(/runId=/);
  await expect(rows().first()).toBeVisible();
});

test("CSV export holds exactly the rows of the filtered view", async () => {
  await page.goto(`/p/${slug}/calls?valid=invalid`);
  const runId = (await rows().first().getAttribute("data-run-id"))!;

  await page.goto(`/p/${slug}/calls?range=all&runId=${encodeURIComponent(runId)}`);
  await expect(rows().first()).toBeVisible();
  const ids = await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-call-id")));
  const invalidIds = await page.locator('[data-testid="call-row"][data-valid="false"]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-call-id")));
  expect(invalidIds.length).toBeGreaterThan(0);

  const all = await downloadCsv();
  expect(all[0]).toEqual(expect.arrayContaining(["id", "run_id", "tool", "verdict", "valid", "category", "message", "correction_id"]));
  expect(all).toHaveLength(1 + ids.length);
  const col = (name: string) => all[0]!.indexOf(name);
  expect(all.slice(1).map((r) => r[col("id")])).toEqual(ids); // same rows, same order
  expect(new Set(all.slice(1).map((r) => r[col("run_id")]))).toEqual(new Set([runId]));

  await filtersReady();
  await page.getByLabel("Verdict", { exact: true }).selectOption("invalid");
  await expect(page).toHaveURL(/valid=invalid/);
  await expect(rows()).toHaveCount(invalidIds.length);
  const invalid = await downloadCsv();
  expect(invalid).toHaveLength(1 + invalidIds.length);
  expect(invalid.slice(1).map((r) => r[col("id")])).toEqual(invalidIds);
  expect(invalid.slice(1).every((r) => r[col("valid")] === "false" && r[col("verdict")] === "invalid")).toBe(true);
});

test("an invalid call's detail shows the message it got and the corrected call as a diff", async () => {
  await page.goto(`/p/${slug}/calls?valid=invalid`);
  const row = rows()
    .filter({ has: page.getByTestId("corrected-link") })
    .first();
  const id = (await row.getAttribute("data-call-id"))!;
  const message = (await row.getByTestId("message").getAttribute("title"))!;
  // the explorer's link carries the list it was opened from (?list=…); the call page's own link does not
  const correctionHref = (await row.getByTestId("corrected-link").getAttribute("href"))!.split("?")[0]!;
  await row.locator("td").first().getByRole("link").click();

  // the call page knows the list it came from (its "Back to the list")
  await expect(page).toHaveURL(new RegExp(`/calls/${encodeURIComponent(id)}\\?list=valid%3Dinvalid$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(id);
  await expect(page.getByTestId("returned-message")).toHaveText(message);
  await expect(page.getByRole("region", { name: "Arguments of this call" })).toBeVisible();
  await expect(page.getByTestId("attempts")).toHaveText(/Attempts until this tool call succeeded: \d+|never succeeded in this run/);
  const diff = page.getByTestId("arguments-diff");
  await expect(diff).toBeVisible();
  await expect(diff.getByRole("row").first()).toBeVisible();
  await expect(page.getByTestId("correction-link")).toHaveAttribute("href", correctionHref);
  await shot("call-detail");

  await page.getByTestId("correction-link").click();
  await expect(page).toHaveURL(correctionHref);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(decodeURIComponent(correctionHref.split("/").pop()!));
});

test("the run timeline counts attempts against successful calls and links each invalid call to its correction", async () => {
  await page.goto(`/p/${slug}/calls?valid=invalid`);
  const row = rows()
    .filter({ has: page.getByTestId("corrected-link") })
    .first();
  const runId = (await row.getAttribute("data-run-id"))!;
  await row.getByRole("link", { name: runId }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${encodeURIComponent(runId)}$`));

  const runRows = page.getByTestId("run-row");
  const total = await runRows.count();
  const invalid = await page.locator('[data-testid="run-row"][data-valid="false"]').count();
  expect(invalid).toBeGreaterThan(0);
  await expect(page.getByTestId("run-attempts")).toHaveText(String(total));
  await expect(page.getByTestId("run-successes")).toHaveText(String(total - invalid));
  await expect(page.getByTestId("run-invalid")).toHaveText(String(invalid));
  await expect(page.getByText(`${total - invalid} successful calls took ${total} attempts`)).toBeVisible();
  await expect(page.getByTestId("run-correction").first()).toHaveText(/→ (corrected by|retried at) (step|call)/);
  await shot("run");

  await page.getByTestId("run-correction").first().click();
  await expect(page).toHaveURL(/\/calls\/[^/]+$/);
});

test("error messages: 'Error 422' recovers less often than a message that says what to fix, and links to its calls", async () => {
  await page.goto(`/p/${slug}/errors?range=30d`);
  const templates = page.getByTestId("error-row");
  await expect(templates.first()).toBeVisible();
  const error422 = templates.filter({ hasText: "Error 422" });
  await expect(error422).toHaveCount(1);
  await expect(error422).toContainText("says nothing to fix");
  const rate422 = Number(await error422.getAttribute("data-recovery"));
  const others = (await templates.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-recovery")))).filter((r) => r).map(Number);
  expect(Math.max(...others)).toBeGreaterThan(rate422);
  await expect(page.getByText("Some messages teach the model too little.")).toBeVisible();
  await shot("errors");

  await error422.getByRole("link", { name: /^Calls that got/ }).click();
  await expect(page).toHaveURL(/[?&]q=Error\+422/);
  await expect(page).toHaveURL(/valid=invalid/);
  await expect(rows().first()).toBeVisible();
  await expectEvery(rows().getByTestId("message"), "Error 422");
});

test("ids with URL-special characters open their call and run pages", async () => {
  const key = await createKeyViaUi(page, slug, "drilldown e2e");

  const runId = `run #1/ä ${unique("x")}?&`;
  const failed = `call/1 ?#%25 é-${unique("c")}`;
  const fixed = `${failed}+retry`;
  const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000).toISOString();
  const model = { name: "acme-large", version: "2026-11" };
  const sent = await page.request.post("/api/trpc/ingest.batch", {
    headers: { Authorization: `Bearer ${key}` },
    data: {
      events: [
        { id: failed, runId, step: 0, timestamp: at(0), model, tool: "getloan", arguments: { loannumber: "447" } },
        { id: fixed, runId, step: 1, timestamp: at(5), model, tool: "getloan", arguments: { loannumber: "4471" } },
      ],
    },
  });
  expect(sent.ok()).toBe(true);
  expect((await sent.json()).result.data).toMatchObject({ accepted: 2, rejected: [] });

  await page.goto(`/p/${slug}/calls?range=all&runId=${encodeURIComponent(runId)}`);
  await expect(rows()).toHaveCount(2);
  await page
    .locator(`tr[data-call-id=${JSON.stringify(failed)}]`)
    .locator("td")
    .first()
    .getByRole("link")
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(failed);
  // Toolgate's own verdict against the demo schema: the short loan number is marked
  await expect(page.getByRole("group", { name: "Failing value: loannumber" })).toBeVisible();
  await expect(page.getByTestId("returned-message")).toContainText("loannumber");
  await expect(page.getByTestId("arguments-diff").locator('[data-op="changed"]')).toContainText("4471");
  await expect(page.getByTestId("attempts")).toHaveText("Attempts until this tool call succeeded: 2");

  await page.getByRole("link", { name: runId }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(runId);
  await expect(page.getByTestId("run-attempts")).toHaveText("2");
  await expect(page.getByTestId("run-successes")).toHaveText("1");
  await expect(page.getByTestId("run-correction")).toHaveText("→ corrected by step 1");
});

test("a call with huge, deeply nested arguments renders cut, and its raw JSON downloads whole", async () => {
  const key = await createKeyViaUi(page, slug, "large call e2e");

  let deep: unknown = "bottom";
  for (let i = 0; i < 40; i++) deep = { level: deep };
  const args = { deep, items: Array.from({ length: 3000 }, (_, i) => i), text: "y".repeat(50_000) };
  const id = unique("large-call");
  const sent = await page.request.post("/api/trpc/ingest.batch", {
    headers: { Authorization: `Bearer ${key}` },
    data: {
      events: [
        { id, runId: unique("large-run"), step: 0, timestamp: new Date().toISOString(), model: { name: "acme-large" }, tool: "getloan", arguments: args },
      ],
    },
  });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1 });

  const response = await page.goto(`/p/${slug}/calls/${encodeURIComponent(id)}`);
  expect(response!.status()).toBe(200);
  await expect(page.getByTestId("json-cut")).toBeVisible();
  const arguments_ = page.getByRole("region", { name: "Arguments of this call" });
  await expect(arguments_).toContainText("nested deeper");
  await expect(arguments_).toContainText("… 2,800 more entries");
  await expect(arguments_).toContainText("… 48,000 more characters");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("json-raw-download").click()]);
  const raw = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(raw.id).toBe(id);
  expect(raw.arguments).toEqual(args);
});
