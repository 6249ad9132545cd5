import { expect, test, type Browser, type Page } from "@playwright/test";
import { createKeyViaUi, createProjectViaUi, unique } from "./helpers";
import { statePath } from "./state";
import { formatDateTime, zoneName } from "../isomorphic/time-zone";

// Live dashboards on a project of this spec's own: refresh on an interval, the firing banner,
// markers, a chart click into the explorer, drag to zoom, the custom range, UTC or local time and
// the charts' table view. Timers run on Playwright's clock where the test is about time passing.
// LIVE_SHOTS=/tmp/shots saves screenshots at 1440×900 and 390×844.
test.describe.configure({ mode: "serial" });

const shotsDir = process.env.LIVE_SHOTS;
const shot = async (page: Page, name: string) => {
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/live-${name}.png`, fullPage: true });
};

const HOUR = 3_600_000;
let slug: string;
let key: string;
let page: Page;

type Event = Record<string, unknown>;
const event = (id: string, at: number, version: string, valid: boolean): Event => ({
  id,
  runId: `run-${id}`,
  step: 0,
  timestamp: new Date(at).toISOString(),
  model: { provider: "acme", name: "acme-large", version },
  tool: "getloan",
  arguments: { loannumber: "4471" },
  outcome: valid ? { valid: true } : { valid: false, category: "wrong_type", message: "loannumber: expected a string" },
});

async function send(p: Page, events: Event[]) {
  const sent = await p.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: events.length, rejected: [] });
}

/** The canvas of a chart once hydrated (its click and drag handlers live), and where it is. */
async function chartCanvas(p: Page, testId: string) {
  const chart = p.getByTestId(testId);
  await expect(chart).toHaveAttribute("data-ready", "true");
  const canvas = chart.locator("canvas");
  await expect(canvas).toBeVisible();
  await canvas.scrollIntoViewIfNeeded(); // the mouse clicks where the window shows it
  return (await canvas.boundingBox())!;
}

async function newPage(browser: Browser, options: { width?: number; height?: number; timezoneId?: string } = {}) {
  const context = await browser.newContext({
    storageState: statePath("admin.json"),
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    timezoneId: options.timezoneId,
  });
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  page = await newPage(browser);
  slug = await createProjectViaUi(page, unique("Live"));
  key = await createKeyViaUi(page, slug, "live e2e");
  // acme-large 2026-09 mostly valid five hours ago, then 2026-11 half invalid in the last hour:
  // the regression guard fires on the next evaluation
  const now = Date.now();
  const old = Array.from({ length: 120 }, (_, i) => event(`old-${i}`, now - 5 * HOUR + i * 1000, "2026-09", i % 60 !== 0));
  const fresh = Array.from({ length: 120 }, (_, i) => event(`new-${i}`, now - 0.5 * HOUR + i * 1000, "2026-11", i % 2 === 0));
  await send(page, [...old, ...fresh]);
});
test.afterAll(async () => {
  await page.context().close();
});

test("while an incident fires, the overview says so with a link to it, and the charts mark it", async () => {
  await page.goto(`/p/${slug}/alerts`);
  await expect(async () => {
    await page.getByRole("button", { name: "Evaluate now" }).click();
    await expect(page.getByTestId("evaluate-result")).toContainText(/rules? evaluated/, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });

  await page.goto(`/p/${slug}?range=24h`);
  const banner = page.getByRole("region", { name: "Firing incidents" });
  await expect(banner).toContainText("An incident is firing");
  await expect(banner).toContainText("model acme-large 2026-11");
  const markers = page.getByTestId("rate-chart").getByTestId("chart-markers");
  await expect(markers.locator('[data-kind="incident"]')).toContainText("Regression guard: new model or schema version fired");
  await shot(page, "overview-firing");

  await banner.getByRole("link", { name: /Regression guard/ }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts/[0-9a-f-]{36}$`));
});

