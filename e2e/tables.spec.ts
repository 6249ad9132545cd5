import { expect, test, type Locator, type Page } from "@playwright/test";
import { demoProject } from "./state";

// The tables of the run's demo project: sorting by header (a link: mouse or keyboard, aria-sort,
// the sort in the URL), the tools table's change against the previous period, rows linking to
// their calls and errors, one range control, and the call page's steps and way back to its list.
test.describe.configure({ mode: "serial" });

let page: Page;
let slug: string;
/** TABLE_SHOTS=/tmp/shots saves screenshots at 1440×900 and 390×844. */
const shotsDir = process.env.TABLE_SHOTS;

test.beforeAll(async ({ browser }) => {
  slug = demoProject().slug;
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

/** A rate cell as a number: "–" is none, "<0.1%" and ">99.9%" count as their bound (contracts/format-number.ts). */
const percent = (text: string) => (text.trim() === "–" ? null : Number(text.replace(/[%<>,]/g, "")));
/** The text of column `n` (0-based) of each row. */
const column = (rows: Locator, n: number) => rows.evaluateAll((trs, i) => trs.map((tr) => (tr.children[i] as HTMLElement).innerText.trim()), n);
const descending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);
const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

test("the tools table sorts by any column header, by mouse or keyboard, with the sort in the URL and aria-sort", async () => {
  await page.goto(`/p/${slug}/tools?range=30d`);
  const table = page.getByRole("table", { name: "Tools", exact: true });
  const rows = table.locator('[data-testid="tool-row"]').filter({ hasNot: page.locator("td[colspan]") });
  // by calls, largest first, until a header says otherwise
  await expect(table.getByRole("columnheader", { name: /^Calls/ })).toHaveAttribute("aria-sort", "descending");
  const calls = (await column(rows, 1)).map((c) => Number(c.replace(/,/g, "")));
  expect(descending(calls)).toBe(true);

  await table.getByTestId("sort-rate").click();
  await expect(page).toHaveURL(/[?&]sort=rate&dir=desc/);
  await expect(page).toHaveURL(/[?&]range=30d/);
  const rateHeader = table.getByRole("columnheader", { name: /^Invalid rate/ });
  await expect(rateHeader).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: /^Calls/ })).not.toHaveAttribute("aria-sort", /.+/);
  expect(descending((await column(rows, 2)).map(percent).filter((r): r is number => r !== null))).toBe(true);
  await table.getByTestId("sort-rate").click();
  await expect(page).toHaveURL(/[?&]sort=rate&dir=asc/);
  await expect(rateHeader).toHaveAttribute("aria-sort", "ascending");
  expect(ascending((await column(rows, 2)).map(percent).filter((r): r is number => r !== null))).toBe(true);

  // keyboard: the header is a link
  await table.getByTestId("sort-tool").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=tool&dir=asc/);
  await expect(table.getByRole("columnheader", { name: /^Tool(?! error)/ })).toHaveAttribute("aria-sort", "ascending");
  const names = await column(rows, 0);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { numeric: true, sensitivity: "base" })));
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/tables-tools.png`, fullPage: true });
});

test("the tools table shows each tool's invalid rate change against the previous period, the tool page's own figure", async () => {
  await page.goto(`/p/${slug}/tools?range=7d`);
  const table = page.getByRole("table", { name: "Tools", exact: true });
  await expect(table.getByRole("columnheader", { name: /^Change/ })).toHaveAttribute("title", /previous 7 days/);
  const changes = await table.getByTestId("tool-change").allTextContents();
  expect(changes.length).toBeGreaterThan(3);
  for (const c of changes) expect(c.trim()).toMatch(/^(?:[▲▼■] (?:[+−]\d+\.\d|±0\.0) pp|new|–)$/);
  const getloan = table.getByRole("row").filter({ has: page.getByRole("link", { name: "getloan", exact: true }) });
  const change = (await getloan.getByTestId("tool-change").textContent())!.trim();
  await page.goto(`/p/${slug}/tools/getloan?range=7d`);
  await expect(page.getByTestId("tile-invalid-rate")).toContainText(`${change} vs previous 7 days`);

  // sorting by change: largest rise first
  await page.goto(`/p/${slug}/tools?range=7d&sort=change&dir=desc`);
  const pp = (await table.getByTestId("tool-change").allTextContents())
    .map((t) => t.match(/([+−±])(\d+\.\d)/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => (m[1] === "−" ? -1 : 1) * Number(m[2]));
  expect(descending(pp)).toBe(true);
});

test("tool and model rows link to their calls and errors with the page's range", async () => {
  await page.goto(`/p/${slug}/tools?range=30d`);
  await page.getByRole("link", { name: "Calls of getloan", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/calls\\?range=30d&tool=getloan$`));
  const tools = page.locator('[data-testid="call-row"]');
  await expect(tools.first()).toBeVisible();
  for (const text of await column(tools, 2)) expect(text.split("\n")[0]).toBe("getloan");

  await page.goto(`/p/${slug}/tools?range=30d`);
  await page.getByRole("link", { name: "Errors of getloan", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/errors\\?range=30d&tool=getloan$`));
  await expect(page.getByTestId("error-row").first()).toBeVisible();

  await page.goto(`/p/${slug}/models?range=30d`);
  await page.getByRole("link", { name: "Invalid of acme-large 2026-11", exact: true }).click();
  await expect(page).toHaveURL(/\/calls\?range=30d&model=acme-large&modelVersion=2026-11&valid=invalid$/);
  await expect(page.locator('[data-testid="call-row"][data-valid="false"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="call-row"]:not([data-valid="false"])')).toHaveCount(0);
});

test("the models table sorts the models by their totals", async () => {
  await page.goto(`/p/${slug}/models?range=30d`);
  const table = page.getByRole("table", { name: "Model versions" });
  await table.getByTestId("sort-rate").click();
  await expect(page).toHaveURL(/[?&]sort=rate&dir=desc/);
  await expect(table.getByRole("columnheader", { name: /^Invalid rate/ })).toHaveAttribute("aria-sort", "descending");
  const rates = (await column(table.getByTestId("model-version-row"), 4)).map(percent).filter((r): r is number => r !== null);
  expect(rates.length).toBeGreaterThan(1);
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/tables-models.png`, fullPage: true });
});

