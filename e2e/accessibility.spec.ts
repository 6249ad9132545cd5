import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { SIGNED_OUT, demoProject } from "./state";

// axe-core over every page of the demo project, at desktop and phone width: no critical and no
// serious violation (WCAG 2.1 A and AA rules). A failure lists each rule with the elements.
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function pagesOfDemoProject(page: Page) {
  const { slug } = demoProject();
  const base = `/p/${slug}`;
  await page.goto(`${base}/calls`);
  const callId = await page.getByTestId("call-row").first().getAttribute("data-call-id");
  await page.goto(`${base}/tools`);
  const toolHref = await page.locator(`a[href^="${base}/tools/"]`).first().getAttribute("href");
  return [
    base,
    `${base}/tools`,
    toolHref!,
    `${base}/models`,
    `${base}/inflation`,
    `${base}/calls`,
    `${base}/calls/${encodeURIComponent(callId!)}`,
    `${base}/errors`,
    `${base}/alerts`,
    `${base}/alerts/rules`,
    `${base}/settings`,
    `${base}/settings/keys`,
    `${base}/settings/connect`,
    `${base}/settings/members`,
    `${base}/settings/webhooks`,
  ];
}

for (const [device, viewport] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`every page of the demo project has no serious or critical accessibility violation (${device})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const found: string[] = [];
    for (const path of await pagesOfDemoProject(page)) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      for (const violation of await seriousViolations(page)) found.push(`${path}: ${violation}`);
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });
  test("the sign-in page has no serious or critical accessibility violation", async ({ page }) => {
    await page.goto("/login");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
