import { generateText, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { makeProject } from "@/test/fixtures";
import { exporter, exportSpans, recordingTracer, servedTraces } from "@/test/otlp";
import { callsByToolCallId, storedState } from "@/test/otlp-state";

/**
 * The Vercel AI SDK's own telemetry (ai@6.0.326, the version installed: `ai.*` spans with
 * `ai.usage.inputTokens`), exported by a BatchSpanProcessor through the OTLP protobuf exporter.
 * The scripted model writes an invalid call (wrong argument name), which the SDK refuses
 * without running the tool, then the corrected call, then its answer.
 */
const served = servedTraces();
const { sql } = served;
beforeAll(async () => {
  recordingTracer(); // installs the async context manager, so the SDK's spans share one trace
});

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

it("a multi-step generateText run with a refused call and its correction lands as two classified, linked calls", async () => {
  const p = await makeProject();
  const { key } = await p.key();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter("proto", served.url, key))] });

  const model = new MockLanguageModelV3({
    provider: "acme.chat",
    modelId: "acme-large",
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "tc-1", toolName: "getloan", input: '{"loan": "447"}' }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(120, 15),
        response: { id: "r1", modelId: "acme-large-2026-11", timestamp: new Date("2026-11-30T09:00:00Z") },
        warnings: [],
      },
      {
        content: [{ type: "tool-call", toolCallId: "tc-2", toolName: "getloan", input: '{"loannumber": "447"}' }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(160, 18),
        response: { id: "r2", modelId: "acme-large-2026-11", timestamp: new Date("2026-11-30T09:00:01Z") },
        warnings: [],
      },
      {
        content: [{ type: "text", text: "Loan 447 is current." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(200, 8),
        response: { id: "r3", modelId: "acme-large-2026-11", timestamp: new Date("2026-11-30T09:00:02Z") },
        warnings: [],
      },
    ],
  });

  const result = await generateText({
    model,
    prompt: "Is loan 447 current?",
    tools: {
      getloan: tool({
        description: "Fetch a loan by its number",
        inputSchema: z.object({ loannumber: z.string() }).strict(),
        execute: async ({ loannumber }) => ({ loannumber, status: "current" }),
      }),
    },
    stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true, tracer: provider.getTracer("ai"), metadata: { sessionId: "vercel-session" } },
  });
  expect(result.text).toBe("Loan 447 is current.");
  await provider.forceFlush();
  await provider.shutdown();

  const calls = await callsByToolCallId(sql, p.project.id);
  expect(calls.size).toBe(2);
  const [refused, corrected] = [calls.get("tc-1")!, calls.get("tc-2")!];
  expect(refused).toMatchObject({
    run_id: "vercel-session",
    step: 0,
    tool: "getloan",
    arguments: { loan: "447" },
    valid: false,
    category: "extra_argument",
    model_provider: "acme.chat",
    model_name: "acme-large",
    model_version: "acme-large-2026-11",
    input_tokens: 120,
    output_tokens: 15,
    result_status: "error",
    latency_ms: null,
  });
  // what the SDK told the model in the next step
  expect(refused.result_summary).toContain("Invalid input for tool getloan");
  expect(corrected).toMatchObject({ step: 1, arguments: { loannumber: "447" }, valid: true, result_status: "ok", input_tokens: 160 });
  expect(JSON.parse(corrected.result_summary)).toEqual({ loannumber: "447", status: "current" });
  expect(refused.correction_id).toBe(corrected.id);

  // usage: the two model calls that wrote tool calls, not the enclosing ai.generateText span's total
  const tokens = await sql.query(`SELECT sum(input_tokens)::int AS i FROM call_rollups_hourly WHERE project_id = $1`, [p.project.id]);
  expect(tokens.rows[0].i).toBe(280);
  const defs = await sql.query(`SELECT name, source, parameters FROM tool_definitions WHERE project_id = $1`, [p.project.id]);
  expect(defs.rows).toHaveLength(1);
  expect(defs.rows[0]).toMatchObject({ name: "getloan", source: "otlp", parameters: { properties: { loannumber: { type: "string" } } } });
  expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
});

/** A model that writes the unknown tool `getloans`, then retries under the right name, then answers (the AI SDK sends the error back as the tool result). */
const renamingModel = () =>
  new MockLanguageModelV3({
    provider: "acme.chat",
    modelId: "acme-large",
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "rn-1", toolName: "getloans", input: '{"loannumber": "447"}' }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(120, 15),
        warnings: [],
      },
      {
        content: [{ type: "tool-call", toolCallId: "rn-2", toolName: "getloan", input: '{"loannumber": "447"}' }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(160, 18),
        warnings: [],
      },
      { content: [{ type: "text", text: "Loan 447 is current." }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(200, 8), warnings: [] },
    ],
    doStream: (() => {
      const turns = [
        [{ type: "tool-call" as const, toolCallId: "rn-1", toolName: "getloans", input: '{"loannumber": "447"}' }],
        [{ type: "tool-call" as const, toolCallId: "rn-2", toolName: "getloan", input: '{"loannumber": "447"}' }],
        [
          { type: "text-start" as const, id: "t" },
          { type: "text-delta" as const, id: "t", delta: "Loan 447 is current." },
          { type: "text-end" as const, id: "t" },
        ],
      ];
      let turn = 0;
      return async () => {
        const parts = turns[turn++] ?? [];
        const calls = parts.some((p) => p.type === "tool-call");
        return {
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.enqueue({
                type: "finish",
                finishReason: { unified: calls ? "tool-calls" : "stop", raw: calls ? "tool_calls" : "stop" },
                usage: usage(100, 10),
              });
              controller.close();
            },
          }),
        };
      };
    })(),
  });

