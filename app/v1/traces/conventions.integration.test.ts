import { context, SpanStatusCode, trace, type Attributes, type Tracer } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { projectWithKey } from "@/test/fixtures";
import { exporter, exportSpans, recordingTracer, servedTraces, shuffled } from "@/test/otlp";
import { callsByToolCallId, storedState } from "@/test/otlp-state";
import { readSpirals } from "@/server/services/metrics/spirals";
import { refreshKeptSpirals } from "@/server/services/metrics/spirals-kept";

const served = servedTraces();
const { sql } = served;

const project = projectWithKey;

const BASE = Date.UTC(2026, 10, 30, 9, 0, 0);
const at = (second: number) => new Date(BASE + second * 1000);

/** A span with explicit times, as instrumentations record them around a model or tool call. */
function span(tracer: Tracer, name: string, from: number, to: number, attributes: Attributes, error?: string) {
  const s = tracer.startSpan(name, { startTime: at(from), attributes });
  if (error) {
    s.recordException({ name: "ToolError", message: error });
    s.setStatus({ code: SpanStatusCode.ERROR, message: error });
  }
  s.end(at(to));
}

const WEATHER = {
  type: "function",
  name: "get_weather",
  description: "Current weather in a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, units: { type: "string", enum: ["c", "f"] } },
    required: ["city"],
    additionalProperties: false,
  },
};
const TIME = {
  type: "function",
  name: "get_time",
  parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"], additionalProperties: false },
};

const toolCall = (id: string, name: string, args: unknown) => ({ type: "tool_call", id, name, arguments: args });

/**
 * OpenTelemetry GenAI (v1.37+): an agent run of three chat turns. Turn 1 writes get_weather
 * with a wrong argument and get_time with arguments that are not JSON; the harness refuses
 * both and tells the model so in turn 2, which corrects both calls; they run (execute_tool spans).
 * Plus the agent span (aggregate usage, must not count) and an unrelated HTTP span.
 */
function genAiRun(tracer: Tracer, conversation: string) {
  const chat = (turn: number, input: unknown[], output: unknown[], usage: [number, number]) =>
    span(tracer, "chat gpt-4o", turn * 10, turn * 10 + 2, {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.response.model": "gpt-4o-2024-08-06",
      "gen_ai.conversation.id": conversation,
      "gen_ai.usage.input_tokens": usage[0],
      "gen_ai.usage.output_tokens": usage[1],
      "gen_ai.input.messages": JSON.stringify(input),
      "gen_ai.output.messages": JSON.stringify(output),
      "gen_ai.tool.definitions": JSON.stringify([WEATHER, TIME]),
    });
  tracer.startActiveSpan(
    "invoke_agent weather-bot",
    { startTime: at(0), attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 9999 } },
    (agent) => {
      chat(
        0,
        [{ role: "user", parts: [{ type: "text", content: "Weather and time in Paris?" }] }],
        [{ role: "assistant", parts: [toolCall("call_1", "get_weather", { town: "Paris" }), toolCall("call_2", "get_time", '{"zone": "Europe/Paris"')] }],
        [100, 20],
      );
      chat(
        1,
        [
          { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "Error: unknown argument 'town'; 'city' is required" }] },
          { role: "tool", parts: [{ type: "tool_call_response", id: "call_2", response: "Error: arguments are not valid JSON" }] },
        ],
        [{ role: "assistant", parts: [toolCall("call_3", "get_weather", { city: "Paris" }), toolCall("call_4", "get_time", { zone: "Europe/Paris" })] }],
        [150, 25],
      );
      span(tracer, "execute_tool get_weather", 13, 14, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_3",
        "gen_ai.tool.call.result": JSON.stringify({ temperature: 21 }),
      });
      span(
        tracer,
        "execute_tool get_time",
        13,
        15,
        { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_time", "gen_ai.tool.call.id": "call_4" },
        "clock service down",
      );
      chat(2, [], [{ role: "assistant", parts: [{ type: "text", content: "21 °C in Paris." }] }], [200, 10]);
      agent.end(at(30));
    },
  );
  span(tracer, "GET /health", 1, 2, { "http.request.method": "GET", "url.path": "/health" });
}

/** A conversation's chat spans without usage: `chat(turn, input, output)`. */
const chatSpans = (tracer: Tracer, conversation: string) => (turn: number, input: unknown[], output: unknown[]) =>
  span(tracer, "chat gpt-4o", turn * 10, turn * 10 + 2, {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.conversation.id": conversation,
    "gen_ai.input.messages": JSON.stringify(input),
    "gen_ai.output.messages": JSON.stringify(output),
    "gen_ai.tool.definitions": JSON.stringify([WEATHER, TIME]),
  });

