import { expect, test, type Page } from "@playwright/test";
import { ADMIN } from "./helpers";
import { expectChartData } from "./demo-helpers";
import { demoProject, statePath } from "./state";
import { formatDateTimeZoned, timeZoneCookieValue } from "../isomorphic/time-zone";

// On the run's demo project (e2e/shared.setup.ts): its data has a regression (acme-large
// 2026-09 → 2026-11) that the built-in regression guard must catch. This is the only spec that
// evaluates, acknowledges, adds rules or webhooks there, and no other spec checks those, so the
// order of the specs does not matter.
test.describe.configure({ mode: "serial" });

let page: Page;
let slug: string;
let incidentUrl: string;
/** ALERT_SHOTS=/tmp/shots saves a full-page screenshot of each alerts page. */
const shotsDir = process.env.ALERT_SHOTS;
const shot = async (name: string) => {
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/alerts-${name}.png`, fullPage: true });
};

/** Clicks "Evaluate now", again if the minutely evaluator held the lock at that moment. */
async function evaluateNow() {
  await expect(async () => {
    await page.getByRole("button", { name: "Evaluate now" }).click();
    await expect(page.getByTestId("evaluate-result")).toContainText(/rules? evaluated/, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

test.beforeAll(async ({ browser }) => {
  slug = demoProject().slug;
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

test("after demo data and 'Evaluate now', the regression incident is listed first and the nav shows a badge", async () => {
  await page.goto(`/p/${slug}/alerts`);
  await evaluateNow();

  const first = page.getByTestId("incident-row").first();
  await expect(first).toHaveAttribute("data-state", "firing");
  await expect(first).toContainText("Regression guard");
  await expect(first).toContainText("model acme-large 2026-11");
  await expect(first).toContainText("critical");
  await expect(first).toContainText(/fired .* ago/);
  await expect(page.getByRole("navigation", { name: "Project" }).getByTestId("firing-badge")).toHaveText(/^1\b/);

  // filters live in the URL
  await page.getByLabel("State").selectOption("resolved");
  await expect(page).toHaveURL(/[?&]state=resolved/);
  await expect(page.getByTestId("no-incidents")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts$`));
  await expect(page.getByLabel("State")).toHaveValue("");
  await expect(page.getByTestId("incident-row")).toHaveCount(1);
  // a filter longer than any tool name is ignored with the reason, never cut to fit
  await page.goto(`/p/${slug}/alerts?tool=${"t".repeat(201)}`);
  await expect(page.getByTestId("filter-problems")).toHaveText(
    "Ignored tool: tool is at most 200 characters (no event carries a longer one, so nothing could match); you sent 201.",
  );
  await expect(page.getByTestId("incident-row")).toHaveCount(1);
  await page.goto(`/p/${slug}/alerts`);
  await shot("list");
});