test("the errors page has the same range buttons as the other pages and sorts by recovery", async () => {
  await page.goto(`/p/${slug}/errors?range=30d`);
  await expect(page.getByTestId("range-picker")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Time range" })).toHaveCount(0); // no dropdown
  await page.getByTestId("range-picker").getByRole("link", { name: "7d" }).click();
  await expect(page).toHaveURL(/\/errors\?range=7d$/);

  await page.goto(`/p/${slug}/errors?range=30d`);
  await page.getByTestId("sort-recovered").click();
  await expect(page).toHaveURL(/[?&]sort=recovered&dir=asc/);
  await expect(page.getByRole("columnheader", { name: /^Recovered/ })).toHaveAttribute("aria-sort", "ascending");
  const rates = (await page.getByTestId("error-row").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-recovery")))).filter((r) => r).map(Number);
  expect(rates.length).toBeGreaterThan(1);
  expect(ascending(rates)).toBe(true);
  // the tool filter keeps the sort
  await page.getByLabel("Tool", { exact: true }).selectOption("getloan");
  await expect(page).toHaveURL(/tool=getloan/);
  await expect(page).toHaveURL(/sort=recovered&dir=asc/);
});

test("the explorer sorts by time either way; a call page steps through its run and leads back to the list", async () => {
  await page.goto(`/p/${slug}/calls?range=30d&tool=getloan&valid=invalid`);
  const header = page.getByRole("columnheader", { name: /^Time/ });
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await page.getByTestId("sort-time").click();
  await expect(page).toHaveURL(/[?&]order=oldest/);
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  const times = await page.locator('[data-testid="call-row"] td:first-child').allInnerTexts();
  expect(times.length).toBeGreaterThan(1);
  expect(times).toEqual([...times].sort());
  await expect(page.getByTestId("result-summary")).toContainText("Oldest calls");

  // an invalid call the model corrected: its run has a next step
  const first = page
    .getByTestId("call-row")
    .filter({ has: page.getByTestId("corrected-link") })
    .first();
  const id = (await first.getAttribute("data-call-id"))!;
  await first.locator("td").first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/calls/${encodeURIComponent(id)}\\?list=`));
  const steps = page.getByRole("navigation", { name: "Steps of this run" });
  await expect(steps.getByText("← Previous step")).toBeVisible();
  await expect(steps.getByText("Next step →")).toBeVisible();
  await expect(page.getByText("Next call →")).toHaveCount(0);
  // a step keeps the way back
  await steps.getByRole("link", { name: "Next step →" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/calls/${encodeURIComponent(id)}\\?`));
  await expect(page).toHaveURL(/\?list=/);
  await page.getByTestId("back-to-list").click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/calls\\?range=30d&tool=getloan&valid=invalid&order=oldest$`));
  await expect(page.getByTestId("result-summary")).toContainText("Oldest calls");
});

test("look: the tools table and the tool page at 1440×900 and 390×844", async () => {
  test.setTimeout(120_000); // six page loads on a shared machine
  for (const [name, viewport] of [
    ["desktop", { width: 1440, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/p/${slug}/tools?range=30d`);
    await expect(page.getByRole("table", { name: "Tools", exact: true })).toBeVisible();
    if (shotsDir) await page.screenshot({ path: `${shotsDir}/look-tools-${name}.png` });
    await page.goto(`/p/${slug}/tools/getloan?range=30d#patterns`);
    await expect(page.getByTestId("failure-pattern").first()).toBeVisible();
    if (shotsDir) await page.screenshot({ path: `${shotsDir}/look-tool-patterns-${name}.png` });
    await page.goto(`/p/${slug}/tools/getloan?range=30d`);
    await expect(page.getByTestId("tile-calls")).toBeVisible();
    if (shotsDir) await page.screenshot({ path: `${shotsDir}/look-tool-overview-${name}.png` });
  }
});
