import { expect, test, type Locator, type Page } from "@playwright/test";
import { ADMIN, createKeyViaUi, createProjectViaUi, unique } from "./helpers";
import { demoProject } from "./state";

// Ops on a phone (issue 34): at 390×844 and 320×640, in the light and the dark scheme, no page is
// wider than the screen, and each list shows what a row is about, its verdict or state and when,
// inside the screen (no sideways scrolling to find them). PHONE_SHOTS=/tmp/phone saves screenshots.
const shotsDir = process.env.PHONE_SHOTS;

/** How far the page is wider than its viewport (0 or less: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Which of these elements are not wholly inside the viewport's width (or not shown at all). */
async function outside(page: Page, what: Record<string, Locator>): Promise<string[]> {
  const width = page.viewportSize()!.width;
  const out: string[] = [];
  for (const [name, locator] of Object.entries(what)) {
    const box = await locator.boundingBox({ timeout: 5_000 }).catch(() => null);
    if (!box) out.push(`${name}: not shown`);
    else if (box.x < 0 || box.x + box.width > width + 0.5 || box.width < 1)
      out.push(`${name}: x ${Math.round(box.x)}–${Math.round(box.x + box.width)} of ${width}`);
  }
  return out;
}

/** A tRPC mutation with the page's session, sent as the app's own pages send it. */
async function mutate<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const origin = new URL(page.url()).origin;
  const answer = await page.request.post(`/api/trpc/${procedure}`, { data: input, headers: { Origin: origin, "Content-Type": "application/json" } });
  expect(answer.ok(), `${procedure}: ${await answer.text()}`).toBe(true);
  return (await answer.json()).result.data as T;
}

/** A project whose every name is as long as the app allows (200 characters where it can), with an incident. */
async function longNamesProject(page: Page) {
  const slug = await createProjectViaUi(page, unique("Phone long names"));
  const key = await createKeyViaUi(page, slug, `harness_${"reconciliation_batch_".repeat(4)}`.slice(0, 80));
  const tool = `lookup_${"customer_account_balance_".repeat(8)}`.slice(0, 200);
  const model = { provider: "acme", name: `acme-${"extended-context-reasoning-".repeat(8)}`.slice(0, 200), version: "2026-11" };
  const runId = `run-${"x".repeat(196)}`;
  const message = `q: expected a string but the model sent ${"a_very_long_identifier_without_spaces_".repeat(6)}`;
  const at = (s: number) => new Date(Date.now() - 600_000 + s * 1000).toISOString();
  const events = Array.from({ length: 12 }, (_, i) => ({
    id: `phone-${i}`,
    runId,
    step: i,
    timestamp: at(i),
    model,
    tool,
    arguments: { q: i % 2 ? "1" : 1 },
    outcome: i % 2 ? { valid: true } : { valid: false, category: "wrong_type", message },
  }));
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: events.length });
  await mutate(page, "webhooks.create", { project: slug, name: `pager_${"on_call_escalation_".repeat(10)}`.slice(0, 120), url: "http://127.0.0.1:9/hook" });
  const ruleName = `Invalid_rate_of_${"customer_account_balance_lookups_".repeat(7)}`.slice(0, 200); // RULE_NAME_MAX
  await mutate(page, "alerts.createRule", {
    project: slug,
    rule: {
      name: ruleName,
      metric: "invalid_rate",
      scope: { tool },
      condition: "threshold",
      threshold: 0.1,
      windowMinutes: 60,
      minCalls: 1,
    },
  });
  await expect(async () => {
    const report = await mutate<{ fired: number; busy?: boolean }>(page, "alerts.evaluateNow", { project: slug });
    expect(report.busy).toBeUndefined();
  }).toPass({ timeout: 30_000 });
  return { slug, tool, runId, ruleName };
}

/**
 * The chroma of a computed CSS colour on oklch's scale: near 0 for greys (slate's blue tint
 * included), high for indigo or red. oklab/oklch give it directly; CIE lab's chroma is about 370
 * times oklch's (indigo-600: about 89 against 0.24); rgb is rough.
 */