const loanTools = {
  getloan: tool({
    description: "Fetch a loan by its number",
    inputSchema: z.object({ loannumber: z.string() }).strict(),
    execute: async ({ loannumber }) => ({ loannumber, status: "current" }),
  }),
};

it.each(["generateText", "streamText"] as const)(
  "%s: an unknown tool's retry under the right name is paired with it (ai.prompt.messages feeds the conversation)",
  async (api) => {
    const p = await makeProject();
    const { key } = await p.key();
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter("proto", served.url, key))] });
    const options = {
      model: renamingModel(),
      prompt: "Is loan 447 current?",
      tools: loanTools,
      stopWhen: stepCountIs(5),
      experimental_telemetry: { isEnabled: true, tracer: provider.getTracer("ai") },
    };
    const text = api === "generateText" ? (await generateText(options)).text : await streamText(options).text;
    expect(text).toBe("Loan 447 is current.");
    await provider.forceFlush();
    await provider.shutdown();

    const calls = await callsByToolCallId(sql, p.project.id);
    expect(calls.size).toBe(2);
    const [unknown, retry] = [calls.get("rn-1")!, calls.get("rn-2")!];
    expect(unknown).toMatchObject({ tool: "getloans", valid: false, category: "unknown_tool", step: 0, result_status: "error" });
    expect(retry).toMatchObject({ tool: "getloan", valid: true, step: 1, result_status: "ok" });
    expect(unknown.correction_id).toBe(retry.id);
    expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
  },
);

/**
 * The OpenTelemetry JS SDK takes a span's start time from Date.now(): steps of an agent that
 * follow each other within a millisecond start at the same time (two of three runs of the renaming
 * model, once warm, measured in December 2026). `spans` with the model calls started in the first
 * one's millisecond, their span ids in the opposite order of the steps (the id, a random number,
 * must not decide).
 */
function sameMillisecond(spans: ReadableSpan[]): ReadableSpan[] {
  const modelCalls = spans.filter((s) => s.name === "ai.generateText.doGenerate");
  expect(modelCalls).toHaveLength(3);
  return spans.map((span) => {
    const position = modelCalls.indexOf(span);
    if (position < 0) return span;
    const spanId = (modelCalls.length - position).toString(16).padStart(16, "0");
    return Object.create(span, { startTime: { value: modelCalls[0]!.startTime }, spanContext: { value: () => ({ ...span.spanContext(), spanId }) } });
  });
}

it("model calls that started in the same millisecond take their steps in the conversation's order, however the spans are exported", async () => {
  const recording = recordingTracer("ai");
  const options = { model: renamingModel(), prompt: "Is loan 447 current?", tools: loanTools, stopWhen: stepCountIs(5) };
  await generateText({ ...options, experimental_telemetry: { isEnabled: true, tracer: recording.tracer } });
  const spans = sameMillisecond(recording.spans());
  await recording.shutdown();

  // each way into a project of its own: batches sent one after the other, or all at once
  const ways: [string, ReadableSpan[][], "in turn" | "at once"][] = [
    ["whole", [spans], "in turn"],
    ["span by span", spans.map((s) => [s]), "in turn"],
    ["span by span, last first", [...spans].reverse().map((s) => [s]), "in turn"],
    ["span by span, at once", spans.map((s) => [s]), "at once"],
    ["two batches at once", [spans.filter((_, i) => i % 2 === 0), spans.filter((_, i) => i % 2 === 1)], "at once"],
  ];
  let whole: Awaited<ReturnType<typeof storedState>> | undefined;
  for (const [way, batches, timing] of ways) {
    const p = await makeProject();
    const { key } = await p.key();
    const target = exporter("proto", served.url, key);
    const sent = timing === "at once" ? await Promise.all(batches.map((b) => exportSpans(target, b))) : [];
    for (const batch of timing === "in turn" ? batches : []) sent.push(await exportSpans(target, batch));
    expect(sent.map((r) => r.code)).toEqual(batches.map(() => 0));

    const calls = await callsByToolCallId(sql, p.project.id);
    const [unknown, retry] = [calls.get("rn-1")!, calls.get("rn-2")!];
    expect([unknown.step, retry.step], way).toEqual([0, 1]);
    expect(unknown.correction_id, way).toBe(retry.id);
    const state = await storedState(sql, p.project.id);
    expect(state.rollupsDifferFromRaw, way).toEqual({});
    whole ??= state;
    expect(state, way).toEqual(whole);
  }
});