test("the incident page shows the chart with its threshold and links to the matching calls", async () => {
  await page.getByTestId("incident-row").first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts/[0-9a-f-]{36}$`));
  incidentUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("incident-scope")).toHaveText("model acme-large 2026-11");
  await expect(page.getByTestId("incident-value")).toHaveText(/^\d+(\.\d+)?%$/);
  await expectChartData(page.getByTestId("rate-chart"));
  await expect(page.getByTestId("failing-tool").first()).toBeVisible();
  await expect(page.getByTestId("failing-category").first()).toBeVisible();
  await expect(page.getByTestId("timeline-event").first()).toHaveText(/Fired/);
  await shot("incident");

  const link = page.getByTestId("explorer-link");
  const href = (await link.getAttribute("href"))!;
  const query = new URL(href, "http://x").searchParams;
  expect(query.get("model")).toBe("acme-large");
  expect(query.get("modelVersion")).toBe("2026-11");
  expect(query.get("valid")).toBe("invalid");
  expect(Date.parse(query.get("from")!)).toBeLessThan(Date.parse(query.get("to")!));

  await link.click();
  await expect(page).toHaveURL(/\/calls\?.*modelVersion=2026-11/);
  const rows = page.getByTestId("call-row");
  await expect(rows.first()).toBeVisible();
  const n = Math.min(await rows.count(), 5);
  for (let i = 0; i < n; i++) {
    await expect(rows.nth(i)).toContainText("acme-large");
    await expect(rows.nth(i)).toContainText("2026-11");
    await expect(rows.nth(i)).toHaveAttribute("data-valid", "false");
  }
});

test("acknowledging from the browser changes the state and the timeline says who", async () => {
  await page.goto(incidentUrl);
  await page.getByLabel("Note (optional)").fill("rolling back to 2026-09");
  await page.getByRole("button", { name: "Acknowledge" }).click();
  await expect(page.getByTestId("incident-state").first()).toHaveAttribute("data-state", "acknowledged");
  const ack = page.locator('[data-testid="timeline-event"][data-kind="acknowledged"]');
  await expect(ack).toContainText(`Acknowledged by ${ADMIN.email}`);
  await expect(ack).toContainText("rolling back to 2026-09");
  await expect(page.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Resolve" })).toBeVisible();
  await expect(page.getByTestId("firing-badge")).toHaveCount(0);
});

test("rules: the regression guard states its test; a threshold of 140% is refused with the allowed range", async () => {
  await page.goto(`/p/${slug}/alerts/rules`);
  await expect(page.getByTestId("regression-test")).toContainText("two-proportion z-test");
  await expect(page.getByRole("switch", { name: /Regression guard/ })).toHaveAttribute("aria-checked", "true");

  await page.getByRole("button", { name: "New rule" }).click();
  await page.getByLabel("Name").fill("Invalid rate too high");
  await page.getByLabel("Threshold (%)").fill("140");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page.locator("#rule-threshold-error")).toHaveText(/0% to 100%.*you sent 140%/);
  await expect(page.getByLabel("Threshold (%)")).toHaveAttribute("aria-invalid", "true");
  await shot("rules-error");

  await page.getByLabel("Threshold (%)").fill("14");
  await page.getByRole("button", { name: "Create rule" }).click();
  const row = page.getByTestId("rule-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Invalid rate above 14.00% over 1 h");
  await page.getByRole("switch", { name: /Invalid rate too high/ }).click();
  await expect(page.getByRole("switch", { name: /Invalid rate too high/ })).toHaveAttribute("aria-checked", "false");
  await shot("rules");
});

test("a rule's incident charts its rate against the threshold", async () => {
  await page.getByRole("button", { name: "New rule" }).click();
  await page.getByLabel("Name").fill("Any invalid calls today");
  await page.getByLabel("Threshold (%)").fill("1");
  await page.getByLabel("Evaluation window (minutes)").fill("1440");
  await page.getByLabel("Minimum calls").fill("0");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page.getByTestId("rule-row")).toHaveCount(2);

  await page.goto(`/p/${slug}/alerts`);
  await evaluateNow(); // the minutely evaluator may have fired it already
  const row = page.getByTestId("incident-row").filter({ hasText: "Any invalid calls today" });
  await expect(row).toHaveAttribute("data-state", "firing");
  await expect(row).toContainText("whole project");
  await row.getByRole("link").click();
  await expect(page.getByTestId("incident-scope")).toHaveText("whole project");
  await expectChartData(page.getByTestId("rate-chart"));
  await expect(page.getByTestId("explorer-link")).toHaveAttribute("href", /valid=invalid&from=[^&]+&to=[^&]+$/);
  await shot("incident-rule");
});

/** Creates a rule from the rules page's form; `check` runs on the filled form before it is saved (the preview). */
async function createRule(
  name: string,
  fields: { tool?: string; unseenTool?: boolean; threshold: string; window?: string; minCalls?: string },
  check?: () => Promise<void>,
) {
  await page.getByRole("button", { name: "New rule" }).click();
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Name").fill(name);
  if (fields.tool) await form.getByLabel("Tool").fill(fields.tool);
  await form.getByLabel("Threshold (%)").fill(fields.threshold);
  await form.getByLabel("Evaluation window (minutes)").fill(fields.window ?? "1440");
  await form.getByLabel("Minimum calls").fill(fields.minCalls ?? "0");
  await check?.();
  await page.getByRole("button", { name: "Create rule" }).click();
  if (fields.unseenTool) {
    // a tool no call has had in 30 days: saving asks first; "Change the scope" saves nothing and goes back to the field
    const question = page.getByTestId("unseen-scope");
    await expect(question).toContainText(`No calls of tool “${fields.tool}” in the last 30 days`);
    await question.getByRole("button", { name: "Change the scope" }).click();
    await expect(question).toBeHidden();
    await expect(form.getByLabel("Tool")).toBeFocused();
    await expect(page.getByTestId("rule-row").filter({ hasText: name })).toHaveCount(0);
    await page.getByRole("button", { name: "Create rule" }).click();
    await question.getByRole("button", { name: "Keep it and save" }).click();
  }
  await expect(page.getByTestId("rule-row").filter({ hasText: name })).toHaveCount(1);
}

/** Saves the open rule form and waits until it closes: a navigation before the save lands would abort it. */
async function saveEditedRule() {
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByRole("button", { name: /^(Save rule|Saving…)$/ })).toHaveCount(0);
}

const ruleRow = (name: string) => page.getByTestId("rule-row").filter({ hasText: name });

test("each rule shows its state with the value and the last evaluation; the form previews what a rule would have done", async () => {
  test.setTimeout(60_000); // three rules with their previews, two evaluations and eight page loads: over 30 s on a busy machine
  await page.goto(`/p/${slug}/alerts/rules`);
  const preview = page.getByTestId("preview-sentence");
  await createRule("Never that bad", { threshold: "1" }, async () => {
    await expect(preview).toHaveText(/^Would have fired (once|\d+ times) in the last 7 days \(firing .+ in all\)\.$/);
    await expect(page.getByTestId("rule-preview").locator("svg path")).toHaveCount(2);
    await page.getByLabel("Threshold (%)").fill("100");
    await expect(preview).toHaveText(/^Would not have fired in the last 7 days\.$/);
  });
  await createRule("Typo scope", { tool: "get_loan_typo", unseenTool: true, threshold: "10", window: "60" }, async () => {
    await expect(page.getByTestId("scope-warning")).toContainText("No calls of tool “get_loan_typo” in the last 30 days");
    await expect(preview).toHaveText(/Would not have fired in the last 7 days: no calls in scope at all\./);
  });
  await createRule("Needs a million calls", { threshold: "1", minCalls: "1000000" }, async () => {
    await expect(preview).toHaveText(/Would not have fired in the last 7 days: most of the time there were fewer calls than the minimum\./);
  });

  await page.goto(`/p/${slug}/alerts`);
  await evaluateNow();
  await page.goto(`/p/${slug}/alerts/rules`);
  await expect(ruleRow("Any invalid calls today").getByTestId("rule-state")).toHaveAttribute("data-state", "firing");
  await expect(ruleRow("Any invalid calls today").getByTestId("rule-state-text")).toHaveText(
    /^\d+\.\d\d% is above 1\.00% over the last 1 d \([\d,]+ checked calls\)\. · evaluated \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
  );
  await expect(ruleRow("Never that bad").getByTestId("rule-state")).toHaveAttribute("data-state", "ok");
  await expect(ruleRow("Typo scope").getByTestId("rule-state")).toHaveAttribute("data-state", "no_data");
  await expect(ruleRow("Typo scope").getByTestId("rule-state-text")).toContainText("No calls in scope over the last 1 h");
  await expect(ruleRow("Needs a million calls").getByTestId("rule-state")).toHaveAttribute("data-state", "not_enough_calls");
  await expect(ruleRow("Needs a million calls").getByTestId("rule-state-text")).toContainText(
    "under the minimum of 1,000,000 checked calls: the rule stays silent",
  );
  await expect(page.getByTestId("regression-guard").getByTestId("rule-state")).toHaveAttribute("data-state", "firing");

  // pending: the condition clears while the incident is open, until it stays clear for a window
  await page.getByRole("button", { name: "Edit Any invalid calls today" }).click();
  await page.getByLabel("Threshold (%)").fill("100");
  await saveEditedRule();
  await page.goto(`/p/${slug}/alerts`);
  await evaluateNow();
  await page.goto(`/p/${slug}/alerts/rules`);
  await expect(ruleRow("Any invalid calls today").getByTestId("rule-state")).toHaveAttribute("data-state", "pending");
  await expect(ruleRow("Any invalid calls today").getByTestId("rule-state-text")).toContainText("resolves once it stays clear for a whole window (1 d)");
  await shot("rule-states");

  // the rule's page: its state, last evaluation and the 7-day preview, server-rendered
  await ruleRow("Needs a million calls").getByRole("link", { name: "Needs a million calls" }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/alerts/rules/[0-9a-f-]{36}$`));
  await expect(page.getByTestId("rule-state")).toHaveAttribute("data-state", "not_enough_calls");
  await expect(page.getByTestId("rule-last-evaluated")).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await expect(page.getByTestId("rule-preview")).toHaveAttribute("data-fired", "0");
  await shot("rule");
});