const chroma = (color: string) => {
  const ok = /ok(lab|lch)\(([\d.]+)%? (-?[\d.]+) (-?[\d.]+)/.exec(color);
  if (ok) return ok[1] === "lch" ? Number(ok[3]) : Math.hypot(Number(ok[3]), Number(ok[4]));
  const lab = /lab\(([\d.]+)%? (-?[\d.]+) (-?[\d.]+)/.exec(color);
  if (lab) return Math.hypot(Number(lab[2]), Number(lab[3])) / 370;
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).map(Number) as [number, number, number];
  return (Math.max(r, g, b) - Math.min(r, g, b)) / 255 / 2.5; // about the scale of oklch's chroma
};

const MODES = [
  { width: 390, height: 844, scheme: "light" },
  { width: 390, height: 844, scheme: "dark" },
  { width: 320, height: 640, scheme: "light" },
  { width: 320, height: 640, scheme: "dark" },
] as const;

for (const mode of MODES) {
  test.describe(`at ${mode.width}×${mode.height}, ${mode.scheme}`, () => {
    test.use({ viewport: { width: mode.width, height: mode.height }, colorScheme: mode.scheme });
    const name = `${mode.width}-${mode.scheme}`;
    const shot = async (page: Page, page_: string) => {
      if (shotsDir) await page.screenshot({ path: `${shotsDir}/${page_}-${name}.png`, fullPage: true });
    };

    test("every list of the demo project shows what, verdict or state, and when, inside the screen", async ({ page }) => {
      test.setTimeout(120_000);
      const base = `/p/${demoProject().slug}`;
      const problems: string[] = [];
      const check = async (path: string, essentials: (page: Page) => Record<string, Locator>, shotName: string) => {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const excess = await overflow(page);
        if (excess > 0) problems.push(`${path}: ${excess} px wider than the screen`);
        problems.push(...(await outside(page, essentials(page))).map((p) => `${path}: ${p}`));
        await shot(page, shotName);
      };

      const call = (p: Page) => p.getByTestId("call-row").first();
      await check(
        `${base}/calls`,
        (p) => ({ time: call(p).locator("td").first(), tool: call(p).locator("td").nth(2), verdict: call(p).getByTestId("verdict") }),
        "calls",
      );
      const runId = (await call(page).getAttribute("data-run-id"))!;

      const tool = (p: Page) => p.getByTestId("tool-row").first();
      await check(
        `${base}/tools`,
        (p) => ({ name: tool(p).locator("td").first(), calls: tool(p).locator("td").nth(1), rate: tool(p).locator("td").nth(2) }),
        "tools",
      );
      const toolName = (await tool(page).locator("td").first().locator("a").innerText()).trim();
      await check(`${base}/tools/${encodeURIComponent(toolName)}`, () => ({}), "tool");

      const version = (p: Page) => p.getByTestId("model-version-row").first();
      await check(
        `${base}/models?range=30d`,
        (p) => ({
          model: version(p).locator("td").first(),
          version: version(p).locator("td").nth(1),
          rate: version(p).locator("td").nth(4),
          comparisonVerdict: p.getByTestId("verdict").first(),
        }),
        "models",
      );
      const inflation = (p: Page) => p.getByTestId("inflation-row").first();
      await check(`${base}/inflation`, (p) => ({ name: inflation(p).locator("td").first(), rate: inflation(p).locator("td").nth(2) }), "inflation");
      const error = (p: Page) => p.getByTestId("error-row").first();
      await check(`${base}/errors`, (p) => ({ template: p.getByTestId("template").first(), sent: error(p).locator("td").nth(1) }), "errors");
      const step = (p: Page) => p.getByTestId("run-row").first();
      await check(
        `${base}/runs/${encodeURIComponent(runId)}`,
        (p) => ({ step: step(p).locator("td").first(), tool: step(p).locator("td").nth(2), verdict: step(p).locator("td").nth(3) }),
        "run",
      );
      const member = (p: Page) => p.getByTestId("member-row").first();
      await check(
        `${base}/settings/members`,
        (p) => ({ email: member(p).locator("td").first(), role: member(p).getByRole("combobox"), since: member(p).locator("td").nth(2) }),
        "members",
      );
      await check(`${base}/settings/keys`, () => ({}), "keys");
      await check(`${base}/settings/connect`, () => ({}), "connect");
      await check(`${base}/settings`, () => ({}), "settings");
      await check(`${base}/alerts/rules`, () => ({}), "rules");
      await check(base, () => ({}), "overview");
      expect(problems, problems.join("\n")).toEqual([]);
    });

    test("200-character names and long messages widen no page, and the lists keep their essentials in view", async ({ page }) => {
      test.setTimeout(180_000);
      const { slug, tool, runId, ruleName } = await longNamesProject(page);
      const base = `/p/${slug}`;
      const problems: string[] = [];
      const check = async (path: string, essentials: Record<string, Locator> = {}) => {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const excess = await overflow(page);
        if (excess > 0) problems.push(`${path}: ${excess} px wider than the screen`);
        problems.push(...(await outside(page, essentials)).map((p) => `${path}: ${p}`));
      };
      const incident = page.getByTestId("incident-row").first();
      await check(`${base}/alerts`, {
        title: incident.getByTestId("incident-title"),
        state: incident.getByText("firing").first(),
        when: incident.getByTestId("incident-when"),
      });
      await shot(page, "long-alerts");
      const incidentPath = new URL(await incident.getByTestId("incident-title").evaluate((a) => (a as HTMLAnchorElement).href)).pathname;
      const rule = page.getByTestId("rule-row").first();
      await check(`${base}/alerts/rules`, { name: rule.getByRole("link").first(), edit: rule.getByRole("button", { name: /^Edit/ }) });
      // the whole name is kept: cut on the screen, whole on hover
      await expect(rule.getByRole("link").first().locator(`[title="${ruleName}"]`)).toHaveText(ruleName);
      await shot(page, "long-rules");
      const key = page.getByRole("table", { name: "API keys" }).locator("tbody tr").first();
      await check(`${base}/settings/keys`, { key: key.locator("td").first(), name: key.locator("td").nth(1), created: key.locator("td").nth(3) });
      const webhook = page.getByTestId("webhook-row").first();
      await check(`${base}/settings/webhooks`, { name: webhook.locator("p").first() });
      for (const path of [
        base,
        `${base}/calls`,
        `${base}/calls/phone-0`,
        `${base}/errors`,
        `${base}/tools`,
        `${base}/tools/${encodeURIComponent(tool)}`,
        `${base}/models`,
        `${base}/definitions`,
        `${base}/inflation`,
        `${base}/runs/${encodeURIComponent(runId)}`,
        incidentPath,
        `${base}/settings/keys`,
        `${base}/settings/members`,
        `${base}/settings/connect`,
      ]) {
        await check(path);
      }
      await shot(page, "long-connect");
      expect(problems, problems.join("\n")).toEqual([]);
    });

    test("an incident's first screen holds its whole title, state, value, its rule, Acknowledge and Silence; assignee and note reach the list", async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const { slug, ruleName } = await longNamesProject(page);
      await page.goto(`/p/${slug}/alerts`);
      await page.getByTestId("incident-title").first().click();
      await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts/[0-9a-f-]{36}$`));
      const viewport = page.viewportSize()!;
      const firstScreen = {
        title: page.getByRole("heading", { level: 1 }),
        state: page.getByTestId("incident-headline"),
        rule: page.getByTestId("incident-rule-link"),
        acknowledge: page.getByRole("button", { name: "Acknowledge" }),
        silence: page.getByTestId("incident-silence").locator("summary"),
      };
      await expect(firstScreen.title).toHaveText(ruleName); // whole, wrapped
      const below: string[] = [];
      for (const [name, locator] of Object.entries(firstScreen)) {
        const box = (await locator.boundingBox())!;
        if (box.y < 0 || box.y + box.height > viewport.height || box.x + box.width > viewport.width + 0.5)
          below.push(
            `${name}: ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)} in ${viewport.width}×${viewport.height}`,
          );
      }
      expect(below, below.join("\n")).toEqual([]);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, "incident");

      await firstScreen.silence.click();
      await expect(page.getByRole("form", { name: "Silence this rule" })).toBeVisible();
      await page.getByLabel("Assignee", { exact: true }).selectOption({ label: `${ADMIN.name} (${ADMIN.email})` });
      await page.getByLabel("Note", { exact: true }).fill("rolled back to 2026-09, watching");
      await page.getByRole("button", { name: "Save assignee and note" }).click();
      await expect(page.getByTestId("incident-assignee")).toHaveText(ADMIN.name);
      await expect(page.getByTestId("incident-note")).toHaveText("rolled back to 2026-09, watching");
      await expect(page.getByTestId("timeline-event").filter({ hasText: "Assigned by" })).toContainText(`to ${ADMIN.email}`);
      await firstScreen.rule.click();
      await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts/rules/[0-9a-f-]{36}$`));
      await page.goto(`/p/${slug}/alerts`);
      await expect(page.getByTestId("incident-triage").first()).toContainText(`Assigned to ${ADMIN.name}`);
      await expect(page.getByTestId("incident-triage").first()).toContainText("Note: rolled back to 2026-09, watching");
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });

    test("a disabled button looks disabled: grey, not the live button's colour", async ({ page }) => {
      await page.goto(`/p/${demoProject().slug}/settings`);
      const save = page.getByRole("button", { name: "Save name" });
      await expect(save).toBeDisabled();
      const disabled = await save.evaluate((b) => getComputedStyle(b).backgroundColor);
      await page.locator("#project-name").fill(`Renamed ${Date.now()}`);
      await expect(save).toBeEnabled();
      expect(chroma(disabled), `disabled ${disabled}`).toBeLessThan(0.05);
      // the button's colour eases in (a CSS transition): read it until it has settled, not mid-way
      // (a loaded CI machine once read oklab(0.35 0 -0.065), a third of the way from grey)
      await expect
        .poll(async () => chroma(await save.evaluate((b) => getComputedStyle(b).backgroundColor)), { message: "the enabled button's colour" })
        .toBeGreaterThan(0.1);
    });
  });
}

