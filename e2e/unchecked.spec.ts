import { expect, test, type Page } from "@playwright/test";
import { createKeyViaUi, createProjectViaUi, unique } from "./helpers";
import { statePath } from "./state";

// A call nobody could check (no schema registered) is neither valid nor invalid on any page:
// the overview and the tools page count it as unchecked, show no 0.0 % invalid rate, and say
// how to fix it (register or paste the schema, then Re-check).
test.use({ storageState: statePath("admin.json"), viewport: { width: 1440, height: 900 } });

/** A new project with one call of getloan and no schema, a minute ago. */
async function projectWithOneUncheckedCall(page: Page) {
  const slug = await createProjectViaUi(page, unique("Truth"));
  const key = await createKeyViaUi(page, slug, "truth e2e");
  const event = { id: "c1", runId: "r1", timestamp: new Date(Date.now() - 60_000).toISOString(), model: { name: "scripted" }, tool: "getloan", arguments: {} };
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events: [event] } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1 });
  return { slug, key };
}

test("one unchecked call: counted as unchecked on the overview and the tools page, no 0.0 % anywhere", async ({ page }) => {
  test.setTimeout(240_000);
  const { slug, key } = await projectWithOneUncheckedCall(page);

  await page.goto(`/p/${slug}`);
  await expect(page.getByTestId("tile-calls")).toContainText("0 valid · 1 unchecked · 0 invalid");
  await expect(page.getByTestId("tile-invalid-rate-value")).toHaveText("unchecked");
  const notice = page.getByTestId("unchecked-notice");
  await expect(notice).toContainText("This call is unchecked");
  await expect(notice.getByRole("link", { name: "Register or paste the schema" })).toHaveAttribute("href", `/p/${slug}/tools#register-tools`);
  await expect(notice.getByRole("link", { name: "Re-check" })).toHaveAttribute("href", `/p/${slug}/tools#tools-without-schema`);
  await expect(page.locator("main")).not.toContainText("0.0%");
  await expect(page.locator("main")).not.toContainText("1 valid");

  await page.goto(`/p/${slug}/tools`);
  await expect(page.getByTestId("tool-row").filter({ hasText: "getloan" }).getByTestId("tool-rate")).toHaveText("unchecked");
  await expect(page.getByTestId("unchecked-notice")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("0.0%");
  // the notice's Re-check link lands on the tool's re-check
  await page.getByTestId("unchecked-notice").getByRole("link", { name: "Re-check" }).click();
  await expect(page.locator("#tools-without-schema").getByTestId("unregistered-tool")).toContainText("getloan");

  await page.goto(`/p/${slug}/tools/getloan`);
  await expect(page.getByTestId("tile-invalid-rate-value")).toHaveText("unchecked");
  await expect(page.locator("main")).not.toContainText("0.0%");

  await page.goto(`/p/${slug}/models`);
  await expect(page.getByTestId("model-version-row")).toContainText("unchecked");
  // no rate, no 0.0 %–100.0 % interval over nothing: the dashboards' notice instead
  await expect(page.getByTestId("unchecked-notice")).toContainText("This call is unchecked");
  await expect(page.locator("main")).not.toContainText("0.0%");

  // the run page: the call is neither a success nor invalid
  await page.goto(`/p/${slug}/runs/r1`);
  await expect(page.getByTestId("run-successes")).toHaveText("0");
  await expect(page.getByTestId("run-invalid")).toHaveText("0");
  await expect(page.getByTestId("run-unchecked")).toHaveText("1");

  // another model's call that its harness judged: the unchecked version gets its own notice, the checked one its rate
  const judged = {
    id: "c2",
    runId: "r2",
    timestamp: new Date(Date.now() - 30_000).toISOString(),
    model: { name: "judged" },
    tool: "getloan",
    arguments: {},
    outcome: { valid: true },
  };
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events: [judged] } });
  expect((await sent.json()).result.data).toMatchObject({ accepted: 1 });
  await page.goto(`/p/${slug}/models`);
  await expect(page.getByTestId("unchecked-notice")).toHaveCount(1);
  await expect(page.getByTestId("unchecked-notice")).toContainText("The call of scripted is unchecked");
  await expect(page.getByTestId("model-version-row").filter({ hasText: "judged" })).toContainText("0.0%");
  await expect(page.getByTestId("model-version-row").filter({ hasText: "scripted" })).not.toContainText("%");

  await page.goto(`/p/${slug}/calls?valid=unchecked`);
  await expect(page.getByTestId("verdict")).toHaveCount(1);
  // "valid" lists the judged call only, never the unchecked one
  await page.goto(`/p/${slug}/calls?valid=valid`);
  await expect(page.getByTestId("verdict")).toHaveCount(1);
  await expect(page.getByTestId("call-row")).toContainText("judged");

  if (process.env.TRUTH_SCREENSHOTS) {
    for (const scheme of ["light", "dark"] as const)
      for (const width of [390, 1440]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 900 });
        for (const [name, path] of [
          ["overview", `/p/${slug}`],
          ["tools", `/p/${slug}/tools`],
        ] as const) {
          await page.goto(path);
          await page.screenshot({ path: `${process.env.TRUTH_SCREENSHOTS}/${name}-${width}-${scheme}.png`, fullPage: width === 390 });
        }
      }
  }
});