describe("OpenTelemetry GenAI spans", () => {
  it("parallel calls whose tool messages lost an id: one turn, answered by position, the lost id marked", async () => {
    const p = await project();
    const recorder = recordingTracer();
    const chat = chatSpans(recorder.tracer, "parallel-conv");
    const question = { role: "user", parts: [{ type: "text", content: "Weather and time in Paris?" }] };
    const asked = { role: "assistant", parts: [toolCall("p_1", "get_weather", { city: "Paris" }), toolCall("p_2", "get_time", { zone: "Europe/Paris" })] };
    recorder.tracer.startActiveSpan("invoke_agent", { startTime: at(0), attributes: { "gen_ai.operation.name": "invoke_agent" } }, (agent) => {
      chat(0, [question], [asked]);
      chat(
        1,
        [
          question,
          asked,
          // the harness answered the first without its call id (the second still names its own)
          { role: "tool", parts: [{ type: "tool_call_response", response: "21 °C" }] },
          { role: "tool", parts: [{ type: "tool_call_response", id: "p_2", response: "14:05" }] },
        ],
        [{ role: "assistant", parts: [{ type: "text", content: "21 °C, 14:05." }] }],
      );
      agent.end(at(20));
    });
    expect((await exportSpans(exporter("json", served.url, p.key), recorder.spans())).code).toBe(0);
    const calls = await callsByToolCallId(sql, p.project.id);
    expect(["p_1", "p_2"].map((id) => calls.get(id)).map((c) => [c?.step, c?.turn, c?.result_summary, c?.result_id_kept])).toEqual([
      [0, 0, "21 °C", false],
      [0, 0, "14:05", true],
    ]);
  });

  it("parallel calls of one tool: a sibling of the refused call is not its correction, the next model call's call is (docs/pairing.md)", async () => {
    const recorder = recordingTracer();
    const chat = chatSpans(recorder.tracer, "parallel-fix");
    const question = { role: "user", parts: [{ type: "text", content: "Weather in Paris and Lyon?" }] };
    // one model call asks for the weather twice: the first refused, its sibling (written alongside, before any error) valid
    const asked = { role: "assistant", parts: [toolCall("w_1", "get_weather", { town: "Paris" }), toolCall("w_2", "get_weather", { city: "Lyon" })] };
    const fixed = { role: "assistant", parts: [toolCall("w_3", "get_weather", { city: "Paris" })] };
    recorder.tracer.startActiveSpan("invoke_agent", { startTime: at(0), attributes: { "gen_ai.operation.name": "invoke_agent" } }, (agent) => {
      chat(0, [question], [asked]);
      const answers = [
        { role: "tool", parts: [{ type: "tool_call_response", id: "w_1", response: "Error: unknown argument 'town'" }] },
        { role: "tool", parts: [{ type: "tool_call_response", id: "w_2", response: "17 °C" }] },
      ];
      chat(1, [question, asked, ...answers], [fixed]);
      chat(
        2,
        [question, asked, ...answers, fixed, { role: "tool", parts: [{ type: "tool_call_response", id: "w_3", response: "21 °C" }] }],
        [{ role: "assistant", parts: [{ type: "text", content: "21 °C and 17 °C." }] }],
      );
      agent.end(at(30));
    });
    const spans = recorder.spans();
    // in one request, and one span per request from the last to the first (the pairing after renumbering)
    for (const order of [[spans], [...spans].reverse().map((s) => [s])]) {
      const p = await project();
      for (const request of order) expect((await exportSpans(exporter("json", served.url, p.key), request)).code).toBe(0);
      const calls = await callsByToolCallId(sql, p.project.id);
      const [w1, w2, w3] = ["w_1", "w_2", "w_3"].map((id) => calls.get(id)!);
      expect([w1, w2, w3].map((c) => [c.step, c.turn, c.valid])).toEqual([
        [0, 0, false],
        [0, 0, true],
        [1, 1, true],
      ]);
      expect(w1.correction_id).toBe(w3.id);
      expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
    }
  });

  for (const kind of ["proto", "json"] as const) {
    it(`over ${kind === "proto" ? "protobuf" : "JSON"}: calls, verdicts, corrections, results, model and usage land once`, async () => {
      const p = await project();
      const recorder = recordingTracer();
      genAiRun(recorder.tracer, `conv-${kind}`);
      const result = await exportSpans(exporter(kind, served.url, p.key), recorder.spans());
      expect(result.code).toBe(0);

      const calls = await callsByToolCallId(sql, p.project.id);
      expect(calls.size).toBe(4);
      const [c1, c2, c3, c4] = ["call_1", "call_2", "call_3", "call_4"].map((id) => calls.get(id)!);
      expect(c1).toMatchObject({
        tool: "get_weather",
        arguments: { town: "Paris" },
        valid: false,
        category: "extra_argument",
        step: 0,
        run_id: `conv-${kind}`,
      });
      expect(c2).toMatchObject({ tool: "get_time", arguments: '{"zone": "Europe/Paris"', valid: false, category: "malformed_arguments", step: 0 });
      expect(c3).toMatchObject({
        tool: "get_weather",
        arguments: { city: "Paris" },
        valid: true,
        step: 1,
        result_status: "ok",
        result_summary: '{"temperature":21}',
        latency_ms: 1000,
      });
      expect(c4).toMatchObject({ valid: true, result_status: "error", result_summary: "clock service down", latency_ms: 2000 });
      // parallel calls: the two calls of each model response share its turn (docs/events.md, "Parallel calls");
      // the next turn's tool messages named both refused calls' ids, the executed ones had none
      expect([c1, c2, c3, c4].map((c) => [c.turn, c.result_id_kept])).toEqual([
        [0, true],
        [0, true],
        [1, null],
        [1, null],
      ]);
      // corrections: each refused call is linked to the corrected call of the same tool
      expect(c1.correction_id).toBe(c3.id);
      expect(c2.correction_id).toBe(c4.id);
      // refused calls keep what the model was told in the next turn
      expect(c1.result_summary).toContain("unknown argument 'town'");
      expect(c1.latency_ms).toBeNull();
      expect(c1).toMatchObject({ model_provider: "openai", model_name: "gpt-4o", model_version: "gpt-4o-2024-08-06" });
      // usage only from the chat spans, once per model call (the agent's 9999 is not counted)
      const tokens = await sql.query(`SELECT sum(input_tokens)::int AS i, sum(output_tokens)::int AS o FROM call_rollups_hourly WHERE project_id = $1`, [
        p.project.id,
      ]);
      expect(tokens.rows[0]).toEqual({ i: 250, o: 45 });
      // definitions registered from the spans, with their source, and the calls checked against that version
      const defs = await sql.query(`SELECT name, version, source FROM tool_definitions WHERE project_id = $1 ORDER BY name`, [p.project.id]);
      expect(defs.rows.map((r) => [r.name, r.source])).toEqual([
        ["get_time", "otlp"],
        ["get_weather", "otlp"],
      ]);
      expect(c1.tool_version).toBe(defs.rows.find((r) => r.name === "get_weather")!.version);
      // the unrelated HTTP span was counted as ignored, not as an error
      const stats = await sql.query(`SELECT spans::int, ignored::int, rejected::int, last_span_at FROM otlp_stats WHERE project_id = $1`, [p.project.id]);
      expect(stats.rows[0]).toMatchObject({ spans: 7, ignored: 1, rejected: 0 });
      expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
    });
  }

  it("the same trace split and shuffled across requests, and sent twice, ends in the same stored state as one request", async () => {
    const recorder = recordingTracer();
    genAiRun(recorder.tracer, "conv-split");
    const spans = recorder.spans();

    const whole = await project();
    expect((await exportSpans(exporter("proto", served.url, whole.key), spans)).code).toBe(0);
    const expected = await storedState(sql, whole.project.id);
    expect(expected.calls).toHaveLength(4);

    for (const seed of [1, 42]) {
      const split = await project();
      const target = exporter(seed % 2 ? "proto" : "json", served.url, split.key);
      const order = shuffled(spans, seed);
      // one span per request, in shuffled order, then everything again in another order
      for (const s of order) expect((await exportSpans(target, [s])).code).toBe(0);
      for (const group of [shuffled(spans, seed + 1).slice(0, 4), shuffled(spans, seed + 1).slice(4)]) expect((await exportSpans(target, group)).code).toBe(0);
      expect(await storedState(sql, split.project.id), `seed ${seed}`).toEqual(expected);
    }

    // every span in a request of its own, all at once, twice over
    const concurrent = await project();
    const target = exporter("proto", served.url, concurrent.key);
    const results = await Promise.all([...spans, ...shuffled(spans, 3)].map((s) => exportSpans(target, [s])));
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    expect(await storedState(sql, concurrent.project.id)).toEqual(expected);
  });
});

