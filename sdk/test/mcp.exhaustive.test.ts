import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { prisma } from "../../server/db/client";
import { httpAppForTests } from "../../test/http-app";
import { makeProject } from "../../test/fixtures";
import { everythingTour, storedCalls } from "./mcp-helpers";
import { cli } from "./mcp-processes";

const server = httpAppForTests();
vi.setConfig({ testTimeout: 90_000 }); // each test starts real servers, through tsx, on a loaded machine
const require = createRequire(import.meta.url);
const serverBin = (name: string) => require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);
const hostileServer = path.resolve(import.meta.dirname, "fixtures/hostile-mcp-server.mjs");
const work = mkdtempSync(path.join(tmpdir(), "toolgate-mcp-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Session = { client: Client; stderr: () => string; close: () => Promise<void> };

/** The real SDK client over stdio, to `command` directly or through `toolgate mcp` (from the SDK's sources). */
async function connect(command: string[], options: { gateway?: string[]; env?: Record<string, string>; sampling?: boolean } = {}): Promise<Session> {
  const args = options.gateway ? ["--import", "tsx", cli, "mcp", ...options.gateway, "--", process.execPath, ...command] : command;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "toolgate-test-client", version: "1.2.3" }, { capabilities: options.sampling ? { sampling: {} } : {} });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

const gatewayEnv = (apiKey: string) => ({ TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: apiKey });
const node = (file: string, ...args: string[]) => [file, ...args];

describe("toolgate mcp in front of @modelcontextprotocol/server-filesystem", () => {
  it("refuses an invalid write_file (the file is not written), forwards the corrected one, and Toolgate holds every call and the schemas", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const dir = mkdtempSync(path.join(work, "fs-"));
    const file = path.join(dir, "notes.txt");
    const session = await connect(node(serverBin("server-filesystem"), dir), { gateway: ["--run-id", "mcp-fs-run"], env: gatewayEnv(key) });

    const missing = await session.client.callTool({ name: "write_file", arguments: { path: file } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toBe("Error: 'content' is required by write_file and was not sent. Add 'content' (string).");
    expect(existsSync(file)).toBe(false);

    const wrongType = await session.client.callTool({ name: "write_file", arguments: { path: file, content: 42 } });
    expect(wrongType.isError).toBe(true);
    expect((wrongType.content as { text: string }[])[0]!.text).toMatch(/^Error: 'content' must be a string, you sent the number 42\. Send it as "42"\./);
    expect(existsSync(file)).toBe(false);

    const written = await session.client.callTool({ name: "write_file", arguments: { path: file, content: "hello" } });
    expect(written.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("hello");

    // an unknown tool is answered as a tool result, which clients pass to the model (a JSON-RPC error, they may not)
    const unknown = await session.client.callTool({ name: "ls<|channel|>commentary", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toMatch(/^Error: no tool named 'ls<\|channel\|>commentary'\. \S/);
    await session.close();

    const calls = await storedCalls(p.project.id, 4, `the four calls in Toolgate (the gateway said: ${session.stderr()})`);
    const tool = "secure-filesystem-server/write_file";
    expect(calls.map((c) => [c.tool, c.runId, c.step, c.valid, c.category])).toEqual([
      [tool, "mcp-fs-run", 0, false, "missing_argument"],
      [tool, "mcp-fs-run", 1, false, "wrong_type"],
      [tool, "mcp-fs-run", 2, true, null],
      ["secure-filesystem-server/ls<|channel|>commentary", "mcp-fs-run", 3, false, "unknown_tool"],
    ]);
    expect(calls[1]!.correctsId).toBe(calls[0]!.id);
    expect(calls[2]!.correctsId).toBe(calls[1]!.id);
    expect(calls[2]).toMatchObject({ resultStatus: "ok", modelName: "toolgate-test-client", modelVersion: "1.2.3" });
    expect(calls[2]!.resultSummary).toMatch(/Successfully wrote to/);
    expect(calls[0]).toMatchObject({
      resultStatus: null,
      resultSummary: null,
      latencyMs: null,
      message: "Error: 'content' is required by write_file and was not sent. Add 'content' (string).",
    });
    expect(calls[0]!.metadata).toMatchObject({
      mcp_server: "secure-filesystem-server",
      mcp_client: "toolgate-test-client",
      mcp_client_version: "1.2.3",
      model_from: "mcp clientInfo",
    });

    const schemas = await prisma().toolDefinition.findMany({ where: { projectId: p.project.id } });
    expect(schemas.find((s) => s.name === tool)).toMatchObject({ source: "mcp:secure-filesystem-server" });
    expect(schemas.length).toBeGreaterThanOrEqual(10);
    expect(calls[2]!.toolVersion).toBe(schemas.find((s) => s.name === tool)!.version);
    // the session's tool set: every listed tool under the name it is registered by (context cost counts the run with them)
    const carried = await prisma().runToolSet.findUnique({ where: { projectId_runId: { projectId: p.project.id, runId: "mcp-fs-run" } } });
    const set = await prisma().toolSet.findUnique({ where: { projectId_hash: { projectId: p.project.id, hash: carried!.setHash } } });
    expect([...set!.tools].sort()).toEqual([...new Set(schemas.map((s) => s.name))].sort());
  });

  it("stores the calls made while Toolgate was stopped once it is back, each once", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const dir = mkdtempSync(path.join(work, "fs-outage-"));
    const session = await connect(node(serverBin("server-filesystem"), dir), { gateway: [], env: gatewayEnv(key) });
    await server.app.stop();
    try {
      expect((await session.client.callTool({ name: "write_file", arguments: { path: path.join(dir, "a.txt") } })).isError).toBe(true);
      await session.client.callTool({ name: "write_file", arguments: { path: path.join(dir, "a.txt"), content: "x" } });
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the reporter's first attempts fail
    } finally {
      await server.app.start();
    }
    await session.close();
    const calls = await storedCalls(p.project.id, 2, `both calls after the outage (the gateway said: ${session.stderr()})`);
    expect(calls.map((c) => c.valid)).toEqual([false, true]);
    expect(session.stderr()).toMatch(/\[toolgate\] network: .*cannot reach/);
  });

  it("works the same with Toolgate down, and --enforce report forwards an invalid call", async () => {
    const dir = mkdtempSync(path.join(work, "fs-down-"));
    const file = path.join(dir, "a.txt");
    const env = { TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_nothing_listens_here" };
    const session = await connect(node(serverBin("server-filesystem"), dir), { gateway: [], env });
    expect((await session.client.callTool({ name: "write_file", arguments: { path: file } })).isError).toBe(true);
    expect(existsSync(file)).toBe(false);
    await session.client.callTool({ name: "write_file", arguments: { path: file, content: "x" } });
    expect(readFileSync(file, "utf8")).toBe("x");
    await session.close();

    const report = await connect(node(serverBin("server-filesystem"), dir), { gateway: ["--enforce", "report"] });
    const forwarded = await report.client.callTool({ name: "write_file", arguments: { path: path.join(dir, "b.txt"), content: 7 } });
    // the server's own answer (its SDK validates too), not the gateway's message
    expect(JSON.stringify(forwarded)).not.toContain("Send it as");
    await report.close();
  });
});

describe("toolgate mcp in front of @modelcontextprotocol/server-everything", () => {
  it("tools, resources, prompts, progress and notifications behave the same through the gateway as directly", async () => {
    const direct = await connect(node(serverBin("server-everything")));
    const viaGateway = await connect(node(serverBin("server-everything")), { gateway: [] });
    const [a, b] = [await everythingTour(direct.client), await everythingTour(viaGateway.client)];
    await direct.close();
    await viaGateway.close();
    expect(b).toMatchObject({ progressed: true, logged: true });
    expect(b).toEqual(a);
    expect(viaGateway.stderr()).toContain("[toolgate] TOOLGATE_URL or TOOLGATE_API_KEY is not set");
  });

  it("passes a sampling request from the server to the client and its answer back", async () => {
    const session = await connect(node(serverBin("server-everything")), { gateway: [], sampling: true });
    let asked = "";
    session.client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked = JSON.stringify(request.params.messages);
      return { model: "test-model", role: "assistant", content: { type: "text", text: "sampled answer" } };
    });
    const tools = (await session.client.listTools()).tools.map((t) => t.name);
    const sampling = tools.find((name) => name.includes("sampling"));
    expect(sampling, `a sampling tool among ${tools.join(", ")}`).toBeDefined();
    const result = await session.client.callTool({ name: sampling!, arguments: { prompt: "Say hi", maxTokens: 10 } });
    expect(asked).toContain("Say hi");
    expect(JSON.stringify(result)).toContain("sampled answer");
    await session.close();
  });
});

describe("toolgate mcp in front of @modelcontextprotocol/server-memory", () => {
  it("names tools with --namespace and gates them", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const session = await connect(node(serverBin("server-memory")), {
      gateway: ["--namespace", "memory", "--model", "claude-test@2026-01"],
      env: { ...gatewayEnv(key), MEMORY_FILE_PATH: path.join(work, "memory.jsonl") },
    });
    const bad = await session.client.callTool({ name: "create_entities", arguments: { entities: "Alice" } });
    expect(bad.isError).toBe(true);
    const good = await session.client.callTool({
      name: "create_entities",
      arguments: { entities: [{ name: "Alice", entityType: "person", observations: [] }] },
    });
    expect(good.isError).toBeFalsy();
    await session.close();
    const calls = await storedCalls(p.project.id, 2, `two calls (the gateway said: ${session.stderr()})`);
    expect(calls.map((c) => [c.tool, c.valid, c.modelName, c.modelVersion])).toEqual([
      ["memory/create_entities", false, "claude-test", "2026-01"],
      ["memory/create_entities", true, "claude-test", "2026-01"],
    ]);
    const sources = await prisma().toolDefinition.findMany({ where: { projectId: p.project.id }, select: { source: true }, distinct: ["source"] });
    expect(sources).toEqual([{ source: "mcp:memory-server" }]);
  });
});

describe("a hostile server cannot hang the gateway or get an invalid call through", () => {
  const hostile = async (mode: string, gateway: string[] = []) => {
    const log = path.join(work, `${mode}${gateway.join("")}-forwarded.jsonl`);
    const session = await connect(node(hostileServer, mode, log), { gateway });
    const forwarded = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : []);
    return { session, forwarded };
  };
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

  it("a regex-bomb pattern is checked in linear time and the call refused", async () => {
    const { session, forwarded } = await hostile("regex-bomb");
    const refused = await session.client.callTool({ name: "lookup", arguments: { key: `${"a".repeat(50_000)}!` } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/must match the pattern/);
    expect(text(await session.client.callTool({ name: "lookup", arguments: { key: "aaa" } }))).toBe("FORWARDED lookup");
    await session.close();
    expect(forwarded()).toHaveLength(1);
  });

  it("a 10 MB schema is not used: its calls go on unchecked, saying why (--enforce strict refuses them); the other tools are gated", async () => {
    const { session, forwarded } = await hostile("huge-schema");
    expect(text(await session.client.callTool({ name: "huge", arguments: { field_0: "x" } }))).toBe("FORWARDED huge");
    expect((await session.client.callTool({ name: "small", arguments: { id: "1" } })).isError).toBe(true);
    expect(text(await session.client.callTool({ name: "small", arguments: { id: 1 } }))).toBe("FORWARDED small");
    await session.close();
    expect(forwarded()).toEqual(['{"name":"huge","arguments":{"field_0":"x"}}', '{"name":"small","arguments":{"id":1}}']);
    expect(session.stderr()).toMatch(/\[toolgate\] forwarding calls of 'huge' unchecked: the server's schema for it cannot be used: /);

    const strict = await hostile("huge-schema", ["--enforce", "strict"]);
    const refused = await strict.session.client.callTool({ name: "huge", arguments: { field_0: "x" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^Error: Toolgate cannot check calls of 'huge': the server's schema for it cannot be used: .*The call was not sent to the server \(--enforce strict\)\.$/,
    );
    await strict.session.close();
    expect(strict.forwarded()).toEqual([]);
  });

  it("10,000 tools over ten pages are all gated; an unknown name gets a short list", async () => {
    const { session, forwarded } = await hostile("many-tools");
    expect((await session.client.callTool({ name: "tool_9999", arguments: { id: "x" } })).isError).toBe(true);
    expect(text(await session.client.callTool({ name: "tool_9999", arguments: { id: 9 } }))).toBe("FORWARDED tool_9999");
    const unknown = text(await session.client.callTool({ name: "tool_10000", arguments: {} }));
    expect(unknown).toMatch(/no tool named 'tool_10000'/);
    expect(unknown.length).toBeLessThan(1000);
    await session.close();
    expect(forwarded()).toHaveLength(1);
  });

  it("malformed lines from the server are passed on and do not stop the gate", async () => {
    const { session, forwarded } = await hostile("malformed");
    expect((await session.client.callTool({ name: "echo", arguments: { message: 1 } })).isError).toBe(true);
    expect(text(await session.client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("FORWARDED echo");
    await session.close();
    expect(forwarded()).toHaveLength(1);
  });
});
