import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../server/db/client";
import { makeProject } from "../test/fixtures";
import { httpAppForTests } from "../test/http-app";
import { Toolgate, withToolgate, type HandlerContext, type ReporterError, type ReporterStats } from "../sdk/src/index";

/*
 * Issue 31.5: each adapter of the Python SDK shows in Toolgate exactly what the TypeScript SDK's
 * equivalent shows. One scripted model on 127.0.0.1 plays the same conversation to both SDKs:
 *   - the Python SDK through its client tool loops (openai_tool_loop, anthropic_tool_loop) with the
 *     real `openai` and `anthropic` packages from PyPI (tests_integration/side_by_side.py, run with the
 *     virtualenv scripts/test-python.sh makes), into one project;
 *   - the TypeScript SDK through Run.handle, given the tool calls the real `openai` and
 *     `@anthropic-ai/sdk` npm clients read from the same model, into another project of the same Toolgate.
 * Then every column Toolgate stored for a call is compared, row by row in step order, except the ones
 * that differ by design (BY_DESIGN below says why each does).
 *
 * The same calls also go, as MCP tools/call requests of each SDK's real MCP client, to a server of each
 * MCP SDK with the Toolgate middleware installed: the Python SDK's ToolgateMiddleware (`mcp` package) and
 * the TypeScript SDK's withToolgate (@modelcontextprotocol/sdk), each into a project of its own, and compared the
 * same way: tool names, verdicts, results, summaries and metadata (issue 31: they differed in the first four).
 */

const runProcess = promisify(execFile);
const here = import.meta.dirname;
const venv = path.resolve(here, process.env.TOOLGATE_PY_VENV ?? ".venv-test");
const server = httpAppForTests();

const MODEL = { provider: "scripted", name: "scripted-large", version: "2026-12" };
const RUN_IDS = { openai: "side-by-side-openai", anthropic: "side-by-side-anthropic" };
const METADATA = { scenario: "side-by-side" };
const PROMPT = "What about loan 4471?";
/** Loans the handlers of both halves treat apart, so that every kind of result is compared: a lookup that fails, one that finds nothing, one that never answers. */
const LOANS = { missing: "0000", empty: "0001", slow: "0002" };
/** The dispatchers' handler timeout (both halves): long enough for the echoing handlers on a busy machine. */
const TIMEOUT_MS = 1000;
const TOOLS = [
  {
    name: "getloan",
    description: "Look up one loan by its loan number.",
    parameters: {
      type: "object",
      properties: { loannumber: { type: "string", pattern: "^[0-9]{4}$" }, includehistory: { type: "boolean" } },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
  {
    name: "listpayments",
    description: "The latest payments of one loan.",
    parameters: {
      type: "object",
      properties: { loannumber: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 50 } },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
];

/** The twin of side_by_side.py's handler: echoes the call, or fails, finds nothing or waits until cancelled. */
const handlerOf = (tool: string) => (args: Record<string, unknown>, context: HandlerContext) => {
  switch (args.loannumber) {
    case LOANS.missing:
      throw new Error(`no loan ${LOANS.missing}`);
    case LOANS.empty:
      return { found: [] };
    case LOANS.slow:
      // aborted when the call runs past its timeout
      return new Promise((resolve) => context.signal.addEventListener("abort", () => resolve("too late")));
    default:
      return { tool, ...args };
  }
};

/* ---------- the scripted model: per turn (the number of assistant messages so far), the calls it writes ---------- */

type ScriptedCall = { name: string; arguments: string };
const call = (name: string, args: Record<string, unknown>): ScriptedCall => ({ name, arguments: JSON.stringify(args) });

const SHARED_TURNS: ScriptedCall[][] = [
  [call("getloan", { loannumber: "4471" })], // valid: the handler runs
  [call("getloan", { loannumber: 4471 })], // wrong_type at /loannumber
  [call("getloan", { loannumber: "4471" })], // the model's correction of it
  [call("getloans", { loannumber: "4471" })], // a tool that does not exist
  // two calls in one turn: the first corrects the unknown tool, the second is out of range
  [call("getloan", { loannumber: "4471", includehistory: true }), call("listpayments", { loannumber: "4471", limit: 500 })],
  // two calls again: the correction of the second, and a valid call whose handler fails
  [call("listpayments", { loannumber: "4471", limit: 50 }), call("getloan", { loannumber: LOANS.missing })],
  // two valid calls whose handlers find nothing and never answer (an empty result, a timeout)
  [call("listpayments", { loannumber: LOANS.empty }), call("getloan", { loannumber: LOANS.slow })],
];
const SCRIPTS = {
  openai: [
    ...SHARED_TURNS,
    // arguments that are not JSON, and their correction: only Chat Completions can carry them (Anthropic's
    // API sends tool_use input parsed), so the Anthropic conversation has no such turn
    [{ name: "getloan", arguments: '{"loannumber": "4471", "includehistory": tru' }],
    [call("getloan", { loannumber: "4471", includehistory: false })],
  ],
  anthropic: SHARED_TURNS,
};
/** The same calls as MCP tools/call requests, one at a time (MCP has no turns, and no timeout: the slow loan is left out). */
const MCP_CALLS = SHARED_TURNS.flat()
  .map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) as Record<string, unknown> }))
  .filter((c) => c.arguments.loannumber !== LOANS.slow);