test("silence: a rule and a scope, with who and why; a silenced rule's incident is recorded and marked silenced", async ({ browser }) => {
  test.setTimeout(90_000); // two forms, an evaluation and a second browser context: 29 s on a quiet machine
  await page.goto(`/p/${slug}/alerts/rules`);
  const scope = page.getByRole("form", { name: "Silence a scope" });
  await scope.getByLabel("Model").fill("acme-large");
  await scope.getByLabel("Why").fill("rolling out 2026-11");
  await scope.getByRole("button", { name: "Silence" }).click();
  await expect(page.getByTestId("silence-row").filter({ hasText: "model acme-large" })).toContainText(`by ${ADMIN.email} · rolling out 2026-11`);

  await ruleRow("Never that bad").getByRole("link", { name: "Never that bad" }).click();
  await page.waitForURL(/\/alerts\/rules\/[^/?]+$/); // the rule's page, not the rules page it came from
  const ruleUrl = page.url();
  await page.getByLabel("Why").fill("tuning the threshold");
  await page.getByRole("button", { name: "Silence this rule" }).click();
  await expect(page.getByTestId("rule-silenced")).toContainText("silenced until");
  await expect(page.getByTestId("silence-row")).toContainText("tuning the threshold");
  const until = (await page.getByTestId("rule-silenced").textContent())!.match(/silenced until (\d{4}-\d\d-\d\d \d\d:\d\d UTC)/)![1]!;

  // it fires under the silence: recorded, marked silenced
  await page.goto(`/p/${slug}/alerts/rules`);
  await page.getByRole("button", { name: "Edit Never that bad" }).click();
  await page.getByLabel("Threshold (%)").fill("1");
  await saveEditedRule();
  await page.goto(`/p/${slug}/alerts`);
  await evaluateNow();
  const row = page.getByTestId("incident-row").filter({ hasText: "Never that bad" });
  await expect(row.getByTestId("incident-silenced")).toBeVisible();
  await row.getByRole("link").click();
  const silenced = '[data-testid="timeline-event"][data-kind="silenced"]';
  await expect(page.locator(silenced)).toContainText(`Silenced by ${ADMIN.email}`);
  // the silence's end as the rule's page shows it (in UTC here), not as ISO text
  await expect(page.locator(silenced)).toContainText(`no webhooks: silenced until ${until} (tuning the threshold)`);
  // a viewer whose browser and chosen zone are New York sees the same moment in New York time
  const zone = "America/New_York";
  const untilThere = formatDateTimeZoned(new Date(`${until.slice(0, 10)}T${until.slice(11, 16)}:00Z`), zone);
  expect(untilThere).toMatch(/ E[SD]T$/);
  const local = await browser.newContext({ storageState: statePath("admin.json"), timezoneId: zone, viewport: { width: 1360, height: 900 } });
  try {
    await local.addCookies([{ name: "toolgate-tz", value: timeZoneCookieValue({ mode: "local", zone }), url: new URL(page.url()).origin }]);
    const there = await local.newPage();
    await there.goto(page.url());
    await expect(there.locator(silenced)).toContainText(`no webhooks: silenced until ${untilThere} (tuning the threshold)`);
    if (shotsDir) await there.screenshot({ path: `${shotsDir}/alerts-incident-silenced-local-time.png`, fullPage: true });
  } finally {
    await local.close();
  }

  // ending the silence lists it no more
  await page.goto(ruleUrl);
  await page.getByRole("button", { name: "End silence" }).click();
  await expect(page.getByTestId("silence-row")).toHaveCount(0);
  await expect(page.getByTestId("rule-silenced")).toHaveCount(0);
});

