import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { TracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace";
import type Anthropic from "@anthropic-ai/sdk";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type OpenAI from "openai";
import type pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { classifyCall, registryFrom } from "../isomorphic/classify";
import { makeProject } from "./fixtures";
import { ANTHROPIC_TOOLS, OPENAI_TOOLS, TOOLS } from "./scripted-tools";
import { browserClient } from "./http-app";
import { recordingTracer, servedTraces } from "./otlp";
import { rollupsDifferFromRaw } from "./rollups";

/*
 * A scripted model on 127.0.0.1 that speaks OpenAI's Chat Completions and Anthropic's
 * Messages, and the small agent that the instrumentation tests run against it: real SDKs,
 * real instrumentation packages, exporting through the OTLP exporter configured only by the
 * three OTEL_EXPORTER_OTLP_* variables.
 *
 * Each conversation's first user message names its script (`[conv:unknown]`); the turn is the
 * number of assistant messages the request carries. The scripts make the usual mistakes, each
 * followed by its correction once the harness answers the error as the tool result, and one
 * turn writes two calls at once.
 */

/** One call the model writes: the tool's name and its arguments as text. */
type ScriptedCall = { name: string; arguments: string };
/** Per script, per turn: the calls the model writes (none: it answers in text). */
const SCRIPTS: Record<string, ScriptedCall[][]> = {
  unknown: [[{ name: "getloans", arguments: '{"loannumber":"4471"}' }], [{ name: "getloan", arguments: '{"loannumber":"4471"}' }]],
  malformed: [
    [{ name: "getloan", arguments: '{"loannumber": "4471", "includehistory": tru' }],
    [{ name: "getloan", arguments: '{"loannumber":"4471","includehistory":true}' }],
  ],
  parallel: [
    [
      { name: "getloan", arguments: '{"loannumber":"4471"}' },
      { name: "listopenloans", arguments: '{"status":"pending"}' },
    ],
    [{ name: "listopenloans", arguments: '{"status":"open"}' }],
  ],
};

const RESPONSE_MODEL = { openai: "gpt-4o-mini-2024-07-18", anthropic: "claude-sonnet-4-5-20250929" };
const callId = (script: string, turn: number, position: number) => `call_${script}_t${turn}_${position}`;

type Loose = Record<string, unknown>;
const scriptOf = (messages: Loose[]) => {
  const first = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
  return /\[conv:(\w+)\]/.exec(first)?.[1] ?? "";
};

/** The turn of a Chat Completions request: how many assistant messages it carries. */
const turnOf = (messages: Loose[]) => messages.filter((m) => m.role === "assistant").length;

/** An OpenAI Chat Completions answer of turn `turn`: the calls the model writes, or `text` when it writes none. */
function chatCompletion(id: string, turn: number, calls: (ScriptedCall & { id: string })[], text: string) {
  return {
    id,
    object: "chat.completion",
    created: 1_796_000_000,
    model: RESPONSE_MODEL.openai,
    choices: [
      {
        index: 0,
        finish_reason: calls.length ? "tool_calls" : "stop",
        message: calls.length
          ? {
              role: "assistant",
              content: null,
              tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
            }
          : { role: "assistant", content: text },
      },
    ],
    usage: { prompt_tokens: 100 + turn * 40, completion_tokens: 20, total_tokens: 120 + turn * 40 },
  };
}

function openAiAnswer(body: Loose) {
  const messages = body.messages as Loose[];
  const turn = turnOf(messages);
  const script = scriptOf(messages);
  const calls = (SCRIPTS[script]?.[turn] ?? []).map((c, i) => ({ ...c, id: callId(script, turn, i) }));
  return chatCompletion(`chatcmpl-${script}-${turn}`, turn, calls, `Done with ${script}.`);
}

/** A model following one script whatever the conversation (the official OpenAI instrumentation's agent runs one): per turn, the calls it writes. */
export const oneScript =
  (turns: (ScriptedCall & { id: string })[][], text: string) =>
  (body: Loose): unknown => {
    const turn = turnOf(body.messages as Loose[]);
    return chatCompletion(`chatcmpl-${turn}`, turn, turns[turn] ?? [], text);
  };

function anthropicAnswer(body: Loose) {
  const messages = body.messages as Loose[];
  const turn = turnOf(messages);
  const script = scriptOf(messages);
  const calls = SCRIPTS[script]?.[turn] ?? [];
  return {
    id: `msg_${script}_${turn}`,
    type: "message",
    role: "assistant",
    model: RESPONSE_MODEL.anthropic,
    // Anthropic's API always sends parsed input; an unparsable call is written as a wrong type instead
    content: calls.length
      ? calls.map((c, i) => ({ type: "tool_use", id: callId(script, turn, i), name: c.name, input: parsedOr(c.arguments) }))
      : [{ type: "text", text: `Done with ${script}.` }],
    stop_reason: calls.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100 + turn * 40, output_tokens: 20 },
  };
}

