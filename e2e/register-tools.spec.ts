import { expect, test, type Page } from "@playwright/test";
import { createKeyViaUi, createProjectViaUi, unique } from "./helpers";
import { statePath } from "./state";

// Tools without a schema: calls stored unchecked show on the tools page and Settings → Connect
// with the ways to give a schema; an admin pastes the definitions (an MCP tools/list result) and
// re-checks the stored calls, with JavaScript and without.
test.use({ storageState: statePath("admin.json"), viewport: { width: 1360, height: 900 } });

const inputSchema = {
  type: "object",
  properties: { loannumber: { type: "string", pattern: "^[0-9]{4,8}$" } },
  required: ["loannumber"],
  additionalProperties: false,
};
const toolsList = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "getloan", description: "One loan's status", inputSchema }] } }, null, 2);

/** A new project with three unchecked calls of getloan (two of them invalid under the schema above), ten minutes ago; `madeUp` adds a call of a tool name the model made up before them. */
async function projectWithUncheckedCalls(page: Page, madeUp?: string) {
  const slug = await createProjectViaUi(page, unique("Unchecked"));
  const key = await createKeyViaUi(page, slug, "unchecked e2e");
  const timestamp = new Date(Date.now() - 10 * 60_000).toISOString();
  const event = (id: string, step: number, args: unknown) => ({
    id,
    runId: "r1",
    step,
    timestamp,
    model: { name: "scripted" },
    tool: "getloan",
    arguments: args,
  });
  const events = [event("u0", 1, { loannumber: 4471 }), event("u1", 2, { loan: "4471" }), event("u2", 3, { loannumber: "4471" })];
  if (madeUp) events.unshift({ ...event("m0", 0, { loannumber: "4471" }), tool: madeUp });
  const sent = await page.request.post("/api/trpc/ingest.batch", { headers: { Authorization: `Bearer ${key}` }, data: { events } });
  expect(sent.status()).toBe(200);
  expect((await sent.json()).result.data).toMatchObject({ accepted: events.length });
  return slug;
}

test("pasted definitions register the tool and a re-check gives its stored calls their verdicts", async ({ page }) => {
  test.setTimeout(120_000);
  const slug = await projectWithUncheckedCalls(page);

  // the overview says where the first calls landed and why they are unchecked, with the way to the form
  await page.goto(`/p/${slug}`);
  const first = page.getByTestId("first-calls");
  await expect(first).toContainText("landed at");
  await expect(first).toContainText("in the range shown");
  await expect(first).toContainText("3 of its calls are unchecked");
  await expect(first.getByRole("link", { name: "Paste the tool definitions" })).toHaveAttribute("href", `/p/${slug}/tools#register-tools`);

  await page.goto(`/p/${slug}/settings/connect`);
  const onConnect = page.getByTestId("unregistered-tools");
  await expect(onConnect.getByTestId("unregistered-tool")).toContainText(["getloan"]);
  await expect(onConnect).toContainText("stores every call unchecked");
  await expect(onConnect.getByTestId("schema-ways")).toContainText("tools.register");

  await page.goto(`/p/${slug}/tools`);
  const row = page.getByTestId("unregistered-tool").filter({ hasText: "getloan" });
  await expect(row).toContainText("3");
  // a refusal says what was wrong and what was sent
  await page.getByLabel("Tool definitions (JSON)").fill("{name: getloan}");
  await page.getByRole("button", { name: "Register", exact: true }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "not valid JSON" });
  await expect(refusal).toContainText('you sent "{name: getloan}"');

  await page.getByLabel("Tool definitions (JSON)").fill(toolsList);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page.getByText("Registered getloan.")).toBeVisible();
  await page.getByRole("button", { name: "Re-check the calls of getloan" }).click();
  await expect(page.getByTestId("recheck-result")).toHaveText(
    /Re-checked 3 calls of getloan against version [0-9a-f]{12}: 2 invalid \(.+\), 1 valid; 3 verdicts changed\./,
  );

  // the dashboards follow: the tool's invalid rate is 2 of 3, and it no longer lacks a schema
  await page.reload();
  await expect(page.getByTestId("unregistered-tool")).toHaveCount(0);
  await expect(page.getByTestId("tool-row").filter({ hasText: "getloan" })).toContainText("66.7");

  // the dry run tests a looser schema (numbers accepted too) and registers it, after asking, with the way back to the tool page
  await page.goto(`/p/${slug}/tools/getloan#dry-run`);
  const panel = page.getByTestId("dry-run");
  const looser = { ...inputSchema, properties: { loannumber: { type: ["string", "integer"], pattern: "^[0-9]{4,8}$" } } };
  await panel.getByTestId("dry-run-schema").fill(JSON.stringify(looser, null, 2));
  await panel.getByTestId("dry-run-start").click();
  await expect(panel.getByTestId("dry-run-fixed")).toHaveText("1", { timeout: 60_000 });
  await panel.getByRole("button", { name: "Register this schema for getloan" }).click();
  await expect(panel.getByTestId("dry-run-register")).toContainText("Register it as getloan's current schema?");
  await panel.getByRole("button", { name: "Register this schema for getloan, confirmed" }).click();
  await expect(panel.getByTestId("dry-run-registered")).toContainText(/^Registered: version [0-9a-f]{7} of getloan is now its current schema/);
  const version = /version ([0-9a-f]{7})/.exec((await panel.getByTestId("dry-run-registered").textContent())!)![1]!;
  // the page around the panel is refreshed: its versions list the new one without a reload
  await expect(page.getByTestId("schema-versions").locator("li")).toHaveCount(2);
  await panel.getByRole("link", { name: "See its versions" }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/tools/getloan#versions$`));
  await expect(page.getByTestId("schema-versions").locator("li").first()).toContainText(version);
});