/** Who the MCP servers and clients of both halves say they are (their serverInfo and clientInfo, stored as metadata). */
const MCP_SERVER = { name: "loans", version: "1.0.0" };
const MCP_CLIENT = { name: "side-by-side", version: "1.0.0" };
const FINAL_TEXT = "Loan 4471 has a balance of 1200.";
/** Usage differs per turn, so that a usage recorded on the wrong call of a turn, or the wrong turn, shows. */
const usageOf = (turn: number) => ({ input: 100 + turn * 10, output: 20 + turn });

type Loose = Record<string, unknown>;
type Side = "python" | "typescript";
type Provider = keyof typeof SCRIPTS;

async function serveScriptedModel() {
  const requests: Record<Side, Record<Provider, Loose[]>> = { python: { openai: [], anthropic: [] }, typescript: { openai: [], anthropic: [] } };
  const answer = (provider: Provider, body: Loose) => {
    const turn = (body.messages as Loose[]).filter((m) => m.role === "assistant").length;
    const calls = SCRIPTS[provider][turn] ?? [];
    const usage = usageOf(turn);
    const callId = (index: number) => `call_t${turn}_${index}`;
    if (provider === "openai") {
      const message = calls.length
        ? { role: "assistant", content: null, tool_calls: calls.map((c, i) => ({ id: callId(i), type: "function", function: c })) }
        : { role: "assistant", content: FINAL_TEXT };
      return {
        id: `chatcmpl-${turn}`,
        object: "chat.completion",
        created: 1_796_000_000,
        model: "scripted",
        choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      };
    }
    return {
      id: `msg_${turn}`,
      type: "message",
      role: "assistant",
      model: "scripted",
      content: calls.length
        ? calls.map((c, i) => ({ type: "tool_use", id: callId(i), name: c.name, input: JSON.parse(c.arguments) as unknown }))
        : [{ type: "text", text: FINAL_TEXT }],
      stop_reason: calls.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  };
  // each side has a base URL of its own (/python, /typescript), so that its requests are told apart
  const model = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const route = /^\/(python|typescript)\/v1\/(chat\/completions|messages)$/.exec(req.url ?? "");
    if (!route || req.method !== "POST") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no such endpoint ${req.url}` } }));
      return;
    }
    const [, side, endpoint] = route as unknown as [string, Side, string];
    const provider: Provider = endpoint === "messages" ? "anthropic" : "openai";
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Loose;
    requests[side][provider].push(body);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(provider, body)));
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  const { port } = model.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => model.close(() => resolve())) };
}

/* ---------- the TypeScript half: the npm clients' tool calls through Run.handle ---------- */

/**
 * The agent loop a TypeScript harness writes around Run.handle (the TypeScript SDK has no loop helper):
 * as the Python loops do, each turn's calls go to the dispatcher with the response's token counts
 * (prompt/input tokens as inputTokens, completion/output tokens as outputTokens).
 */
async function typescriptHalf(modelUrl: string, url: string, apiKey: string): Promise<{ stats: ReporterStats | null; errors: ReporterError[] }> {
  const errors: ReporterError[] = [];
  const toolgate = new Toolgate({
    url,
    apiKey,
    model: MODEL,
    tools: TOOLS.map((tool) => ({ ...tool, handler: handlerOf(tool.name) })),
    timeoutMs: TIMEOUT_MS,
    reporter: { flushIntervalMs: 20, onError: (error) => errors.push(error) },
  });
  // maxRetries 0: a scripted model that fails must fail the test, not be asked again
  const openai = new OpenAI({ baseURL: `${modelUrl}/typescript/v1`, apiKey: "sk-none", maxRetries: 0 });
  const chatRun = toolgate.run({ runId: RUN_IDS.openai, metadata: METADATA });
  const chat: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: PROMPT }];
  for (let turn = 0; turn < 10; turn++) {
    const completion = await openai.chat.completions.create({ model: "scripted", messages: chat, tools: toolgate.openAITools() });
    const message = completion.choices[0]!.message;
    chat.push(message);
    if (!message.tool_calls?.length) break;
    const usage = completion.usage ? { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } : undefined;
    chat.push(...((await chatRun.handle(message.tool_calls, usage ? { usage } : {})) as OpenAI.ChatCompletionToolMessageParam[]));
  }
  const anthropic = new Anthropic({ baseURL: `${modelUrl}/typescript`, apiKey: "sk-none", maxRetries: 0 });
  const messagesRun = toolgate.run({ runId: RUN_IDS.anthropic, metadata: METADATA });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: PROMPT }];
  for (let turn = 0; turn < 10; turn++) {
    const response = await anthropic.messages.create({
      model: "scripted",
      max_tokens: 500,
      messages,
      tools: toolgate.anthropicTools() as Anthropic.Tool[],
    });
    messages.push({ role: "assistant", content: response.content });
    if (!response.content.some((block) => block.type === "tool_use")) break;
    const usage = { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens };
    messages.push({ role: "user", content: (await messagesRun.handle(response.content, { usage })) as Anthropic.ToolResultBlockParam[] });
  }
  return { stats: await toolgate.shutdown({ timeoutMs: 10_000 }), errors };
}

/* ---------- the TypeScript MCP half: a server of the MCP TypeScript SDK with withToolgate ---------- */

/** The twin of side_by_side.py's MCP server: the same tools, and the handlers' answers as MCP results. */
function mcpServer() {
  const server = new Server(MCP_SERVER, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const args = params.arguments ?? {};
    if (args.loannumber === LOANS.missing) return { content: [{ type: "text", text: `no loan ${LOANS.missing}` }], isError: true };
    const answer = args.loannumber === LOANS.empty ? { found: [] } : { tool: params.name, ...args };
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  return server;
}

/** One MCP session: tools/list, then each call; withToolgate's reporter is its own, so this waits until Toolgate stored them all. */
async function typescriptMcpHalf(url: string, apiKey: string, projectId: string) {
  const errors: ReporterError[] = [];
  const server = withToolgate(mcpServer(), { url, apiKey, model: MODEL, reporter: { flushIntervalMs: 20, onError: (error) => errors.push(error) } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(MCP_CLIENT);
  await client.connect(clientSide);
  await client.listTools();
  for (const c of MCP_CALLS) await client.callTool(c);
  await client.close();
  const until = Date.now() + 10_000;
  while ((await prisma().toolCall.count({ where: { projectId } })) < MCP_CALLS.length && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return errors;
}

/* ---------- the comparison ---------- */

type StoredCall = Awaited<ReturnType<typeof storedCalls>>[number];
const storedCalls = (projectId: string, runId: string) =>
  prisma().toolCall.findMany({ where: { projectId, runId }, orderBy: [{ step: "asc" }, { timestamp: "asc" }] });

/** The columns that differ between the two projects by design, and why; every other column is compared as stored. */
const BY_DESIGN = {
  projectId: "each SDK reports into a project of its own",
  id: "each SDK makes a random UUID per call",
  timestamp: "the wall-clock time of the call",
  receivedAt: "the time Toolgate received the batch",
  latencyMs: "how long the handler took on this machine: compared as measured or not",
  correctsId: "an id (see id): compared as the step of the call it names",
  correctionId: "an id (see id): compared as the step of the call it names",
} as const;

/** One stored call as both SDKs must agree on it: ids become the steps they name within the run. */
function comparable(row: StoredCall, run: StoredCall[]) {
  const { projectId: _p, id: _i, timestamp: _t, receivedAt: _r, latencyMs, correctsId, correctionId, ...stored } = row;
  const stepOf = (id: string | null) => (id === null ? null : (run.find((r) => r.id === id)?.step ?? `not in the run: ${id}`));
  return { ...stored, latencyMeasured: latencyMs !== null, correctsStep: stepOf(correctsId), correctionStep: stepOf(correctionId) };
}

/** What the model read back: the tool results of each side's last request to it. */
function toolResultsRead(requests: Loose[], provider: Provider) {
  const messages = (requests.at(-1)?.messages ?? []) as Loose[];
  if (provider === "openai") return messages.filter((m) => m.role === "tool");
  return messages.flatMap((m) => (m.role === "user" && Array.isArray(m.content) ? (m.content as Loose[]) : []));
}

/** Both halves, one after the other (they share nothing but the model server and the Toolgate), each into projects of its own. */
const projects = {} as Record<Side, { loops: string; mcp: string }>;
let model: Awaited<ReturnType<typeof serveScriptedModel>>;
type Counts = { sent: number; dropped: number; rejected: number };
let pythonReport: { loops: Counts; mcp: Counts; errors: string[] };
let typescriptReport: Awaited<ReturnType<typeof typescriptHalf>>;
let typescriptMcpErrors: ReporterError[];

beforeAll(async () => {
  // the wheel in its virtualenv: `npm test` makes it first (test:python); made here when this file runs alone
  if (!existsSync(path.join(venv, "bin", "python"))) await runProcess(path.resolve(here, "../scripts/test-python.sh"), ["--install"], { timeout: 600_000 });
  model = await serveScriptedModel();
  const made = { python: { loops: await makeProject(), mcp: await makeProject() }, typescript: { loops: await makeProject(), mcp: await makeProject() } };
  for (const side of ["python", "typescript"] as const) projects[side] = { loops: made[side].loops.project.id, mcp: made[side].mcp.project.id };
  const setup = {
    tools: TOOLS,
    model: MODEL,
    runIds: RUN_IDS,
    metadata: METADATA,
    loans: LOANS,
    timeoutMs: TIMEOUT_MS,
    mcpCalls: MCP_CALLS,
    mcpServer: MCP_SERVER,
    mcpClient: MCP_CLIENT,
  };
  const env = {
    ...process.env,
    TOOLGATE_URL: server.app.url,
    TOOLGATE_API_KEY: (await made.python.loops.key()).key,
    TOOLGATE_MCP_API_KEY: (await made.python.mcp.key()).key,
    SIDE_BY_SIDE_MODEL_URL: `${model.url}/python`,
    SIDE_BY_SIDE_SETUP: JSON.stringify(setup),
  };
  try {
    const script = path.join(here, "tests_integration", "side_by_side.py");
    pythonReport = JSON.parse((await runProcess(path.join(venv, "bin", "python"), [script], { env, timeout: 60_000 })).stdout) as typeof pythonReport;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`The Python half failed:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
  typescriptReport = await typescriptHalf(model.url, server.app.url, (await made.typescript.loops.key()).key);
  typescriptMcpErrors = await typescriptMcpHalf(server.app.url, (await made.typescript.mcp.key()).key, projects.typescript.mcp);
}, 700_000);
afterAll(() => model?.close());