// The same pages on a desktop, light and dark: the phone layout must not leak into it (the cards
// are below 40rem only), and nothing widens the page there either.
for (const scheme of ["light", "dark"] as const) {
  test.describe(`at 1440×900, ${scheme}`, () => {
    test.use({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    test("the lists are tables again, and no page is wider than the screen", async ({ page }) => {
      test.setTimeout(120_000);
      const base = `/p/${demoProject().slug}`;
      const wide: string[] = [];
      for (const [name, path] of [
        ["calls", `${base}/calls`],
        ["tools", `${base}/tools`],
        ["models", `${base}/models?range=30d`],
        ["definitions", `${base}/definitions?range=30d`],
        ["alerts", `${base}/alerts`],
        ["connect", `${base}/settings/connect`],
      ] as const) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        if ((await overflow(page)) > 0) wide.push(path);
        if (shotsDir) await page.screenshot({ path: `${shotsDir}/${name}-1440-${scheme}.png`, fullPage: true });
      }
      expect(wide).toEqual([]);
      // a table row is one line of cells again: the header row shows, the cells sit side by side
      await page.goto(`${base}/tools`);
      const row = page.getByTestId("tool-row").first();
      expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe("table-row");
      await expect(page.getByRole("table", { name: "Tools" }).locator("thead th").first()).toBeVisible();
    });
  });
}