test("snooze: an incident snoozed for an hour shows until when and who, and leaves the firing badge", async () => {
  await page.goto(`/p/${slug}/alerts`);
  const row = page.getByTestId("incident-row").filter({ hasText: "Any invalid calls today" });
  await row.getByRole("link").click();
  await expect(page.getByRole("navigation", { name: "Project" }).getByTestId("firing-badge")).toBeVisible();
  await page.getByLabel("Snooze for").selectOption("60");
  await page.getByRole("form", { name: "Snooze" }).getByLabel("Reason (optional)").fill("after the deploy");
  await page.getByRole("button", { name: "Snooze" }).click();
  await expect(page.getByTestId("incident-snoozed")).toContainText(/snoozed until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(page.locator('[data-testid="timeline-event"][data-kind="snoozed"]')).toContainText(`Snoozed by ${ADMIN.email}`);
  await expect(page.locator('[data-testid="timeline-event"][data-kind="snoozed"]')).toContainText(/until \d{4}-\d\d-\d\d \d\d:\d\d UTC: after the deploy/);
  await expect(page.getByTestId("firing-badge")).toHaveCount(0);
  await shot("incident-snoozed");
});

test("webhooks: an endpoint is added with its secret, and 'Send test' shows the status code", async () => {
  await page.goto(`/p/${slug}/settings/webhooks`);
  await expect(page.getByTestId("no-webhooks")).toBeVisible();
  await page.getByLabel("Name").fill("Ops channel");
  await page.getByLabel("URL").fill(new URL("/api/health", page.url()).toString());
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const row = page.getByTestId("webhook-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Ops channel");
  await expect(row.getByTestId("webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9_-]{20,}$/);
  await expect(page.getByText("X-Toolgate-Signature: t=<unix seconds>,v1=<hex>")).toBeVisible();

  await page.getByRole("button", { name: "Send test to Ops channel" }).click();
  await expect(row.getByTestId("test-result")).toHaveText(/HTTP \d{3}/);
  await shot("webhooks");
});

test("deleting asks first: Cancel keeps the endpoint and the rule, confirming deletes them", async () => {
  const row = page.getByTestId("webhook-row");
  await row.getByRole("button", { name: "Delete Ops channel" }).click();
  await expect(row).toContainText("Delete this endpoint?");
  await expect(row.getByRole("button", { name: "Send test to Ops channel" })).toHaveCount(0);
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row).not.toContainText("Delete this endpoint?");
  await expect(row.getByRole("button", { name: "Send test to Ops channel" })).toBeVisible();
  await row.getByRole("button", { name: "Delete Ops channel" }).click();
  await row.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("no-webhooks")).toBeVisible();

  await page.goto(`/p/${slug}/alerts/rules`);
  const rule = page.getByTestId("rule-row").filter({ hasText: "Any invalid calls today" });
  await rule.getByRole("button", { name: "Delete Any invalid calls today" }).click();
  await expect(rule).toContainText("Delete it and its incidents?");
  await expect(rule.getByRole("button", { name: "Edit Any invalid calls today" })).toHaveCount(0);
  await rule.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("rule-row")).toHaveCount(4);
  await expect(rule).toHaveCount(0);
});

