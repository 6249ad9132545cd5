import { LegacyOpenTelemetry, OpenTelemetry } from "@ai-sdk/otel";
import type { Tracer } from "@opentelemetry/api";
import { TracerProvider, BatchSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import * as ai7 from "ai";
import * as ai6 from "ai-6";
import { MockLanguageModelV3 } from "ai-6/test";
import { MockLanguageModelV4 } from "ai/test";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeProject } from "@/test/fixtures";
import { exporter, exportSpans, recordingTracer, servedTraces } from "@/test/otlp";
import { callsByToolCallId, storedState } from "@/test/otlp-state";
import { refusedThenCorrected, renaming, renamingStream, type Turn } from "@/test/vercel-ai-script";

/**
 * The Vercel AI SDK's own telemetry, each way a user can run it, exported by a BatchSpanProcessor
 * through the OTLP protobuf exporter:
 *
 * - ai 6.0.326 (the alias `ai-6`): `experimental_telemetry` with a tracer, `ai.*` spans with
 *   `ai.usage.inputTokens`, the run id in `metadata`;
 * - ai 7 with `@ai-sdk/otel`'s `LegacyOpenTelemetry`: the same `ai.*` spans, the run id from
 *   `runtimeContext` (`ai.settings.context.sessionId`: v7 removed `metadata`);
 * - ai 7 with `@ai-sdk/otel`'s `OpenTelemetry` (the default of v7): GenAI-convention spans
 *   (`invoke_agent`, `step N`, `chat`, `execute_tool`), read by the GenAI mapper.
 */
const served = servedTraces();
const { sql } = served;
beforeAll(async () => {
  recordingTracer(); // installs the async context manager, so the SDK's spans share one trace
});

const getloan = {
  description: "Fetch a loan by its number",
  inputSchema: z.object({ loannumber: z.string() }).strict(),
  execute: async ({ loannumber }: { loannumber: string }) => ({ loannumber, status: "current" }),
};

interface Script {
  generate: Turn[];
  stream?: ReturnType<typeof renamingStream>;
}
interface Run {
  api: "generateText" | "streamText";
  script: Script;
  tracer: Tracer;
  sessionId?: string;
}
interface Way {
  name: string;
  /** the name of a model call's span */
  modelCall: RegExp;
  /**
   * The status of a call the SDK refused without running it. The `ai.*` spans mark the message the
   * SDK sent back as an error (`error-text`); the GenAI convention's `tool_call_response` part has
   * no such mark, so the same message is stored as the call's result with the status "ok".
   */
  refusedStatus: "error" | "ok";
  run(run: Run): Promise<string>;
}

const model = { provider: "acme.chat", modelId: "acme-large" };
const prompt = "Is loan 447 current?";

/** `enrichSpan` of `OpenTelemetry`: `gen_ai.conversation.id` from the runtime context's `sessionId`. */
const conversationId = ({ runtimeContext }: { runtimeContext?: Record<string, unknown> }) =>
  typeof runtimeContext?.sessionId === "string" ? { "gen_ai.conversation.id": runtimeContext.sessionId } : {};

function ai7Way(name: string, modelCall: RegExp, integration: (tracer: Tracer) => ai7.Telemetry, refusedStatus: Way["refusedStatus"]): Way {
  return {
    name,
    modelCall,
    refusedStatus,
    async run({ api, script, tracer, sessionId }) {
      const options = {
        model: new MockLanguageModelV4({ ...model, doGenerate: script.generate, ...(script.stream ? { doStream: script.stream } : {}) }),
        prompt,
        tools: { getloan: ai7.tool(getloan) },
        stopWhen: ai7.stepCountIs(5),
        ...(sessionId ? { runtimeContext: { sessionId } } : {}),
        telemetry: { integrations: [integration(tracer)], ...(sessionId ? { includeRuntimeContext: { sessionId: true } } : {}) },
      };
      return api === "generateText" ? (await ai7.generateText(options)).text : await ai7.streamText(options).text;
    },
  };
}

