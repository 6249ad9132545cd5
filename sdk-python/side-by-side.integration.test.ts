import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../server/db/client";
import { makeProject } from "../test/fixtures";
import { httpAppForTests } from "../test/http-app";
import { Toolgate, type HandlerContext, type ReporterError, type ReporterStats } from "../sdk/src/index";

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

describe("the Python SDK's client tool loops store in Toolgate what the TypeScript SDK's Run.handle stores", () => {
  const projects = {} as Record<Side, string>;
  let model: Awaited<ReturnType<typeof serveScriptedModel>>;
  let pythonReport: { sent: number; dropped: number; rejected: number; errors: string[] };
  let typescriptReport: Awaited<ReturnType<typeof typescriptHalf>>;
  const callsIn = (provider: Provider) => SCRIPTS[provider].flat().length;

  beforeAll(async () => {
    // the wheel in its virtualenv: `npm test` makes it first (test:python); made here when this file runs alone
    if (!existsSync(path.join(venv, "bin", "python"))) await runProcess(path.resolve(here, "../scripts/test-python.sh"), ["--install"], { timeout: 600_000 });
    model = await serveScriptedModel();
    const [py, ts] = [await makeProject(), await makeProject()];
    projects.python = py.project.id;
    projects.typescript = ts.project.id;
    const setup = { tools: TOOLS, model: MODEL, runIds: RUN_IDS, metadata: METADATA, loans: LOANS, timeoutMs: TIMEOUT_MS };
    const env = {
      ...process.env,
      TOOLGATE_URL: server.app.url,
      TOOLGATE_API_KEY: (await py.key()).key,
      SIDE_BY_SIDE_MODEL_URL: `${model.url}/python`,
      SIDE_BY_SIDE_SETUP: JSON.stringify(setup),
    };
    // the two halves one after the other: they share nothing but the model server and the Toolgate
    try {
      const { stdout } = await runProcess(path.join(venv, "bin", "python"), [path.join(here, "tests_integration", "side_by_side.py")], {
        env,
        timeout: 60_000,
      });
      pythonReport = JSON.parse(stdout) as typeof pythonReport;
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`The Python half failed:\n${stdout ?? ""}\n${stderr ?? ""}`);
    }
    typescriptReport = await typescriptHalf(model.url, server.app.url, (await ts.key()).key);
  }, 700_000);
  afterAll(() => model?.close());

  it("both halves played the whole script and reported every call", () => {
    const calls = callsIn("openai") + callsIn("anthropic");
    expect(pythonReport).toEqual({ sent: calls, dropped: 0, rejected: 0, errors: [] });
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
      const [py, ts] = [await storedCalls(projects.python, RUN_IDS[provider]), await storedCalls(projects.typescript, RUN_IDS[provider])];
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