test("a retry-spirals rule: the form describes the kind and its units, refuses a spiral length of 1, and the tool page lists the spirals with their runs", async () => {
  await page.goto(`/p/${slug}/alerts/rules`);
  await page.getByRole("button", { name: "New rule" }).click();
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Name").fill("getloan spirals");
  await form.getByLabel("Metric").selectOption("spirals");
  await expect(form.getByTestId("metric-description")).toContainText(
    "runs where the model failed (invalid call or failed result) this many times or more in a row",
  );
  await expect(form.getByRole("radio", { name: "Above a baseline window by a factor" })).toBeDisabled();
  await form.getByLabel("Tool").fill("getloan");
  await form.getByLabel(/^Spiral length/).fill("1");
  await form.getByLabel("Threshold (spirals)").fill("0");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page.locator("#rule-spiral-length-error")).toHaveText("A spiral is at least 2 failed attempts in a row; you sent 1: send 2 to 50.");
  await form.getByLabel(/^Spiral length/).fill("3");
  // the demo's getloan runs spiral now and then: the 7-day preview fires
  await expect(page.getByTestId("preview-sentence")).toHaveText(/^Would have fired (once|\d+ times) in the last 7 days/);
  await shot("rule-spirals");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(ruleRow("getloan spirals")).toContainText("Retry spirals of 3+ failed attempts above 0 over 1 h");

  await page.goto(`/p/${slug}/tools/getloan?range=7d`);
  await expect(page.getByTestId("spirals-total")).toHaveText(/^\d+ spirals? burned [\d,]+ attempts, [\d,]+ tokens and \$/);
  await expect(page.getByTestId("longest-spirals").getByRole("link").first()).toHaveAttribute("href", new RegExp(`^/p/${slug}/runs/`));
  await shot("tool-spirals");
});
