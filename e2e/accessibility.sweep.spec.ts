import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createKeyViaUi, createProjectViaUi, openPalette, unique } from "./helpers";
import { SIGNED_OUT, demoProject, statePath } from "./state";

// axe-core over every page (the demo project's, an empty project's, the not-found pages and
// the signed-out ones), in the light and the dark colour scheme, at desktop and phone width:
// no critical and no serious violation (WCAG 2.1 A and AA rules: every rule in the light
// scheme at both widths, the colour rules in the dark one at both widths). A failure lists each
// rule with the elements.
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
// The rules of those tags whose result depends on colours: the only ones the dark scheme can
// change. The dark scheme is colours only (app/globals.css mirrors the palette, no component
// styles anything but colours in dark: app/globals.test.ts keeps it so; the charts redraw a canvas, which
// axe does not read), so the same elements are on screen with the same names, roles and
// structure in both schemes: the light scheme runs every rule, the dark one these.
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

async function seriousViolations(page: Page, scheme: (typeof SCHEMES)[number]) {
  // Legacy mode: axe.run in the page itself. The default runs axe per frame and then merges the
  // results in a blank page it opens for each analysis (about a second each on this machine);
  // the app has no frames, so both check the same elements.
  const axe = new AxeBuilder({ page }).setLegacyMode();
  const { violations } = await (scheme === "light" ? axe.withTags(WCAG_21_AA) : axe.withRules(COLOUR_RULES)).analyze();
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** A page state to check: its path, and what to do there first (open a form). */
type PageState = { name: string; path: () => string; then?: (page: Page) => Promise<void> };

const VIEWPORTS = [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;
const SCHEMES = ["light", "dark"] as const;

// the longest spec: its states spread over both workers (each worker runs beforeAll once)
test.describe.configure({ mode: "parallel" });

let emptySlug: string;
/** Ids found on the demo project once: a call (with its run), a tool and an incident. */
let demo: { callId: string; runHref: string; toolHref: string; incidentHref: string };

async function signedInPage(browser: Browser) {
  const context = await browser.newContext({ storageState: statePath("admin.json"), viewport: { width: 1440, height: 900 } });
  return { page: await context.newPage(), close: () => context.close() };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const { page, close } = await signedInPage(browser);
  const base = `/p/${demoProject().slug}`;
  emptySlug = await createProjectViaUi(page, unique("Empty"));
  // a rule switched off, on the empty project: the alerts spec switches one off on the demo
  // project too, but may do so before or after this spec looks (they run side by side)
  await page.goto(`/p/${emptySlug}/alerts/rules`);
  await page.getByRole("button", { name: "New rule" }).click();
  await page.getByRole("form", { name: "New rule" }).getByLabel("Name").fill("Switched off");
  await page.getByRole("form", { name: "New rule" }).getByLabel("Threshold (%)").fill("10");
  await page.getByRole("button", { name: "Create rule" }).click();
  await page.getByRole("switch", { name: /Switched off/ }).click();
  await expect(page.getByRole("switch", { name: /Switched off/ })).toHaveAttribute("aria-checked", "false");
  await page.goto(`${base}/calls`);
  const row = page.getByTestId("call-row").first();
  const callId = (await row.getAttribute("data-call-id"))!;
  const runHref = (await row.locator(`a[href^="${base}/runs/"]`).first().getAttribute("href"))!;
  await page.goto(`${base}/tools`);
  const toolHref = (await page.locator(`a[href^="${base}/tools/"]`).first().getAttribute("href"))!;
  // An incident to look at: the demo data's regression, fired by an evaluation unless one
  // already did (evaluating again keeps the one incident; the alerts spec expects that one).
  await page.goto(`${base}/alerts`);
  if ((await page.getByTestId("incident-row").count()) === 0) {
    await expect(async () => {
      await page.getByRole("button", { name: "Evaluate now" }).click();
      await expect(page.getByTestId("evaluate-result")).toContainText(/rules? evaluated/, { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
  }
  const incidentHref = (await page.getByTestId("incident-row").first().getByRole("link").first().getAttribute("href"))!;
  demo = { callId, runHref, toolHref, incidentHref };
  await close();
});

const base = () => `/p/${demoProject().slug}`;
/** Every page state, named; paths are read when the test runs (after beforeAll found the ids). */
const SIGNED_IN: PageState[] = [
  { name: "overview", path: () => base() },
  { name: "tools", path: () => `${base()}/tools` },
  { name: "a tool", path: () => demo.toolHref },
  { name: "models", path: () => `${base()}/models` },
  { name: "definitions", path: () => `${base()}/definitions` },
  { name: "inflation", path: () => `${base()}/inflation` },
  { name: "calls explorer", path: () => `${base()}/calls` },
  { name: "a call", path: () => `${base()}/calls/${encodeURIComponent(demo.callId)}` },
  { name: "a run", path: () => demo.runHref },
  // the demo's run sent over OTLP, with its conversation, a long tool result opened
  {
    name: "a run's conversation",
    path: () => `${base()}/runs/demo-conversation-4471`,
    then: (page) => page.getByTestId("conversation-fold").first().locator("summary").click(),
  },
  { name: "errors", path: () => `${base()}/errors` },
  { name: "incidents", path: () => `${base()}/alerts` },
  { name: "an incident", path: () => demo.incidentHref },
  { name: "alert rules", path: () => `${base()}/alerts/rules` },
  { name: "the new-rule form", path: () => `${base()}/alerts/rules`, then: (page) => page.getByRole("button", { name: "New rule" }).click() },
  { name: "settings", path: () => `${base()}/settings` },
  { name: "settings: API keys", path: () => `${base()}/settings/keys` },
  { name: "settings: connect", path: () => `${base()}/settings/connect` },
  { name: "settings: members", path: () => `${base()}/settings/members` },
  { name: "settings: webhooks", path: () => `${base()}/settings/webhooks` },
  {
    name: "the command palette",
    path: () => base(),
    then: async (page) => {
      await openPalette(page);
      await page.getByTestId("palette-input").fill("loan");
      await expect(page.getByTestId("palette-item").first()).toBeVisible();
    },
  },
  { name: "the keyboard shortcuts", path: () => base(), then: (page) => page.keyboard.press("?") },
  { name: "an empty project", path: () => `/p/${emptySlug}` },
  { name: "alert rules with a rule switched off", path: () => `/p/${emptySlug}/alerts/rules` },
  { name: "new project", path: () => "/projects/new" },
  { name: "change password", path: () => "/account/password" },
  { name: "a missing call", path: () => `${base()}/calls/no-such-call` },
  { name: "a missing tool", path: () => `${base()}/tools/no-such-tool` },
  { name: "not found in a project", path: () => `${base()}/no-such-page` },
  { name: "not found", path: () => "/no-such-page" },
];
const SIGNED_OUT_PAGES: PageState[] = [
  { name: "sign-in", path: () => "/login" },
  { name: "an unknown invitation", path: () => "/invite/no-such-invitation" },
  { name: "not found, signed out", path: () => "/no-such-page" },
];

/**
 * Loads the page once, then runs axe in each colour scheme at each width (the scheme and the
 * width are media features: the page restyles without a reload, and the charts redraw).
 */
async function violationsOf(page: Page, { path, then }: PageState) {
  await page.goto(path());
  await page.waitForLoadState("networkidle");
  if (then) await then(page);
  // no colour transitions: axe must measure the scheme just switched to, not a blend on its way
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; }" });
  const found: string[] = [];
  for (const colorScheme of SCHEMES) {
    for (const [device, viewport] of VIEWPORTS) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      for (const violation of await seriousViolations(page, colorScheme)) found.push(`${path()} (${colorScheme}, ${device}): ${violation}`);
    }
  }
  return found;
}

const name = (state: PageState) => `${state.name}: no serious or critical accessibility violation (light and dark, desktop and phone)`;

for (const state of SIGNED_IN) {
  test(name(state), async ({ page }) => {
    test.setTimeout(90_000);
    const found = await violationsOf(page, state);
    expect(found, found.join("\n")).toEqual([]);
  });
}
test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });
  for (const state of SIGNED_OUT_PAGES) {
    test(name(state), async ({ page }) => {
      test.setTimeout(90_000);
      const found = await violationsOf(page, state);
      expect(found, found.join("\n")).toEqual([]);
    });
  }
});

// Every popover of the app: the series picker, the phone's navigation drawer and the question a
// destructive button asks. Escape closes each and gives the focus back to what opened it.
test("Escape closes every popover and gives the focus back to its button", async ({ page }) => {
  const base = `/p/${demoProject().slug}`;
  await page.goto(base);
  const picker = page.getByTestId("series-picker-tools");
  await picker.locator("summary").click();
  await expect(picker).toHaveAttribute("open", "");
  await page.keyboard.press("Escape");
  await expect(picker).not.toHaveAttribute("open", "");
  await expect(picker.locator("summary")).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  const nav = page.getByRole("navigation", { name: "Project" });
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole("link").first().focus();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(page.getByRole("button", { name: "Menu" })).toBeFocused();

  await page.setViewportSize({ width: 1440, height: 900 });
  await createKeyViaUi(page, emptySlug, "escape");
  const revoke = page.getByRole("button", { name: "Revoke escape" });
  await revoke.click();
  await expect(page.getByText("Revoke this key?")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByText("Revoke this key?")).toHaveCount(0);
  await expect(revoke).toBeFocused();
});