test("the overview refreshes on its interval without a reload, says when it was updated, and pauses", async ({ browser }) => {
  const live = await newPage(browser);
  await live.clock.install();
  await live.goto(`/p/${slug}?range=24h`);
  const calls = live.getByTestId("tile-calls-value");
  await expect(calls).toHaveText("240");
  const ago = live.getByTestId("updated-ago");
  await expect(ago).toHaveText("Updated just now");
  await live.getByLabel("Refresh every").selectOption("30");
  // a marker on the window: a reload would lose it
  await live.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await send(live, [event(unique("late"), Date.now() - 60_000, "2026-11", true)]);
  await live.clock.fastForward("00:20");
  await expect(ago).toHaveText("Updated 20 s ago");
  await expect(calls).toHaveText("240"); // not yet: the interval is 30 s
  await live.clock.fastForward("00:11");
  await expect(calls).toHaveText("241");
  await expect(ago).toHaveText("Updated just now");
  expect(await live.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // paused: time passes, nothing is fetched
  await live.getByRole("button", { name: "Pause automatic refresh" }).click();
  await send(live, [event(unique("later"), Date.now() - 60_000, "2026-11", true)]);
  await live.clock.fastForward("01:05");
  await expect(ago).toHaveText("Updated 1 min ago");
  await expect(calls).toHaveText("241");
  await live.getByRole("button", { name: "Resume automatic refresh" }).click();
  await live.clock.fastForward("00:31");
  await expect(calls).toHaveText("242");
  await live.context().close();
});

test("clicking a point opens the explorer filtered to that hour and tool", async () => {
  await page.goto(`/p/${slug}?range=24h`);
  const box = await chartCanvas(page, "rate-chart");
  await page.mouse.click(box.x + box.width * 0.95, box.y + box.height * 0.4);
  await expect(page).toHaveURL(/\/calls\?/);
  const query = new URL(page.url()).searchParams;
  expect(query.get("tool")).toBe("getloan");
  expect(Date.parse(query.get("to")!) - Date.parse(query.get("from")!)).toBe(HOUR);
  await expect(page.getByTestId("call-row").first()).toBeVisible();
  for (const row of await page.getByTestId("call-row").all()) await expect(row).toContainText("getloan");
});

test("a bar of the failure categories opens that category's calls", async () => {
  await page.goto(`/p/${slug}?range=24h`);
  const box = await chartCanvas(page, "category-breakdown");
  // one category: its bar starts at the left of the plot and fills most of it
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.45);
  await expect(page).toHaveURL(/\/calls\?.*category=wrong_type/);
  await expect(page.getByTestId("call-row").first()).toHaveAttribute("data-valid", "false");
});

test("dragging across a time chart zooms into that range; its label shows once", async () => {
  await page.goto(`/p/${slug}?range=7d`);
  const box = await chartCanvas(page, "rate-chart");
  const y = box.y + box.height * 0.4;
  await page.mouse.move(box.x + box.width * 0.55, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.75, y, { steps: 5 });
  await expect(page.getByTestId("zoom-selection")).toBeVisible();
  await page.mouse.move(box.x + box.width * 0.97, y, { steps: 5 });
  await page.mouse.up();
  await expect(page).toHaveURL(/[?&]from=.*&to=/);
  const query = new URL(page.url()).searchParams;
  expect(query.get("range")).toBeNull();
  const from = Date.parse(query.get("from")!);
  const to = Date.parse(query.get("to")!);
  // whole UTC days, fewer than the 7 (or 8) of the week
  expect(from % (24 * HOUR)).toBe(0);
  expect(to % (24 * HOUR)).toBe(0);
  expect(to - from).toBeLessThan(7 * 24 * HOUR);
  await expect(page.getByTestId("custom-range").locator("summary")).toHaveAttribute("aria-current", "true");
  const label = `${new Date(from).toISOString().slice(0, 16).replace("T", " ")} – ${new Date(to).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  // once in the page's frame (the first-calls card may name the range in its own sentence)
  await expect(page.getByText(label, { exact: false }).and(page.locator(':not([data-testid="first-calls"] *)'))).toHaveCount(1);
});

test("the date-range picker applies a typed range and refuses an end before the start", async () => {
  await page.goto(`/p/${slug}?range=7d`);
  const picker = page.getByTestId("custom-range");
  await picker.locator("summary").click();
  const day = new Date(Date.now() - 2 * 24 * HOUR).toISOString().slice(0, 10);
  await picker.getByLabel("From (UTC)").fill(`${day}T10:00`);
  await picker.getByLabel("To (UTC)").fill(`${day}T08:00`);
  await picker.getByRole("button", { name: "Apply range" }).click();
  await expect(picker.getByRole("alert")).toHaveText("The start must be before the end.");

  await picker.getByLabel("To (UTC)").fill(`${day}T16:00`);
  await picker.getByRole("button", { name: "Apply range" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${day}T10%3A00%3A00.000Z&to=${day}T16%3A00%3A00.000Z`));
  await expect(page.getByText(`Overview · ${day} 10:00 – ${day} 16:00 UTC`)).toBeVisible();
  // a range in the past has no current hour to speak of
  await expect(page.getByText("the current hour")).toHaveCount(0);
  await picker.locator("summary").click();
  await expect(picker.getByLabel("From (UTC)")).toHaveValue(`${day}T10:00`);
  await page.keyboard.press("Escape");
  await expect(picker).not.toHaveAttribute("open", "");
});

