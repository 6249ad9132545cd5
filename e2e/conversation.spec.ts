import { expect, test } from "@playwright/test";
import { demoProject } from "./state";

// The run page's Conversation section on the demo's run that arrived over OTLP with its messages
// (server/services/demo/demo-conversation.ts), and on a run sent with ingest.batch, which has none.
const RUN = "demo-conversation-4471";

test("a run's conversation interleaves the messages with its calls, folds long texts, and links each call", async ({ page }) => {
  const { slug } = demoProject();
  await page.goto(`/p/${slug}/runs/${RUN}`);
  const section = page.getByTestId("run-conversation");
  await expect(section.getByRole("heading", { name: "Conversation" })).toBeVisible();
  const messages = section.getByTestId("conversation-message");
  // 5 model calls carried 35 messages: the conversation has 11
  await expect(messages).toHaveCount(11);
  expect(await messages.evaluateAll((els) => els.map((e) => e.getAttribute("data-role")))).toEqual([
    "system",
    "user",
    "assistant",
    "tool",
    "assistant",
    "tool",
    "assistant",
    "tool",
    "assistant",
    "tool",
    "assistant",
  ]);
  // each turn's call under it, with its verdict: the loan number sent as a number first
  const calls = section.getByTestId("conversation-call");
  await expect(calls).toHaveCount(4);
  await expect(calls.nth(0)).toContainText("getloan");
  await expect(calls.nth(0)).toContainText("invalid");
  await expect(calls.nth(1)).toContainText("valid");
  await expect(messages.nth(3)).toContainText("of getloan");

  // the loan record is long: folded behind its start until opened
  const fold = messages.nth(5).getByTestId("conversation-fold");
  await expect(fold).not.toHaveAttribute("open", "");
  await expect(fold.getByText('"history"')).toBeHidden();
  await fold.locator("summary").click();
  await expect(fold.getByText(/"history"/)).toBeVisible();

  await calls.nth(0).getByRole("link", { name: "getloan" }).click();
  await expect(page).toHaveURL(/\/calls\/otel%3A/);
});

test("the conversation folds and opens without JavaScript, and fits a phone's width", async ({ browser }) => {
  const { slug } = demoProject();
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
    storageState: test.info().project.use.storageState,
  });
  const page = await context.newPage();
  await page.goto(`/p/${slug}/runs/${RUN}`);
  const fold = page.getByTestId("conversation-fold").first();
  await fold.locator("summary").click();
  await expect(fold.getByText(/"history"/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test("a run sent without messages says so and how to get them", async ({ page }) => {
  const { slug } = demoProject();
  await page.goto(`/p/${slug}/calls?valid=invalid`);
  const runIds = await page.getByTestId("call-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run-id")));
  const runId = runIds.find((id) => id && id !== RUN)!;
  await page.goto(`/p/${slug}/runs/${encodeURIComponent(runId)}`);
  const empty = page.getByTestId("conversation-empty");
  await expect(empty).toContainText("Calls sent with ingest.batch or the SDKs carry no messages.");
  await expect(empty).toContainText("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
  await expect(empty.getByRole("link", { name: "Settings → Connect" })).toHaveAttribute("href", `/p/${slug}/settings/connect`);
});
