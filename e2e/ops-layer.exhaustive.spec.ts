import { expect, test, type Page } from "@playwright/test";
import { createProjectViaUi, unique, createKeyViaUi } from "./helpers";
import { demoProject, statePath } from "./state";
import { formatDateTimeZoned, timeZoneCookieValue } from "../isomorphic/time-zone";

// The layer around the drill-downs: a first event that lands where the empty state says, the
// app shell on a phone, the skip link. OPS_SHOTS=/tmp/shots saves screenshots.
const shotsDir = process.env.OPS_SHOTS;
const shot = async (page: Page, name: string) => {
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/ops-${name}.png`, fullPage: true });
};

/** How far the page is wider than its viewport (0 or less: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A query of the tRPC API with the page's session (plain JSON on the wire). */
async function query<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const answer = await page.request.get(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()).result.data as T;
}

test("the empty project's API example, sent as shown, lands in the overview's default range", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("First"));
  const key = await createKeyViaUi(page, slug, "first event");

  await page.goto(`/p/${slug}`);
  await expect(page.getByText("No events yet")).toBeVisible();
  await shot(page, "empty-project");
  const example = (await page.locator("#ingest-example").textContent())!;
  const body = example.slice(example.indexOf("-d '") + 4, example.lastIndexOf("'"));
  const sent = await page.request.post(example.match(/curl -X POST (\S+)/)![1]!, {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: body,
  });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1, rejected: [] });

  await page.reload();
  await expect(page.getByText("No events yet")).toHaveCount(0);
  await expect(page.getByTestId("tile-calls-value")).toHaveText("1");
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("overview, calls and a call fit the width; the menu opens the navigation and Escape closes it", async ({ page }) => {
    const { slug } = demoProject();
    await page.goto(`/p/${slug}`);
    const nav = page.getByRole("navigation", { name: "Project" });
    await expect(nav).toBeHidden();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, "phone-overview");

    await page.getByRole("button", { name: "Menu" }).click();
    await expect(nav).toBeVisible();
    await shot(page, "phone-menu");
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();

    await page.getByRole("button", { name: "Menu" }).click();
    await nav.getByRole("link", { name: "Calls" }).click();
    await expect(page).toHaveURL(new RegExp(`/p/${slug}/calls`));
    await expect(nav).toBeHidden(); // navigating closes the drawer
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    // the filter's buttons keep their words on one line (they once squeezed to a letter a line beside the checkbox)
    for (const name of ["Reset", "Apply"]) {
      const box = (await page.getByRole(name === "Apply" ? "button" : "link", { name, exact: true }).boundingBox())!;
      expect(box.height, name).toBeLessThan(40);
    }

    const row = page.getByTestId("call-row").first();
    await page.goto(`/p/${slug}/calls/${encodeURIComponent((await row.getAttribute("data-call-id"))!)}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, "phone-call");
  });
});

test("the first Tab reaches 'Skip to content', which moves focus past the navigation", async ({ page }) => {
  await page.goto(`/p/${demoProject().slug}`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
});

test("200-character names never widen a page, every table page included, at 1440 and at 390 px", async ({ page }) => {
  test.setTimeout(180_000);
  const slug = await createProjectViaUi(page, unique("Long names"));
  const key = await createKeyViaUi(page, slug, "long names");

  await createKeyViaUi(page, slug, `harness_${"reconciliation_batch_".repeat(4)}`.slice(0, 80)); // the longest key name
  const tool = `lookup_${"customer_account_balance_".repeat(8)}`.slice(0, 200);
  const models = [
    { provider: "acme", name: `acme-${"extended-context-reasoning-".repeat(5)}`.slice(0, 120), version: "2026-11" },
    {
      provider: "aws.bedrock",
      name: "arn:aws:bedrock:eu-central-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
      version: "v1:0",
    },
  ];
  const runId = `run-${"x".repeat(196)}`;
  const at = (s: number) => new Date(Date.now() - 120_000 + s * 1000).toISOString();
  const events = models.flatMap((model, m) => [
    {
      id: `long-${m}-0`,
      runId,
      step: m * 2,
      timestamp: at(m * 2),
      model,
      tool,
      arguments: { q: 1 },
      outcome: { valid: false, category: "wrong_type", message: "q: expected a string" },
    },
    { id: `long-${m}-1`, runId, step: m * 2 + 1, timestamp: at(m * 2 + 1), model, tool, arguments: { q: "1" }, outcome: { valid: true } },
  ]);
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: events.length });

  const base = `/p/${slug}`;
  const paths = [
    base,
    `${base}/tools`,
    `${base}/tools/${encodeURIComponent(tool)}`,
    `${base}/models`,
    `${base}/calls`,
    `${base}/errors`,
    `${base}/calls/long-0-0`,
    `${base}/alerts`,
    `${base}/alerts/rules`,
    `${base}/settings/keys`,
    `${base}/settings/members`,
    `${base}/settings/webhooks`,
  ];
  // Each page loaded once and measured at both widths: the width is a media feature, the page
  // lays itself out again without a reload (the charts resize on their own: poll until they did).
  const wide: string[] = [];
  for (const path of paths) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, null, { timeout: 3_000 }).catch(() => {});
      const excess = await overflow(page);
      if (excess > 0) wide.push(`${path} at ${width} px: ${excess} px too wide`);
    }
  }
  expect(wide, wide.join("\n")).toEqual([]);
});

