import { expect, test, type Page } from "@playwright/test";
import { createKeyViaUi, createProjectViaUi, unique } from "./helpers";
import { statePath } from "./state";

// The empty overview picks up its first event by itself, and a navigation or a range change
// shows progress at once, on desktop and phone, even when the server takes seconds to answer.
// TRUTH_SCREENSHOTS=/tmp/dir saves what these states look like.
test.use({ storageState: statePath("admin.json") });

const shots = process.env.TRUTH_SCREENSHOTS;

async function send(page: Page, key: string) {
  const event = {
    id: "first",
    runId: "r1",
    timestamp: new Date(Date.now() - 30_000).toISOString(),
    model: { name: "scripted" },
    tool: "getloan",
    arguments: {},
  };
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events: [event] } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1 });
}

/**
 * Milliseconds from the click on `target` to the progress bar being in the page, measured in the
 * page itself (a listener before the click's own handlers, a MutationObserver for the bar), so
 * that the test's round trips to the browser do not count. Each page answer is slowed by 1.5 s.
 */
async function progressDelay(page: Page, click: () => Promise<void>) {
  await page.evaluate(() => {
    const w = window as unknown as { clickedAt?: number; barAt?: number };
    delete w.clickedAt;
    delete w.barAt;
    document.addEventListener("click", () => (w.clickedAt ??= performance.now()), { capture: true, once: true });
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="nav-progress"]')) {
        w.barAt ??= performance.now();
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await click();
  await expect(page.getByTestId("nav-progress")).toBeVisible();
  const { clickedAt, barAt } = await page.evaluate(() => {
    const w = window as unknown as { clickedAt?: number; barAt?: number };
    return { clickedAt: w.clickedAt, barAt: w.barAt };
  });
  expect(clickedAt, "the click was seen").toBeDefined();
  expect(barAt, "the bar appeared").toBeDefined();
  return barAt! - clickedAt!;
}

test("the empty state turns into the first event by itself, then shows the call", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Live"));
  const key = await createKeyViaUi(page, slug, "live e2e");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/p/${slug}`);
  await expect(page.getByText("No events yet")).toBeVisible();
  await expect(page.getByTestId("first-event")).toContainText("Waiting for the first event");

  await send(page, key);
  // no reload: the page asks every 2 s
  const first = page.getByTestId("first-event");
  await expect(first).toContainText("First event received", { timeout: 8_000 });
  await expect(first.getByRole("link", { name: "getloan" })).toHaveAttribute("href", `/p/${slug}/calls/first`);
  if (shots) await page.screenshot({ path: `${shots}/first-event-1440-light.png` });
  // then the overview itself, with the call
  await expect(page.getByTestId("first-calls")).toContainText("getloan", { timeout: 15_000 });
  await expect(page.getByText("No events yet")).toHaveCount(0);
});

for (const viewport of [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`progress shows within 100 ms of a navigation and of a range change (${viewport.name})`, async ({ page }) => {
    test.setTimeout(90_000);
    const slug = await createProjectViaUi(page, unique("Progress"));
    const key = await createKeyViaUi(page, slug, "progress e2e");
    await send(page, key);
    await page.setViewportSize(viewport);
    await page.goto(`/p/${slug}`);
    await expect(page.getByTestId("tile-calls")).toBeVisible();

    // every page answer (documents and the router's RSC requests) takes 1.5 s longer
    await page.route(`**/p/${slug}**`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });

    // on the phone the navigation sits behind the menu button, opened before the measured click
    if (viewport.name === "phone") await page.getByRole("button", { name: "Menu" }).click();
    const nav = async () => {
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Tools" }).click();
    };
    expect(await progressDelay(page, nav)).toBeLessThan(100);
    if (shots) await page.screenshot({ path: `${shots}/progress-${viewport.width}-light.png` });
    await expect(page).toHaveURL(new RegExp(`/p/${slug}/tools`));
    await expect(page.getByTestId("nav-progress")).toHaveCount(0, { timeout: 15_000 });

    const range = async () => {
      await page.getByTestId("range-picker").getByRole("link", { name: "7d" }).click();
    };
    expect(await progressDelay(page, range)).toBeLessThan(100);
    await expect(page).toHaveURL(/range=7d/);
    await expect(page.getByTestId("nav-progress")).toHaveCount(0, { timeout: 15_000 });
  });
}