test("every chart shows its data as a table, with links into the explorer", async () => {
  await page.goto(`/p/${slug}?range=24h`);
  const chart = page.getByTestId("rate-chart");
  await chart.getByRole("button", { name: "Show table of invalid rate over time" }).click();
  const table = chart.getByRole("table", { name: "Invalid rate over time" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "getloan" })).toBeVisible();
  await expect(table.getByRole("link").first()).toHaveAttribute("href", /\/calls\?tool=getloan&from=.*&to=/);
  await expect(chart.locator("canvas")).toHaveCount(0);
  await shot(page, "overview-table");
  await chart.getByRole("button", { name: /Show chart/ }).click();
  await expect(chart.locator("canvas")).toBeVisible();

  for (const id of ["category-chart", "category-breakdown"]) {
    const other = page.getByTestId(id);
    await other.getByRole("button", { name: /Show table/ }).click();
    await expect(other.getByRole("table")).toContainText("Wrong type");
  }
});

test("local time: a remembered setting, used by the explorer, chart tables and the range", async ({ browser }) => {
  const zone = "Europe/Berlin";
  const berlin = await newPage(browser, { timezoneId: zone });
  await berlin.goto(`/p/${slug}/calls?range=24h`);
  const first = berlin.getByTestId("call-row").first();
  const timeOf = async () => (await first.textContent())!.match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)![0];
  await expect(berlin.getByRole("columnheader", { name: "Time (UTC)" })).toBeVisible();
  const utc = await timeOf();
  const id = await first.getAttribute("data-call-id");

  const setting = berlin.getByTestId("time-zone-setting");
  await expect(setting.getByRole("button", { name: "UTC" })).toHaveAttribute("aria-pressed", "true");
  await setting.getByRole("button", { name: "Local time" }).click();
  await expect(setting.getByRole("button", { name: "Local time" })).toHaveAttribute("aria-pressed", "true");
  const name = zoneName(zone, Date.now());
  await expect(berlin.getByRole("columnheader", { name: `Time (${name})` })).toBeVisible();
  await expect(first).toHaveAttribute("data-call-id", id!);
  expect(await timeOf()).toBe(formatDateTime(`${utc.replace(" ", "T")}Z`, zone, "second"));

  // kept: other pages render in local time from the server on
  await berlin.goto(`/p/${slug}?range=24h`);
  const chart = berlin.getByTestId("rate-chart");
  await chart.getByRole("button", { name: /Show table/ }).click();
  await expect(chart.getByRole("columnheader").first()).toHaveText(`Hour (${name})`);
  await berlin.goto(`/p/${slug}?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z`);
  await expect(berlin.getByText("Overview · 2026-11-01 01:00 – 2026-11-02 01:00 GMT+1")).toBeVisible();
  await expect(berlin.getByTestId("custom-range").getByLabel("From (GMT+1)", { exact: true })).toHaveValue("2026-11-01T01:00");
  await berlin.context().close();
});

test("the dashboards' headers fit a phone", async ({ browser }) => {
  const phone = await newPage(browser, { width: 390, height: 844 });
  for (const path of ["", "/tools", "/models", "/errors"]) {
    await phone.goto(`/p/${slug}${path}?range=24h`);
    await expect(phone.getByTestId("live-refresh")).toBeVisible();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(phone, `phone${path.replace("/", "-") || "-overview"}`);
  }
  await phone.context().close();
});