test("a missing call, run, tool or incident is one not-found page: HTTP 404, inside the project's frame", async ({ page }) => {
  const { slug } = demoProject();
  for (const [path, heading, text] of [
    [`/p/${slug}/calls/no-such%20call`, "Call not found", "no-such call"],
    [`/p/${slug}/runs/no-such-run`, "Run not found", "no-such-run"],
    [`/p/${slug}/tools/no_such_tool`, "Tool not found", "no_such_tool"],
    [`/p/${slug}/alerts/00000000-0000-4000-8000-000000000000`, "Incident not found", "00000000-0000-4000-8000-000000000000"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(text, { exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Project" })).toBeVisible();
  }
});

test("a project with data offers demo data from the switcher: a separate demo project, the first one untouched", async ({ page }) => {
  test.setTimeout(240_000);
  const { slug } = demoProject();
  const calls = page.getByTestId("tile-calls-value");
  await page.goto(`/p/${slug}?range=30d`);
  const before = await calls.textContent();
  expect(Number(before!.replace(/,/g, ""))).toBeGreaterThan(0);

  const loaded = page.waitForResponse((r) => r.url().includes("/api/trpc/demo.openProject"), { timeout: 180_000 });
  await page.locator("#project-switcher").selectOption({ label: "Load demo data…" });
  await expect(page.getByTestId("demo-project-status")).toContainText("Loading demo data");
  expect((await loaded).ok()).toBe(true);
  await expect(page).not.toHaveURL(new RegExp(`/p/${slug}(\\?|$)`), { timeout: 30_000 });
  const demoSlug = new URL(page.url()).pathname.split("/")[2]!;
  await expect(page.locator("#project-switcher")).toHaveValue(demoSlug);
  await expect(page.locator("#project-switcher option:checked")).toHaveText("Demo — loan assistant");
  await expect(page.getByTestId("rate-chart")).toHaveAttribute("data-points", /^[1-9]/);
  await shot(page, "demo-project");

  await page.goto(`/p/${slug}?range=30d`);
  await expect(calls).toHaveText(before!);
});

/** A moment printed in UTC ("15:57 UTC", "15:57:02 UTC"); a day chart may still say its days are UTC days. */
const UTC_TIME = /\d{2}:\d{2}(:\d{2})? UTC/;

test("local time: the call page, the incidents, an incident and its rule show times in the browser's zone", async ({ browser }) => {
  test.setTimeout(90_000);
  const zone = "America/New_York";
  const context = await browser.newContext({ storageState: statePath("admin.json"), timezoneId: zone, viewport: { width: 1440, height: 900 } });
  const base = new URL(test.info().project.use.baseURL!);
  await context.addCookies([{ name: "toolgate-tz", value: timeZoneCookieValue({ mode: "local", zone }), url: base.origin }]);
  const page = await context.newPage();
  const { slug } = demoProject();

  // the explorer already shows local times: the call page shows the same moment the same way
  await page.goto(`/p/${slug}/calls`);
  const row = page.getByTestId("call-row").first();
  const shown = (await row.textContent())!.match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)![0];
  await page.goto(`/p/${slug}/calls/${encodeURIComponent((await row.getAttribute("data-call-id"))!)}`);
  await expect(page.getByRole("main")).toContainText(shown);
  await expect(page.getByRole("main")).not.toContainText(UTC_TIME);

  await page.goto(`/p/${slug}/alerts`);
  if ((await page.getByTestId("incident-row").count()) === 0) {
    await expect(async () => {
      await page.getByRole("button", { name: "Evaluate now" }).click();
      await expect(page.getByTestId("evaluate-result")).toContainText(/rules? evaluated/, { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await page.reload();
  }
  const incidents = await query<{ id: string; firedAt: string; rule: { id: string } }[]>(page, "alerts.incidents", { project: slug });
  const incident = incidents[0]!;
  const fired = formatDateTimeZoned(incident.firedAt, zone); // "2026-12-01 14:05 EST"
  expect(fired).not.toContain("UTC");
  await expect(page.getByTestId("incident-row").first()).toContainText(fired);

  await page.goto(`/p/${slug}/alerts/${incident.id}`);
  await expect(page.getByRole("main")).toContainText(fired);
  await expect(page.getByRole("main")).not.toContainText(UTC_TIME);
  await shot(page, "incident-local-time");

  await page.goto(`/p/${slug}/alerts/rules/${incident.rule.id}`);
  await expect(page.getByRole("main")).toContainText(fired);
  await expect(page.getByRole("main")).not.toContainText(UTC_TIME);
  await context.close();
});

test("the tool page's rate chart: a click opens the explorer for that hour and tool", async ({ page }) => {
  const { slug } = demoProject();
  await page.goto(`/p/${slug}/tools/getloan?range=24h`);
  const chart = page.getByTestId("rate-chart");
  await expect(chart).toHaveAttribute("data-ready", "true");
  await expect(chart).toContainText("Click a point to see its calls");
  const canvas = chart.locator("canvas");
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.9, box.y + box.height * 0.4);
  await expect(page).toHaveURL(/\/calls\?/);
  const params = new URL(page.url()).searchParams;
  expect(params.get("tool")).toBe("getloan");
  expect(Date.parse(params.get("to")!) - Date.parse(params.get("from")!)).toBe(3_600_000);
  await expect(page.getByTestId("call-row").first()).toBeVisible();
  for (const row of await page.getByTestId("call-row").all()) await expect(row).toContainText("getloan");
});

test("the explorer's range is the shared range control, kept beside the filters", async ({ page }) => {
  const { slug } = demoProject();
  await page.goto(`/p/${slug}/calls?tool=getloan`);
  await expect(page.getByRole("combobox", { name: "Time range" })).toHaveCount(0); // no dropdown
  const picker = page.getByTestId("range-picker");
  await expect(picker.getByRole("link")).toHaveText(["24h", "7d", "30d", "90d", "all"]);
  await expect(picker.getByRole("link", { name: "7d" })).toHaveAttribute("aria-current", /.+/);
  await picker.getByRole("link", { name: "30d" }).click();
  await expect(page).toHaveURL(/range=30d/);
  expect(new URL(page.url()).searchParams.get("tool")).toBe("getloan");
  // a filter applied afterwards keeps the range
  await expect(page.getByRole("form", { name: "Filter calls" })).toHaveAttribute("data-ready", "true");
  await page.getByLabel("Verdict", { exact: true }).selectOption("invalid");
  await expect(page).toHaveURL(/valid=invalid/);
  expect(new URL(page.url()).searchParams.get("range")).toBe("30d");
});

test("a tool without a schema says what its calls are; a definition pasted in the browser says so", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Sources"));
  const key = await createKeyViaUi(page, slug, "sources e2e");
  const event = {
    id: "s0",
    runId: "r1",
    step: 0,
    timestamp: new Date(Date.now() - 600_000).toISOString(),
    model: { name: "scripted" },
    tool: "getloan",
    arguments: { loannumber: "4471" },
  };
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events: [event] } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1 });

  await page.goto(`/p/${slug}/tools/getloan#schema`);
  const schema = page.locator("section#schema");
  await expect(schema).toContainText("unchecked");
  await expect(schema).not.toContainText("unknown tool");

  await page.goto(`/p/${slug}/tools`);
  await page
    .getByLabel("Tool definitions (JSON)")
    .fill(JSON.stringify({ name: "getloan", parameters: { type: "object", properties: { loannumber: { type: "string" } } } }));
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page.getByText("Registered getloan.")).toBeVisible();
  await page.goto(`/p/${slug}/tools/getloan#schema`);
  await expect(schema).toContainText("registered in the browser");
});
