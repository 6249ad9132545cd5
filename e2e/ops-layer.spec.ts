import { expect, test, type Page } from "@playwright/test";
import { createProjectViaUi, unique, createKeyViaUi } from "./helpers";
import { demoProject } from "./state";

// The layer around the drill-downs: a first event that lands where the empty state says, the
// app shell on a phone, the skip link. OPS_SHOTS=/tmp/shots saves screenshots.
const shotsDir = process.env.OPS_SHOTS;
const shot = async (page: Page, name: string) => {
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/ops-${name}.png`, fullPage: true });
};

/** How far the page is wider than the window (0: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

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

test("200-character names never widen a page, at 1440 and at 390 px", async ({ page }) => {
  test.setTimeout(120_000);
  const slug = await createProjectViaUi(page, unique("Long names"));
  const key = await createKeyViaUi(page, slug, "long names");

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
  ];
  const wide: string[] = [];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
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
