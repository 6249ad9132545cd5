import { expect, test } from "@playwright/test";
import { createProjectViaUi, unique, createKeyViaUi } from "./helpers";
import { statePath } from "./state";

// Settings → Connect, and OTLP spans through the real Next.js server (/v1/traces is outside the
// page proxy). CONNECT_SHOTS=/tmp/shots saves a screenshot of the page.
test.use({ storageState: statePath("admin.json"), viewport: { width: 1360, height: 900 } });

test("Connect shows the OTLP variables for this server; spans sent to /v1/traces show up in its counters and as calls", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Otlp"));
  const key = await createKeyViaUi(page, slug, "otlp e2e");

  await page.goto(`/p/${slug}/settings/connect`);
  const origin = new URL(page.url()).origin;
  await expect(page.locator("#snippet-env")).toContainText(`OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`);
  await expect(page.locator("#snippet-env")).toContainText('OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer tg_');
  await expect(page.getByText("No span has arrived yet.")).toBeVisible();
  await expect(page.locator("#snippet-mcp-claude")).toContainText(`"TOOLGATE_URL": "${origin}"`);
  await expect(page.locator("#snippet-mcp-vscode")).toContainText('"type": "stdio"');
  await expect(page.locator("#snippet-mcp-remote")).toContainText(`TOOLGATE_URL=${origin} TOOLGATE_API_KEY=tg_`);
  await expect(page.locator("#snippet-mcp-remote")).toContainText("toolgate mcp --listen 127.0.0.1:8808 --upstream https://mcp.example.com/mcp");
  await expect(page.locator("#snippet-mcp-remote-client")).toContainText('"url": "http://127.0.0.1:8808/mcp"');

  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const at = BigInt(Date.now() - 60_000) * 1_000_000n;
  const span = (spanId: string, name: string, attributes: Record<string, string>) => ({
    traceId,
    spanId,
    name,
    kind: 1,
    startTimeUnixNano: String(at),
    endTimeUnixNano: String(at + 1_000_000_000n),
    attributes: Object.entries(attributes).map(([k, v]) => ({ key: k, value: { stringValue: v } })),
  });
  const sent = await page.request.post("/v1/traces", {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span("00f067aa0ba902b7", "chat acme-large", {
                  "gen_ai.operation.name": "chat",
                  "gen_ai.request.model": "acme-large",
                  "gen_ai.output.messages": JSON.stringify([
                    { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "getloan", arguments: { loan: "447" } }] },
                  ]),
                  "gen_ai.tool.definitions": JSON.stringify([
                    {
                      type: "function",
                      name: "getloan",
                      parameters: { type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] },
                    },
                  ]),
                }),
                span("00f067aa0ba902b8", "GET /health", { "http.request.method": "GET" }),
              ],
            },
          ],
        },
      ],
    },
  });
  expect(sent.status()).toBe(200);
  expect(await sent.json()).toEqual({});

  await page.reload();
  const stats = page.getByTestId("otlp-stats");
  await expect(stats).toContainText("Ignored (not generative AI)");
  await expect(stats.locator("dd").nth(1)).toHaveText("2");
  await expect(stats.locator("dd").nth(2)).toHaveText("1");
  if (process.env.CONNECT_SHOTS) await page.screenshot({ path: `${process.env.CONNECT_SHOTS}/settings-connect.png`, fullPage: true });

  await page.goto(`/p/${slug}/tools/getloan#versions`);
  await expect(page.getByTestId("schema-versions")).toContainText("read from OpenTelemetry spans");
  await page.goto(`/p/${slug}/calls?range=all`);
  await expect(page.locator("tr[data-call-id]")).toHaveCount(1);
});

test("Tools names the MCP server of the tools the gateway registered, and filters by server", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Mcp"));
  const key = await createKeyViaUi(page, slug, "mcp e2e");
  const parameters = { type: "object", properties: { q: { type: "string" } } };
  // what `toolgate mcp` sends for two servers (docs/mcp.md), and one schema registered by hand
  const registered = await page.request.post("/api/trpc/tools.register", {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: {
      tools: [
        { name: "notes/add_note", parameters, source: "mcp:notes-server" },
        { name: "memory/create_entities", parameters, source: "mcp:memory-server" },
        { name: "search", parameters },
      ],
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);

  await page.goto(`/p/${slug}/tools?range=7d`);
  const rows = page.getByTestId("tool-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "notes/add_note" })).toContainText("MCP server notes-server");
  await expect(rows.filter({ hasText: "search" })).not.toContainText("MCP server");
  await expect(page.locator("form[data-ready]")).toHaveCount(1);
  await page.getByLabel("MCP server").selectOption("notes-server");
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/tools\\?range=7d&server=notes-server$`));
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("notes/add_note");
});

test("the empty overview and Connect show the SDK quick start in TypeScript and Python, as tabs, without widening a phone's page", async ({ page }) => {
  test.setTimeout(90_000);
  const slug = await createProjectViaUi(page, unique("Sdk"));
  /** The page is no wider than the window: long code lines scroll inside their block. */
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  for (const [path, typescript, python] of [
    [`/p/${slug}`, "#sdk-example", "#sdk-python-example"],
    [`/p/${slug}/settings/connect`, "#snippet-sdk-typescript", "#snippet-sdk-python"],
  ] as const) {
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.goto(path);
    const origin = new URL(page.url()).origin;
    const key = path.endsWith("connect") ? "tg_…" : "<your key>";
    const tabs = page.getByRole("tablist", { name: "SDK language" });
    const tsTab = tabs.getByRole("tab", { name: "TypeScript" });
    const pyTab = tabs.getByRole("tab", { name: "Python" });
    await expect(tsTab).toHaveAttribute("aria-selected", "true");
    await expect(page.locator(typescript)).toBeVisible();
    await expect(page.locator(typescript)).toContainText("// npm install @toolgate/sdk");
    await expect(page.locator(typescript)).toContainText(`url: "${origin}"`);
    await expect(page.locator(python)).toBeHidden();

    // the keyboard: the selected tab takes the focus, the arrow keys move to the next one
    await tsTab.focus();
    await page.keyboard.press("ArrowRight");
    await expect(pyTab).toBeFocused();
    await expect(pyTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toHaveCount(1);
    const snippet = page.locator(python);
    await expect(snippet).toBeVisible();
    await expect(snippet).toContainText("# pip install toolgate-monitor");
    await expect(snippet).toContainText("from toolgate import Toolgate");
    await expect(snippet).toContainText(`url="${origin}"`);
    await expect(snippet).toContainText(`api_key="${key}"`);
    await expect(page.locator(typescript)).toBeHidden();
    if (process.env.CONNECT_SHOTS)
      await page.screenshot({ path: `${process.env.CONNECT_SHOTS}/sdk-${path.endsWith("connect") ? "connect" : "empty"}-1360.png`, fullPage: true });

    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await expect(snippet).toBeVisible();
      expect(await fits(), `${path} at ${width} px`).toBeLessThanOrEqual(0);
      if (process.env.CONNECT_SHOTS)
        await page.screenshot({ path: `${process.env.CONNECT_SHOTS}/sdk-${path.endsWith("connect") ? "connect" : "empty"}-${width}.png`, fullPage: true });
    }
    await page.keyboard.press("Home");
    await expect(tsTab).toHaveAttribute("aria-selected", "true");
  }
});