describe("retry spirals kept per run (server/services/metrics/spirals-kept.ts)", () => {
  it("a tool's result that arrives after its call was kept makes the run's spiral longer", async () => {
    const p = await project();
    const recorder = recordingTracer();
    const chat = chatSpans(recorder.tracer, "spiral-conv");
    recorder.tracer.startActiveSpan("invoke_agent", { startTime: at(0), attributes: { "gen_ai.operation.name": "invoke_agent" } }, (agent) => {
      // get_time refused twice (arguments that are not JSON), then written right: a spiral of two, ended by the third call
      chat(0, [], [{ role: "assistant", parts: [toolCall("t_1", "get_time", '{"zone": ')] }]);
      chat(1, [], [{ role: "assistant", parts: [toolCall("t_2", "get_time", '{"zone": "Paris"')] }]);
      chat(2, [], [{ role: "assistant", parts: [toolCall("t_3", "get_time", { zone: "Europe/Paris" })] }]);
      // whose execution failed, reported in a later export
      span(
        recorder.tracer,
        "execute_tool get_time",
        23,
        24,
        { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_time", "gen_ai.tool.call.id": "t_3" },
        "clock down",
      );
      agent.end(at(30));
    });
    const spans = recorder.spans();
    const executed = spans.filter((x) => (x as { name: string }).name.startsWith("execute_tool"));
    expect(executed).toHaveLength(1);
    expect(
      (
        await exportSpans(
          exporter("json", served.url, p.key),
          spans.filter((x) => !executed.includes(x)),
        )
      ).code,
    ).toBe(0);
    const range = { from: at(-60), to: at(60) };
    await refreshKeptSpirals({ projectId: p.project.id });
    const calls = await callsByToolCallId(sql, p.project.id);
    const id = (callId: string) => calls.get(callId)!.id;
    expect((await readSpirals(p.project.id, range, { tool: "get_time" }, 2)).spirals.map((s) => [s.attempts, s.endedBy])).toEqual([
      [[id("t_1"), id("t_2")], id("t_3")],
    ]);
    // the third call's execution failed: three failed attempts, and the run gave up
    expect((await exportSpans(exporter("json", served.url, p.key), executed)).code).toBe(0);
    expect((await callsByToolCallId(sql, p.project.id)).get("t_3")).toMatchObject({ result_status: "error" });
    // the run was marked: the kept spirals, refreshed, are the whole run's again
    expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
    expect((await readSpirals(p.project.id, range, { tool: "get_time" }, 3)).spirals.map((s) => [s.attempts, s.endedBy])).toEqual([
      [[id("t_1"), id("t_2"), id("t_3")], null],
    ]);
  });
});

describe("OpenInference spans", () => {
  it("LLM spans' flattened tool calls and TOOL spans become checked calls in the session's run", async () => {
    const p = await project();
    const { tracer, spans } = recordingTracer();
    const search = {
      type: "function",
      function: { name: "search", description: "Search", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
    };
    const llm = (turn: number, callId: string, args: string, input: Attributes) =>
      span(tracer, "ChatCompletion", turn * 10, turn * 10 + 1, {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o-mini",
        "llm.provider": "openai",
        "session.id": "oi-session",
        "llm.tools.0.tool.json_schema": JSON.stringify(search),
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": callId,
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "search",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": args,
        "llm.token_count.prompt": 40 + turn,
        "llm.token_count.completion": 5,
        "llm.cost.total": 0.001,
        ...input,
      });
    const root = tracer.startSpan("agent", { startTime: at(0), attributes: { "openinference.span.kind": "AGENT" } });
    const inRoot = (fn: () => void) => context.with(trace.setSpan(context.active(), root), fn);
    inRoot(() => llm(0, "oi_1", '{"q": 5}', {}));
    inRoot(() => span(tracer, "search", 2, 3, { "openinference.span.kind": "TOOL", "tool.name": "search", "tool.id": "oi_1" }, "q must be a string"));
    inRoot(() =>
      llm(1, "oi_2", '{"q": "five"}', {
        "llm.input_messages.0.message.role": "tool",
        "llm.input_messages.0.message.tool_call_id": "oi_1",
        "llm.input_messages.0.message.content": "q must be a string",
      }),
    );
    inRoot(() =>
      span(tracer, "search", 12, 13, { "openinference.span.kind": "TOOL", "tool.name": "search", "tool_call.id": "oi_2", "output.value": "3 results" }),
    );
    root.end(at(20));
    expect((await exportSpans(exporter("json", served.url, p.key), spans())).code).toBe(0);

    const calls = await callsByToolCallId(sql, p.project.id);
    expect(calls.size).toBe(2);
    const [first, second] = [calls.get("oi_1")!, calls.get("oi_2")!];
    expect(first).toMatchObject({
      run_id: "oi-session",
      step: 0,
      tool: "search",
      arguments: { q: 5 },
      valid: false,
      category: "wrong_type",
      result_status: "error",
    });
    expect(first.result_summary).toBe("q must be a string");
    expect(second).toMatchObject({
      step: 1,
      valid: true,
      result_status: "ok",
      result_summary: "3 results",
      model_name: "gpt-4o-mini",
      model_provider: "openai",
      input_tokens: 41,
    });
    expect(first.correction_id).toBe(second.id);
    expect(first.cost_usd).toBeCloseTo(0.001);
    const defs = await sql.query(`SELECT source FROM tool_definitions WHERE project_id = $1 AND name = 'search'`, [p.project.id]);
    expect(defs.rows).toEqual([{ source: "otlp" }]);
    expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
  });
});

describe("OpenLLMetry spans", () => {
  it("indexed completions (with and without tool call ids) and tool decorator spans", async () => {
    const p = await project();
    const { tracer, spans } = recordingTracer();
    const chat = (turn: number, attributes: Attributes) =>
      span(tracer, "openai.chat", turn * 10, turn * 10 + 1, {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4",
        "gen_ai.response.model": "gpt-4-0613",
        "gen_ai.usage.prompt_tokens": 50,
        "gen_ai.usage.completion_tokens": 10,
        "llm.request.functions.0.name": "lookup",
        "llm.request.functions.0.description": "Look up an order",
        "llm.request.functions.0.parameters": JSON.stringify({ type: "object", properties: { order: { type: "integer", minimum: 1 } }, required: ["order"] }),
        ...attributes,
      });
    tracer.startActiveSpan("agent.workflow", { startTime: at(0), attributes: { "traceloop.span.kind": "workflow" } }, (workflow) => {
      // Python form: ids on the completion's tool calls
      chat(0, {
        "gen_ai.completion.0.tool_calls.0.id": "ol_1",
        "gen_ai.completion.0.tool_calls.0.name": "lookup",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"order": 0}',
      });
      span(tracer, "lookup.tool", 2, 3, { "traceloop.span.kind": "tool", "traceloop.entity.name": "lookup", "traceloop.entity.output": '"no such order"' });
      // JS ≤ 0.22 form: no ids anywhere; the tool span is matched to the call it follows
      chat(1, { "gen_ai.completion.0.tool_calls.0.name": "lookup", "gen_ai.completion.0.tool_calls.0.arguments": '{"order": 12}' });
      span(tracer, "lookup.tool", 12, 14, {
        "traceloop.span.kind": "tool",
        "traceloop.entity.name": "lookup",
        "traceloop.entity.output": '{"status":"shipped"}',
      });
      workflow.end(at(20));
    });
    expect((await exportSpans(exporter("proto", served.url, p.key, true), spans())).code).toBe(0);

    const { rows } = await sql.query(`SELECT * FROM tool_calls WHERE project_id = $1 ORDER BY step`, [p.project.id]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      step: 0,
      tool: "lookup",
      arguments: { order: 0 },
      valid: false,
      category: "out_of_range",
      model_provider: "openai",
      model_version: "gpt-4-0613",
      input_tokens: 50,
    });
    expect(rows[0].correction_id).toBe(rows[1].id);
    expect(rows[1]).toMatchObject({ step: 1, valid: true, result_status: "ok", result_summary: '{"status":"shipped"}', latency_ms: 2000 });
    expect(rows[0]).toMatchObject({ result_summary: '"no such order"', latency_ms: 1000 });
    const stats = await sql.query(`SELECT spans::int, ignored::int, rejected::int FROM otlp_stats WHERE project_id = $1`, [p.project.id]);
    expect(stats.rows[0]).toEqual({ spans: 5, ignored: 0, rejected: 0 });
    expect((await storedState(sql, p.project.id)).rollupsDifferFromRaw).toEqual({});
  });
});