const WAYS: Way[] = [
  {
    name: "ai 6.0.326, experimental_telemetry",
    modelCall: /^ai\.generateText\.doGenerate$/,
    refusedStatus: "error",
    async run({ api, script, tracer, sessionId }) {
      const options = {
        model: new MockLanguageModelV3({ ...model, doGenerate: script.generate, ...(script.stream ? { doStream: script.stream } : {}) }),
        prompt,
        tools: { getloan: ai6.tool(getloan) },
        stopWhen: ai6.stepCountIs(5),
        experimental_telemetry: { isEnabled: true, tracer, ...(sessionId ? { metadata: { sessionId } } : {}) },
      };
      return api === "generateText" ? (await ai6.generateText(options)).text : await ai6.streamText(options).text;
    },
  },
  ai7Way("ai 7, @ai-sdk/otel LegacyOpenTelemetry", /^ai\.generateText\.doGenerate$/, (tracer) => new LegacyOpenTelemetry({ tracer }), "error"),
  // the convention's conversation id on every span, from the runtime context (docs/otlp.md)
  ai7Way("ai 7, @ai-sdk/otel OpenTelemetry", /^chat /, (tracer) => new OpenTelemetry({ tracer, enrichSpan: conversationId }), "ok"),
];

describe.each(WAYS)("$name", (way) => {
  it("a multi-step generateText run with a refused call and its correction lands as two classified, linked calls", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: exporter("proto", served.url, key) })] });
    const text = await way.run({
      api: "generateText",
      script: { generate: refusedThenCorrected() },
      tracer: provider.getTracer("ai"),
      sessionId: "vercel-session",
    });
    expect(text).toBe("Loan 447 is current.");
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
      result_status: way.refusedStatus,
      latency_ms: null,
    });
    // what the SDK told the model in the next step
    expect(refused.result_summary).toContain("Invalid input for tool getloan");
    expect(corrected).toMatchObject({ step: 1, arguments: { loannumber: "447" }, valid: true, result_status: "ok", input_tokens: 160 });
    expect(JSON.parse(corrected.result_summary)).toEqual({ loannumber: "447", status: "current" });
    expect(refused.correction_id).toBe(corrected.id);

    // usage: the two model calls that wrote tool calls, not the enclosing span's total
    const tokens = await sql.query(`SELECT sum(input_tokens)::int AS i FROM call_rollups_hourly WHERE project_id = $1`, [p.project.id]);
    expect(tokens.rows[0].i).toBe(280);
    const defs = await sql.query(`SELECT name, source, parameters FROM tool_definitions WHERE project_id = $1`, [p.project.id]);
    expect(defs.rows).toHaveLength(1);
    expect(defs.rows[0]).toMatchObject({ name: "getloan", source: "otlp", parameters: { properties: { loannumber: { type: "string" } } } });
    expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});

    // the conversation, each message once although every model call repeats the ones before it (docs/otlp.md)
    const { rows: messages } = await sql.query(
      `SELECT role, text, calls, call_id, output, span_key FROM otlp_messages WHERE project_id = $1 AND run_id = 'vercel-session' ORDER BY started_ns, depth`,
      [p.project.id],
    );
    expect(messages.map((m) => [m.role, m.output])).toEqual([
      ["user", false],
      ["assistant", true],
      ["tool", false],
      ["assistant", true],
      ["tool", false],
      ["assistant", true],
    ]);
    expect(messages[0].text).toBe(prompt);
    expect(messages[1].calls).toEqual([{ id: "tc-1", name: "getloan" }]);
    expect(messages[2]).toMatchObject({ call_id: "tc-1" });
    expect(messages[2].text).toContain("Invalid input for tool getloan");
    expect(messages[3].calls).toEqual([{ id: "tc-2", name: "getloan" }]);
    expect(messages[4]).toMatchObject({ call_id: "tc-2" });
    expect(JSON.parse(messages[4].text)).toEqual({ loannumber: "447", status: "current" });
    expect(messages[5]).toMatchObject({ text: "Loan 447 is current.", calls: [] });
    // each answer is kept with the model call that wrote it: the span of its calls
    const spanOf = (call: { metadata: Record<string, string> }) => `${call.metadata["otel.trace_id"]}/${call.metadata["otel.span_id"]}`;
    expect([messages[1].span_key, messages[3].span_key]).toEqual([spanOf(refused), spanOf(corrected)]);
  });

  it.each(["generateText", "streamText"] as const)(
    "%s: an unknown tool's retry under the right name is paired with it (the prompt's messages feed the conversation)",
    async (api) => {
      const p = await makeProject();
      const { key } = await p.key();
      const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: exporter("proto", served.url, key) })] });
      const text = await way.run({ api, script: { generate: renaming(), stream: renamingStream() }, tracer: provider.getTracer("ai") });
      expect(text).toBe("Loan 447 is current.");
      await provider.forceFlush();
      await provider.shutdown();

      const calls = await callsByToolCallId(sql, p.project.id);
      expect(calls.size).toBe(2);
      const [unknown, retry] = [calls.get("rn-1")!, calls.get("rn-2")!];
      expect(unknown).toMatchObject({ tool: "getloans", valid: false, category: "unknown_tool", step: 0, result_status: way.refusedStatus });
      expect(retry).toMatchObject({ tool: "getloan", valid: true, step: 1, result_status: "ok" });
      expect(unknown.correction_id).toBe(retry.id);
      expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
    },
  );

  it("model calls that started in the same millisecond take their steps in the conversation's order, however the spans are exported", async () => {
    const recording = recordingTracer("ai");
    await way.run({ api: "generateText", script: { generate: renaming() }, tracer: recording.tracer });
    const spans = sameMillisecond(recording.spans(), way.modelCall);
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
    for (const [grouping, batches, timing] of ways) {
      const p = await makeProject();
      const { key } = await p.key();
      const target = exporter("proto", served.url, key);
      const sent = timing === "at once" ? await Promise.all(batches.map((b) => exportSpans(target, b))) : [];
      for (const batch of timing === "in turn" ? batches : []) sent.push(await exportSpans(target, batch));
      expect(sent.map((r) => r.code)).toEqual(batches.map(() => 0));

      const calls = await callsByToolCallId(sql, p.project.id);
      const [unknown, retry] = [calls.get("rn-1")!, calls.get("rn-2")!];
      expect([unknown.step, retry.step], grouping).toEqual([0, 1]);
      expect(unknown.correction_id, grouping).toBe(retry.id);
      const state = await storedState(sql, p.project.id);
      expect(state.rollupsDifferFromRaw, grouping).toEqual({});
      whole ??= state;
      expect(state, grouping).toEqual(whole);
    }
  });
});

/**
 * The OpenTelemetry JS SDK takes a span's start time from Date.now(): steps of an agent that
 * follow each other within a millisecond start at the same time (two of three runs of the renaming
 * model, once warm, measured in December 2026). `spans` with the model calls started in the first
 * one's millisecond, their span ids in the opposite order of the steps (the id, a random number,
 * must not decide).
 */
function sameMillisecond(spans: ReadableSpan[], modelCall: RegExp): ReadableSpan[] {
  const modelCalls = spans.filter((s) => modelCall.test(s.name));
  expect(modelCalls).toHaveLength(3);
  return spans.map((span) => {
    const position = modelCalls.indexOf(span);
    if (position < 0) return span;
    const spanId = (modelCalls.length - position).toString(16).padStart(16, "0");
    return Object.create(span, { startTime: { value: modelCalls[0]!.startTime }, spanContext: { value: () => ({ ...span.spanContext(), spanId }) } });
  });
}