const parsedOr = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return { loannumber: "4471", includehistory: "tru" };
  }
};

/** The model on 127.0.0.1 (`url` is the base the SDKs are given); `openai` answers its Chat Completions (the three scripts unless said). */
export async function serveScriptedModel(openai: (body: Loose) => unknown = openAiAnswer) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Loose;
    const answer = req.url?.endsWith("/chat/completions") ? openai(body) : req.url?.endsWith("/messages") ? anthropicAnswer(body) : undefined;
    res.writeHead(answer ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(answer ?? { error: { message: `no such endpoint ${req.url}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const registry = registryFrom(TOOLS.map((t) => ({ ...t, version: "1" })));

/** What the harness tells the model about one call: the tool's answer, or the validation error (Toolgate's own classifier). */
function runTool(name: string, args: string | unknown): { content: string; error: boolean } {
  const verdict = classifyCall({ tool: name, arguments: args, registry });
  if (!verdict.valid) return { content: `Error: ${verdict.message}`, error: true };
  return { content: name === "getloan" ? '{"loannumber":"4471","balance":12300}' : '{"loans":["4471"]}', error: false };
}

/**
 * A tracer provider exporting to Toolgate as a harness configured only by the three
 * variables does: OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces),
 * OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_PROTOCOL (which picks the exporter).
 */
function configuredProvider(endpoint: string, key: string, protocol: "http/protobuf" | "http/json") {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  process.env.OTEL_EXPORTER_OTLP_HEADERS = `Authorization=Bearer%20${key}`;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = protocol;
  const exporter = protocol === "http/json" ? new JsonExporter() : new ProtoExporter();
  return new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
}

/* ---------- the agent: a plain loop over the SDK, the way a harness without a framework is written ---------- */

const CONVERSATIONS = Object.keys(SCRIPTS);

async function openAiConversation(client: OpenAI, script: string) {
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: "system", content: "You are a loan assistant. Use the tools." },
    { role: "user", content: `[conv:${script}] What about loan 4471?` },
  ];
  for (let turn = 0; turn < 5; turn++) {
    const message = (await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: OPENAI_TOOLS })).choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return;
    for (const call of message.tool_calls) {
      if (call.type !== "function") continue;
      messages.push({ role: "tool", tool_call_id: call.id, content: runTool(call.function.name, call.function.arguments).content });
    }
  }
}

export async function anthropicConversation(client: Anthropic, script: string) {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: `[conv:${script}] What about loan 4471?` }];
  for (let turn = 0; turn < 5; turn++) {
    const { content } = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: "You are a loan assistant.",
      messages,
      tools: ANTHROPIC_TOOLS,
    });
    messages.push({ role: "assistant", content });
    const uses = content.filter((c) => c.type === "tool_use");
    if (!uses.length) return;
    messages.push({
      role: "user",
      content: uses.map((u) => {
        const { content: text, error } = runTool(u.name, u.input);
        return { type: "tool_result" as const, tool_use_id: u.id, content: text, is_error: error };
      }),
    });
  }
}

/** The same loop through LangChain: an unparsable call arrives in `invalid_tool_calls`, and is answered like any other. */
async function langChainConversation(model: BaseChatModel, script: string) {
  const bound = model.bindTools!(OPENAI_TOOLS);
  const messages: BaseMessage[] = [new SystemMessage("You are a loan assistant. Use the tools."), new HumanMessage(`[conv:${script}] What about loan 4471?`)];
  for (let turn = 0; turn < 5; turn++) {
    const message = await bound.invoke(messages);
    messages.push(message);
    const calls = AIMessage.isInstance(message) ? [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])] : [];
    if (!calls.length) return;
    for (const call of calls) messages.push(new ToolMessage({ tool_call_id: call.id ?? "", content: runTool(call.name ?? "", call.args).content }));
  }
}

/* ---------- what must have landed ---------- */

export type Expected = {
  provider: string;
  name: string;
  version: string;
  malformed: { category: string; arguments: unknown };
  /** the status of a refused call's result (the next turn's tool message), when the instrumentation says it failed */
  refusedStatus?: string;
  /**
   * The package sends no tool definitions: once the calls landed (unchecked), an admin pastes
   * these (the tools as the agent gave them to its SDK) on the Tools page and re-checks.
   */
  paste?: unknown[];
};

type Row = Record<string, unknown>;

/**
 * The stored calls of the three scripted conversations, checked as a user would: each call
 * with its tool, arguments and verdict, each invalid call paired with its correction, the
 * results the harness gave, one run per conversation with steps in order, the model under
 * its requested name with the answering model as the version.
 */
async function expectScriptsLanded(sql: pg.Pool, projectId: string, expected: Expected) {
  const { rows } = await sql.query<Row>(
    `SELECT *, metadata->>'otel.tool_call_id' AS tool_call_id FROM tool_calls WHERE project_id = $1 ORDER BY run_id, step, tool_call_id`,
    [projectId],
  );
  const byCall = new Map(rows.map((r) => [r.tool_call_id as string, r]));
  const get = (script: string, turn: number, position: number) => {
    const row = byCall.get(callId(script, turn, position));
    expect(row, `${callId(script, turn, position)} stored (have ${[...byCall.keys()].join(", ")})`).toBeDefined();
    return row!;
  };
  expect(rows).toHaveLength(7);

  const unknown = [get("unknown", 0, 0), get("unknown", 1, 0)];
  expect(unknown[0]).toMatchObject({ tool: "getloans", valid: false, category: "unknown_tool", step: 0 });
  expect(unknown[1]).toMatchObject({
    tool: "getloan",
    arguments: { loannumber: "4471" },
    valid: true,
    step: 1,
    result_summary: '{"loannumber":"4471","balance":12300}',
  });
  for (const refused of [unknown[0]!, get("malformed", 0, 0), get("parallel", 0, 1)])
    expect(refused).toMatchObject({ result_status: expected.refusedStatus ?? "ok", result_summary: expect.stringMatching(/^Error: /) });

  const malformed = [get("malformed", 0, 0), get("malformed", 1, 0)];
  expect(malformed[0]).toMatchObject({
    tool: "getloan",
    valid: false,
    category: expected.malformed.category,
    arguments: expected.malformed.arguments,
    step: 0,
  });
  expect(malformed[1]).toMatchObject({ arguments: { loannumber: "4471", includehistory: true }, valid: true, step: 1 });

  const parallel = [get("parallel", 0, 0), get("parallel", 0, 1), get("parallel", 1, 0)];
  expect(parallel[0]).toMatchObject({ tool: "getloan", valid: true, step: 0, result_summary: '{"loannumber":"4471","balance":12300}' });
  expect(parallel[1]).toMatchObject({ tool: "listopenloans", arguments: { status: "pending" }, valid: false, category: "invalid_choice", step: 0 });
  expect(parallel[2]).toMatchObject({ tool: "listopenloans", arguments: { status: "open" }, valid: true, step: 1, result_summary: '{"loans":["4471"]}' });

  // corrections: each invalid call is paired with the corrected call of its conversation
  expect(unknown[0]!.correction_id).toBe(unknown[1]!.id);
  expect(malformed[0]!.correction_id).toBe(malformed[1]!.id);
  expect(parallel[1]!.correction_id).toBe(parallel[2]!.id);
  // one run per conversation
  for (const calls of [unknown, malformed, parallel]) expect(new Set(calls.map((c) => c.run_id)).size).toBe(1);
  expect(new Set(rows.map((r) => r.run_id)).size).toBe(3);
  // one model, under its requested name, whichever instrumentation sent it
  for (const r of rows) expect(r).toMatchObject({ model_provider: expected.provider, model_name: expected.name, model_version: expected.version });
  // every call checked against a schema: the definition its span carried (the call pinned to that version), or the one pasted
  for (const r of rows.filter((r) => r.tool !== "getloans")) {
    expect(r.checked_version, `${r.tool_call_id} checked`).not.toBeNull();
    if (!expected.paste) expect(r.tool_version, `${r.tool_call_id} pinned`).toBe(r.checked_version);
  }
  await expectConversations(sql, projectId, rows);
}

/**
 * Each run's conversation as stored (otlp_messages, docs/otlp.md "The conversation"), each message
 * once: what came before the model's first turn (the request, and a system prompt where the agent
 * gave one), then per step the model's turn with its calls and their results, then its answer.
 */
export async function expectConversations(sql: pg.Pool, projectId: string, calls: Row[]) {
  const { rows } = await sql.query<Row>(
    `SELECT run_id, role, output, call_id, calls FROM otlp_messages WHERE project_id = $1 ORDER BY run_id, started_ns, depth`,
    [projectId],
  );
  for (const run of new Set(calls.map((r) => r.run_id))) {
    const ofRun = calls.filter((r) => r.run_id === run);
    const stored = rows
      .filter((m) => m.run_id === run)
      .map((m) => [m.role, m.output, (m.call_id as string | null) ?? (m.calls as { id?: string }[]).map((k) => k.id).join(",")]);
    const opening = stored.findIndex((m) => m[0] === "assistant");
    expect(
      stored.slice(0, opening).map((m) => m[0]),
      `run ${run as string}: before the first turn`,
    ).toEqual(stored[0]?.[0] === "system" ? ["system", "user"] : ["user"]);
    const steps = [...new Set(ofRun.map((r) => r.step as number))].sort((a, b) => a - b);
    const ids = (step: number) =>
      ofRun
        .filter((r) => r.step === step)
        .map((r) => r.tool_call_id as string)
        .sort();
    expect(stored.slice(opening), `run ${run as string}`).toEqual([
      ...steps.flatMap((step) => [["assistant", true, ids(step).join(",")], ...ids(step).map((id) => ["tool", false, id])]),
      ["assistant", true, ""],
    ]);
  }
}

/**
 * For a package that sends no tool definitions, after its calls landed: every call is stored
 * unchecked and its tool listed among the tools without a schema; then an admin, signed in,
 * pastes the definitions on the Tools page and presses the Re-check button of each tool the
 * page shows after it: the registered ones, and those still without a schema (the made-up
 * name, whose call becomes an unknown-tool call). The page's own requests over HTTP
 * (browserClient). The dashboards' rollups must then agree with the re-checked calls.
 */
export async function pastedAfterTheCalls(base: string, sql: pg.Pool, p: Awaited<ReturnType<typeof makeProject>>, definitions: unknown[]) {
  const { rows } = await sql.query<Row>("SELECT tool, valid, category, checked_version FROM tool_calls WHERE project_id = $1", [p.project.id]);
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r, `${r.tool} stored unchecked`).toMatchObject({ valid: null, category: null, checked_version: null });
  const calls = new Map<string, number>();
  for (const r of rows) calls.set(r.tool as string, (calls.get(r.tool as string) ?? 0) + 1);

  const browser = browserClient(base, (await p.asOwner()).token);
  const project = p.project.slug;
  const before = await browser.tools.unregistered.query({ project });
  expect(before.anySchema).toBe(false);
  const listed = Object.fromEntries(before.tools.map((t) => [t.tool, { calls: t.calls, notChecked: t.notChecked }]));
  expect(listed).toEqual(Object.fromEntries([...calls].map(([tool, n]) => [tool, { calls: n, notChecked: n }])));

  const { tools } = await browser.tools.registerPasted.mutate({ project, definitions: JSON.stringify(definitions, null, 2) });
  // the page's range (the last 24 hours) on each button: those the registration shows, then those of the tools still without a schema
  const range = { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() };
  const recheck = async (tool: string) => {
    const result = await browser.tools.recheck.mutate({ project, tool, range });
    expect(result, result.summary).toMatchObject({ tool, scanned: calls.get(tool) ?? 0, complete: true });
  };
  const registered = new Set(tools.map((t) => t.name));
  for (const tool of registered) await recheck(tool);
  const unregistered = await browser.tools.unregistered.query({ project });
  expect(unregistered.anySchema).toBe(true);
  expect(unregistered.tools.map((t) => t.tool).sort()).toEqual([...calls.keys()].filter((t) => !registered.has(t)).sort());
  for (const { tool } of unregistered.tools) await recheck(tool);
  expect(await rollupsDifferFromRaw(sql, p.project.id)).toEqual({});
}

/** What the OpenAI and Anthropic runs must store (Anthropic's API sends parsed input: the scripted unparsable call arrives as a wrong type). */
export const OPENAI_EXPECTED: Expected = {
  provider: "openai",
  name: "gpt-4o-mini",
  version: RESPONSE_MODEL.openai,
  malformed: { category: "malformed_arguments", arguments: '{"loannumber": "4471", "includehistory": tru' },
};
export const ANTHROPIC_EXPECTED: Expected = {
  provider: "anthropic",
  name: "claude-sonnet-4-5",
  version: RESPONSE_MODEL.anthropic,
  malformed: { category: "wrong_type", arguments: { loannumber: "4471", includehistory: "tru" } },
};

/** The agent over an OpenAI client pointed at the scripted model. */
export const openAiAgent = (OpenAiClient: new (options: { apiKey: string; baseURL: string }) => OpenAI) => (url: string) => {
  const client = new OpenAiClient({ apiKey: "sk-test", baseURL: `${url}/v1` });
  return (script: string) => openAiConversation(client, script);
};

/** The agent over a LangChain chat model pointed at the scripted model (`model(url)` builds it). */
export const langChainAgent = (model: (url: string) => BaseChatModel) => (url: string) => {
  const chat = model(url);
  return (script: string) => langChainConversation(chat, script);
};

/* ---------- one package's test: the agent under the instrumentation, exporting to the real server ---------- */

type Instrumentation = { setTracerProvider(provider: TracerProvider): void };

/**
 * For a test file of one instrumentation package: the traces server and the scripted model for
 * its tests, and `run(protocol, rootSpan, expected)`, which runs the three scripted
 * conversations (each inside a conversation span, or with none) in a fresh project and checks
 * what landed.
 */
export function instrumentedRuns(instrumentation: Instrumentation, agent: (modelUrl: string, provider: TracerProvider) => (script: string) => Promise<void>) {
  const served = servedTraces();
  let model: Awaited<ReturnType<typeof serveScriptedModel>>;
  beforeAll(async () => {
    recordingTracer(); // installs the async context manager, so the model calls join the conversation's span
    model = await serveScriptedModel();
  });
  afterAll(() => model.close());
  return async (protocol: "http/protobuf" | "http/json", rootSpan: boolean, expected: Expected) => {
    const p = await makeProject();
    const { key } = await p.key();
    const provider = configuredProvider(served.url.replace(/\/v1\/traces$/, ""), key, protocol);
    instrumentation.setTracerProvider(provider);
    const converse = agent(model.url, provider);
    const tracer = provider.getTracer("agent");
    for (const script of CONVERSATIONS) {
      if (rootSpan) await tracer.startActiveSpan(`conversation ${script}`, (span) => converse(script).finally(() => span.end()));
      else await converse(script);
    }
    await provider.forceFlush();
    await provider.shutdown();
    if (expected.paste) await pastedAfterTheCalls(served.base, served.sql, p, expected.paste);
    await expectScriptsLanded(served.sql, p.project.id, expected);
    // every call landed: no export may tell the user to change a setting
    const { rows } = await served.sql.query(`SELECT ignored FROM otlp_exports WHERE project_id = $1`, [p.project.id]);
    const warned = rows
      .flatMap((r: { ignored: { reason: string; sentence: string }[] }) => r.ignored)
      .filter((g) => ["no_messages", "content_in_logs"].includes(g.reason));
    expect(warned.map((g) => g.sentence)).toEqual([]);
  };
}
