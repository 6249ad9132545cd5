import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "../db/client";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { loadDemoData } from "../services/demo/load-demo";

// Toolgate's MCP server (server/http/agent-mcp.ts) through the real MCP SDK client: over
// Streamable HTTP on the app's /api/mcp, and over stdio through `toolgate mcp-server` (the SDK's
// CLI from its sources), on three days of demo data in a real PostgreSQL.

const app = httpAppForTests();
vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });
const cli = path.resolve(import.meta.dirname, "../../sdk/src/cli.ts");

const TOOLS = [
  "failing_tools",
  "tool_failure_patterns",
  "confusable_tools",
  "lint_tool_definitions",
  "context_cost",
  "error_messages",
  "get_call",
  "get_run",
  "dry_run_schema",
];

type Demo = { projectId: string; slug: string; readKey: string; ingestKey: string; otherReadKey: string; callId: string; runId: string };
let demo: Demo;
beforeAll(async () => {
  const p = await makeProject();
  await loadDemoData(p.project, { now: new Date(), days: 3, runsPerDay: 60 });
  const other = await makeProject();
  const invalid = await prisma().toolCall.findFirstOrThrow({
    where: { projectId: p.project.id, tool: "getloan", valid: false, correctionId: { not: null } },
    select: { id: true, runId: true },
  });
  demo = {
    projectId: p.project.id,
    slug: p.project.slug,
    readKey: (await p.key("agent", "read")).key,
    ingestKey: (await p.key("harness", "ingest")).key,
    otherReadKey: (await other.key("agent", "read")).key,
    callId: invalid.id,
    runId: invalid.runId,
  };
});

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