describe("the Python SDK's client tool loops store in Toolgate what the TypeScript SDK's Run.handle stores", () => {
  const callsIn = (provider: Provider) => SCRIPTS[provider].flat().length;

  it("both halves played the whole script and reported every call", () => {
    const calls = callsIn("openai") + callsIn("anthropic");
    expect(pythonReport.errors).toEqual([]);
    expect(pythonReport.loops).toEqual({ sent: calls, dropped: 0, rejected: 0 });
    expect(typescriptReport.errors).toEqual([]);
    expect(typescriptReport.stats).toMatchObject({ sent: calls, dropped: 0, rejected: 0 });
    for (const side of ["python", "typescript"] as const) {
      // one request per scripted turn, and the last one that the model answered in text
      expect(model.requests[side].openai).toHaveLength(SCRIPTS.openai.length + 1);
      expect(model.requests[side].anthropic).toHaveLength(SCRIPTS.anthropic.length + 1);
    }
  });
  it("the model was offered the same tools, and read the same tool results", () => {
    for (const provider of ["openai", "anthropic"] as const) {
      const [py, ts] = [model.requests.python[provider], model.requests.typescript[provider]];
      expect(py[0]?.tools, provider).toEqual(ts[0]?.tools);
      expect(toolResultsRead(py, provider), provider).toEqual(toolResultsRead(ts, provider));
      expect(toolResultsRead(ts, provider)).toHaveLength(callsIn(provider));
    }
  });

  for (const provider of ["openai", "anthropic"] as const) {
    it(`${provider}: every stored call is the same, column by column (all but ${Object.keys(BY_DESIGN).join(", ")})`, async () => {
      const [py, ts] = [await storedCalls(projects.python.loops, RUN_IDS[provider]), await storedCalls(projects.typescript.loops, RUN_IDS[provider])];
      // the scenario really produced what it is meant to compare: the comparison cannot pass on empty or trivial runs
      expect(ts).toHaveLength(callsIn(provider));
      expect(ts.map((r) => r.step)).toEqual(ts.map((_, index) => index));
      expect(ts.filter((r) => r.category === "wrong_type" && r.correctionId !== null)).toHaveLength(1);
      expect(ts.filter((r) => r.category === "unknown_tool" && r.correctionId !== null)).toHaveLength(1);
      expect(ts.filter((r) => r.category === "out_of_range" && r.correctionId !== null)).toHaveLength(1);
      expect(ts.filter((r) => r.resultStatus === "error")).toHaveLength(1);
      expect(ts.filter((r) => r.resultStatus === "timeout")).toHaveLength(1);
      expect(ts.filter((r) => r.resultStatus === "ok" && r.resultSummary !== null)).toHaveLength(1); // the empty result
      expect(ts.filter((r) => r.inputTokens !== null).length).toBe(SCRIPTS[provider].length);
      if (provider === "openai") expect(ts.filter((r) => r.category === "malformed_arguments")).toHaveLength(1);

      expect(py.map((row) => comparable(row, py))).toEqual(ts.map((row) => comparable(row, ts)));
    });
  }
});