test("a made-up tool name's call stored before any schema becomes an unknown-tool call on its own re-check", async ({ page }) => {
  test.setTimeout(120_000);
  const slug = await projectWithUncheckedCalls(page, "getloans");
  await page.goto(`/p/${slug}/tools`);
  const madeUp = page.getByTestId("unregistered-tool").filter({ hasText: "getloans" });
  await expect(madeUp).toContainText("1");
  // no schema at all yet: nothing to re-check against, so no button
  await expect(madeUp.getByRole("button")).toHaveCount(0);

  await page.getByLabel("Tool definitions (JSON)").fill(toolsList);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await page.getByRole("button", { name: "Re-check the calls of getloan", exact: true }).click();
  await expect(page.getByTestId("recheck-result")).toContainText("Re-checked 3 calls of getloan");
  await page.reload();
  // read from the answer: the page refreshes after a re-check, and getloans then leaves "Tools
  // without a schema" (its call is checked now), taking the shown result with it, sooner or later
  const answer = page.waitForResponse((r) => r.url().includes("tools.recheck") && r.request().method() === "POST");
  await madeUp.getByRole("button", { name: "Re-check the calls of getloans" }).click();
  expect(JSON.stringify(await (await answer).json())).toContain(
    "Re-checked 1 call of getloans, which has no schema while this project has others: 1 invalid (Unknown tool 1), 0 valid; 1 verdict changed. If it is a real tool, register its schema.",
  );
  await page.reload();
  await expect(page.getByTestId("unknown-tools")).toContainText("getloans");
});

test("without JavaScript: a pasted JSON Schema under the tool's name, then the re-check, each a form post", async ({ browser, page }) => {
  test.setTimeout(120_000);
  const slug = await projectWithUncheckedCalls(page);
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: statePath("admin.json") });
  const early = await noScript.newPage();
  await early.goto(`/p/${slug}/tools/getloan`);
  await early.getByLabel("Tool definitions (JSON)").fill(JSON.stringify(inputSchema));
  await expect(early.getByLabel("Tool name (for a plain JSON Schema)")).toHaveValue("getloan");
  await early.getByRole("button", { name: "Register", exact: true }).click();
  await expect(early).toHaveURL(/form=register-tools/);
  await expect(early.getByText("Registered getloan.")).toBeVisible();
  await early.getByRole("button", { name: "Re-check the calls of getloan" }).click();
  await expect(early).toHaveURL(/form=recheck-tool/);
  await expect(early.getByTestId("recheck-result")).toContainText("Re-checked 3 calls of getloan");
  await expect(early.getByTestId("recheck-result")).toContainText("2 invalid");
  await noScript.close();
});

test("Settings → Connect says per export why spans gave nothing", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Reasons"));
  const key = await createKeyViaUi(page, slug, "reasons e2e");
  const at = String(BigInt(Date.now() - 60_000) * 1_000_000n);
  const chat = (spanId: string) => ({
    traceId: "5b8efff798038103d269b633813fc60c",
    spanId,
    name: "chat gpt-4o-mini",
    kind: 3,
    startTimeUnixNano: at,
    endTimeUnixNano: at,
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
      { key: "gen_ai.request.model", value: { stringValue: "gpt-4o-mini" } },
    ],
  });
  const sent = await page.request.post("/v1/traces", {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: {
      resourceSpans: [
        { scopeSpans: [{ scope: { name: "opentelemetry.instrumentation.openai_v2" }, spans: [chat("00000000000000a1"), chat("00000000000000a2")] }] },
      ],
    },
  });
  expect(sent.status()).toBe(200);
  const answer = await sent.json();
  expect(answer.partialSuccess.errorMessage).toContain("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only");

  await page.goto(`/p/${slug}/settings/connect`);
  const latest = page.getByTestId("otlp-export").first();
  await expect(latest).toContainText("2 spans · 0 calls stored · 0 rejected");
  await expect(latest.locator('[data-reason="no_messages"]')).toHaveText(answer.partialSuccess.errorMessage);
});