async function overHttp(apiKey?: string) {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const client = new Client({ name: "agent-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.app.url}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

async function overStdio(apiKey: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", cli, "mcp-server"],
    env: { PATH: process.env.PATH ?? "", TOOLGATE_URL: app.app.url, TOOLGATE_API_KEY: apiKey },
    stderr: "pipe",
  });
  const client = new Client({ name: "agent-test-stdio", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => (result as { content: { type: string; text: string }[] }).content.map((c) => c.text).join("\n");

/** Every tool called once with what an agent would send, on the demo data. */
async function everyTool(client: Client) {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, text: textOf(result) };
  };
  return {
    failing: await call("failing_tools", {}),
    byRate: await call("failing_tools", { sort: "invalid_rate", limit: 3 }),
    patterns: await call("tool_failure_patterns", { tool: "getloan" }),
    messages: await call("error_messages", { tool: "getloan" }),
    confusable: await call("confusable_tools", { days: 3 }),
    lint: await call("lint_tool_definitions", { min_severity: "info", limit: 50 }),
    lintOne: await call("lint_tool_definitions", { tool: "getloan" }),
    cost: await call("context_cost", { days: 3, limit: 3 }),
    call: await call("get_call", { id: demo.callId }),
    run: await call("get_run", { runId: demo.runId }),
    dryRun: await call("dry_run_schema", { tool: "listopenloans", parameters: { type: "object", properties: { status: { type: "string" } } }, days: 3 }),
  };
}

/** What the demo project holds (other test files write to the same database at the same time). */
async function stored() {
  const where = { projectId: demo.projectId };
  const [calls, corrected, definitions, keys] = await Promise.all([
    prisma().toolCall.count({ where }),
    prisma().toolCall.count({ where: { ...where, correctionId: { not: null } } }),
    prisma().toolDefinition.count({ where }),
    prisma().apiKey.count({ where }),
  ]);
  return { calls, corrected, definitions, keys };
}

describe.each([
  ["Streamable HTTP (/api/mcp)", overHttp],
  ["stdio (toolgate mcp-server)", overStdio],
])("Toolgate's MCP server over %s", (_, connect) => {
  it("lists its read-only tools, each with a description and typed, bounded parameters", async () => {
    const client = await connect(demo.readKey);
    expect(client.getServerVersion()?.name).toBe("toolgate");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.description!.length, tool.name).toBeGreaterThan(120);
      expect(tool.description, tool.name).toMatch(/Use it|Use /);
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {}))
        expect((schema as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
    }
    const failing = tools.find((t) => t.name === "failing_tools")!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(failing.days).toMatchObject({ type: "integer", minimum: 1, maximum: 90, default: 7 });
    expect(failing.sort).toMatchObject({ enum: ["invalid_calls", "invalid_rate"], default: "invalid_calls" });
  });

  it("answers every tool on the demo data in text with links to the pages, and writes nothing", async () => {
    const client = await connect(demo.readKey);
    const before = await stored();
    const answers = await everyTool(client);
    if (process.env.DUMP)
      console.log(
        Object.values(answers)
          .map((a) => a.text)
          .join("\n-----\n"),
      );
    for (const [name, answer] of Object.entries(answers)) expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
    const base = `${app.app.url}/p/${demo.slug}`;
    expect(answers.failing.text).toMatch(/^Project .*: \d+ calls, \d+ invalid/);
    expect(answers.failing.text).toMatch(/getloan: \d+\/\d+ checked calls invalid = [\d.]+% \(95% CI [\d.]+%–[\d.]+%\)/);
    expect(answers.failing.text).toContain(`${base}/tools/getloan`);
    expect(answers.byRate.text).toContain("Tools by invalid rate:");
    expect(answers.patterns.text).toMatch(/Tool getloan \(schema version \S+\), last 7 days: \d+ invalid calls/);
    expect(answers.patterns.text).toMatch(/recovered on the next call \d+\/\d+/);
    expect(answers.patterns.text).toContain("What to change:");
    expect(answers.patterns.text).toMatch(/Example calls: demo-/);
    expect(answers.patterns.text).toContain(`Each call's page: ${base}/calls/<id>`);
    expect(answers.messages.text).toMatch(/sent \d+×, next call valid [\d.]+%/);
    expect(answers.confusable.text).toMatch(/^(\d+ pairs? of tools models mix up, last 3 days|No pair of tools that models mix up in the last 3 days)/);
    expect(answers.lint.text).toMatch(/^\d+ registered tools, definition score \d+\/100; every finding, worst tool first:/);
    expect(answers.lint.text).toMatch(/^1\. \S+: \d+\/100/m);
    expect(answers.lint.text).toMatch(/^ {3}(error|warning|info) [a-z_]+( at \S+)?: .+/m);
    expect(answers.lint.text).toMatch(/^ {5}Change: /m);
    expect(answers.lint.text).toMatch(/^ {5}\+ /m); // the changed schema or description
    expect(answers.lintOne.text).toMatch(/^Tool getloan: definition score \d+\/100 \(the project's \d+ tools: \d+\/100\)/);
    expect(answers.cost.text).toMatch(
      /^8 registered tool definitions: [\d,]+ tokens in a model call that carries them all \(o200k_base\), [\d,]+ tokens a day over the last 3 days' calls, \$[\d.]+ a day\./,
    );
    // the demo's collections bot says which tools its runs carry, the assistant does not
    expect(answers.cost.text).toMatch(
      /^Counted as: [\d,]+ of [\d,]+ calls with the tool set their run carried \(1 distinct set\), the others with the whole registered set\.$/m,
    );
    expect(answers.cost.text).toMatch(
      /^- acme-large 2026-11: [\d,]+ tokens a call on average \([\d,]+ calls with their run's set\) with o200k_base \(an estimate: .*\), [\d.]+ calls a day, [\d.]+% of its input tokens, \$[\d.]+ a day \(input price fitted \$[\d.]+ per million tokens\)$/m,
    );
    expect(answers.cost.text).toMatch(/^1\. \S+: [\d,]+ tokens a call, \$[\d.]+ a day, called [\d,]+ times \(\$[\d.]+ of context per call of it\)\. /m);
    expect(answers.cost.text).toContain("(5 more tools not shown; raise limit to see them.)");
    expect(answers.call.text).toContain(`Call ${demo.callId}: getloan`);
    expect(answers.call.text).toContain("Corrected by");
    expect(answers.call.text).toContain(`${base}/runs/${demo.runId}`);
    expect(answers.run.text).toContain(`Run ${demo.runId}:`);
    expect(answers.dryRun.text).toMatch(/Replayed \d+ calls of listopenloans .*: \d+ fixed, \d+ broken/);
    expect(await stored()).toEqual(before);
  });

  it("shows a key of another project nothing of this one", async () => {
    const client = await connect(demo.otherReadKey);
    const answers = await everyTool(client);
    expect(answers.failing.text).toContain("No calls in this window.");
    expect(answers.failing.text).not.toContain("getloan");
    expect(answers.patterns.text).toContain(": 0 invalid calls in 0 patterns");
    expect(answers.messages.text).toMatch(/^0 message templates/);
    expect(answers.confusable.text).toBe("No pair of tools that models mix up in the last 3 days.");
    expect(answers.call).toEqual({ isError: true, text: `NOT_FOUND: No call "${demo.callId}" in this project.` });
    expect(answers.run).toEqual({ isError: true, text: `NOT_FOUND: No run "${demo.runId}" in this project.` });
    expect(answers.dryRun.text).toMatch(/Replayed 0 calls/);
  });
});

describe("Toolgate's MCP server refuses", () => {
  it("to lint a tool that is not registered, naming the nearest one and the registered tools", async () => {
    const client = await overHttp(demo.readKey);
    const result = await client.callTool({ name: "lint_tool_definitions", arguments: { tool: "getlaon" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^No registered tool named "getlaon"\. Did you mean getloan\? Registered: .*getloan/);
  });

  it("a call or run id PostgreSQL cannot store, on the read API: 400 saying what is wrong (it was a 500)", async () => {
    for (const [procedure, input] of [
      ["calls.get", { id: "demo-\u0000" }],
      ["calls.getRun", { runId: "run-\u0000" }],
    ] as const) {
      const response = await fetch(`${app.app.url}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${demo.readKey}` },
        body: JSON.stringify(input),
      });
      expect(response.status, procedure).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message, procedure).toMatch(/Invalid input: .*(id|runId).*NUL/);
    }
  });

  it("a request without a key (401) and a key of the ingest scope (403), saying what to use", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const post = (headers: Record<string, string>) =>
      fetch(`${app.app.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(ping),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect((await post({ authorization: `Bearer ${demo.ingestKey}` })).status).toBe(403);
    await expect(overHttp()).rejects.toThrow(/No API key[\s\S]*needs Authorization: Bearer <a read-scope API key>/);
    await expect(overHttp(demo.ingestKey)).rejects.toThrow(/has the ingest scope; Toolgate's MCP server needs a key of the read scope/);
    await expect(overStdio(demo.ingestKey)).rejects.toThrow(/needs a key of the read scope/);
  });

  it("a browser's request from an origin other than this machine's, even with a read key (403: DNS rebinding)", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${app.app.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${demo.readKey}`, ...headers },
        body: JSON.stringify(initialize),
      });
    // a page on evil.example.com, whose name the attacker points at 127.0.0.1: Host and Origin are its own
    const rebound = await post({ host: "evil.example.com", origin: "http://evil.example.com" });
    expect(rebound.status).toBe(403);
    expect(((await rebound.json()) as { error: { message: string } }).error.message).toBe(
      "Invalid Origin: http://evil.example.com. Toolgate's MCP server answers browsers only from this machine (localhost, 127.0.0.1, [::1]) or from TOOLGATE_PUBLIC_URL (not set); MCP clients send no Origin.",
    );
    expect((await post({ origin: "null" })).status).toBe(403);
    expect((await post({ origin: "https://toolgate.example.com" })).status).toBe(403);
    for (const origin of [app.app.url, "http://localhost:3000", "http://[::1]:3000"]) expect((await post({ origin })).status, origin).toBe(200);
    expect((await post({})).status).toBe(200); // MCP clients send no Origin
  });

  it("a tool that does not exist: the server has no tool that writes", async () => {
    const client = await overHttp(demo.readKey);
    const result = await client.callTool({ name: "register_tools", arguments: { tools: [] } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Tool register_tools not found");
  });

  it("GET and DELETE (no sessions, no server stream) with 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${app.app.url}/api/mcp`, { method, headers: { authorization: `Bearer ${demo.readKey}` } });
      expect(response.status, method).toBe(405);
    }
  });
});