/** By design over MCP too, besides BY_DESIGN: neither middleware takes a run id, each makes a random one per session. */
const MCP_BY_DESIGN = { runId: "one random run id per MCP session, on both sides" } as const;

/**
 * The metadata values each recorder says of itself (the keys are the same, and every other value is compared): which
 * middleware stored the call, how it gates (withToolgate's default enforce "on" forwards a call it cannot check, the
 * Python middleware refuses it: "strict"), and where the model's name came from (both from their model option).
 */
const RECORDER_METADATA = {
  gateway: { typescript: "toolgate-mcp", python: "toolgate.mcp.ToolgateMiddleware" },
  enforce: { typescript: "on", python: "strict" },
  model_from: { typescript: "--model", python: "model" },
} as const;

/** A stored MCP call as both middlewares must agree on it: the recorder's own metadata values named, not compared. */
function comparableMcp(row: StoredCall, run: StoredCall[]) {
  const { runId: _run, metadata, ...shared } = comparable(row, run);
  const own = Object.fromEntries(Object.keys(RECORDER_METADATA).map((key) => [key, "(the recorder's own)"]));
  return { ...shared, metadata: { ...(metadata as Record<string, string>), ...own } };
}

describe("the Python SDK's MCP middleware stores in Toolgate what the TypeScript SDK's withToolgate stores", () => {
  const mcpRun = async (projectId: string) => {
    const runs = await prisma().toolCall.findMany({ where: { projectId }, distinct: ["runId"], select: { runId: true } });
    expect(runs, "one MCP session, one run").toHaveLength(1);
    return storedCalls(projectId, runs[0]!.runId);
  };
  let py: StoredCall[];
  let ts: StoredCall[];
  beforeAll(async () => {
    [py, ts] = [await mcpRun(projects.python.mcp), await mcpRun(projects.typescript.mcp)];
  });

  it("both servers reported every call", () => {
    expect(pythonReport.mcp).toEqual({ sent: MCP_CALLS.length, dropped: 0, rejected: 0 });
    expect(typescriptMcpErrors).toEqual([]);
    expect(ts).toHaveLength(MCP_CALLS.length);
  });

  it(`every stored call is the same, column by column: names, verdicts, results, summaries, metadata (all but ${Object.keys({ ...BY_DESIGN, ...MCP_BY_DESIGN }).join(", ")})`, () => {
    // the scenario really produced what it is meant to compare: the comparison cannot pass on empty or trivial runs
    expect(ts.map((r) => r.step)).toEqual(ts.map((_, index) => index));
    for (const category of ["wrong_type", "unknown_tool", "out_of_range"]) {
      expect(
        ts.filter((r) => r.category === category && r.correctionId !== null),
        category,
      ).toHaveLength(1);
    }
    expect(ts.map((r) => r.tool.split("/")[0])).toEqual(ts.map(() => "loans")); // named <server name>/<tool>
    expect(ts.filter((r) => r.valid === false).map((r) => [r.resultStatus, r.resultSummary, r.latencyMs])).toEqual(
      ts.filter((r) => r.valid === false).map(() => [null, null, null]), // a refused call never ran: no result
    );
    const loanOf = (r: StoredCall) => (r.arguments as Record<string, unknown>).loannumber;
    expect(ts.filter((r) => r.valid === true && r.resultSummary === null)).toEqual([]); // every answer's summary…
    expect(ts.filter((r) => loanOf(r) === LOANS.missing || loanOf(r) === LOANS.empty).map((r) => [r.resultStatus, r.resultSummary])).toEqual([
      ["error", `no loan ${LOANS.missing}`],
      ["ok", '{"found":[]}'], // …an empty one too, which Toolgate flags
    ]);
    expect(ts.map((r) => Object.keys(r.metadata as object).sort())).toEqual(
      ts.map(() => ["enforce", "gateway", "mcp_client", "mcp_client_version", "mcp_protocol_version", "mcp_server", "mcp_server_version", "model_from"]),
    );

    expect(py.map((row) => comparableMcp(row, py))).toEqual(ts.map((row) => comparableMcp(row, ts)));
  });

  it("the metadata values each recorder says of itself are what RECORDER_METADATA says", () => {
    for (const [side, rows] of [
      ["typescript", ts],
      ["python", py],
    ] as const) {
      const own = Object.fromEntries(Object.entries(RECORDER_METADATA).map(([key, values]) => [key, values[side]]));
      expect(rows.map((r) => r.metadata)).toEqual(rows.map(() => expect.objectContaining(own)));
    }
  });
});
