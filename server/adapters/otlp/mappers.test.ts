import { describe, expect, it } from "vitest";
import { assemble, mapSpan } from "./assemble";
import { mapGenAi } from "./gen-ai";
import { mapOpenInference } from "./openinference";
import { mapOpenLlmetry } from "./openllmetry";
import { definitionFrom, eventId, writtenArguments, type ModelCallPiece, type ToolExecutionPiece } from "./pieces";
import { mapVercelAi } from "./vercel-ai";
import type { Attributes, OtlpSpan } from "./wire";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
let n = 0;
function span(name: string, attributes: Attributes, more: Partial<OtlpSpan> = {}): OtlpSpan {
  n++;
  return {
    traceId: TRACE,
    spanId: n.toString(16).padStart(16, "0"),
    parentSpanId: "",
    name,
    kind: 1,
    startNs: 1_764_493_200_000_000_000n + BigInt(n) * 1_000_000_000n,
    endNs: 1_764_493_200_500_000_000n + BigInt(n) * 1_000_000_000n,
    attributes,
    events: [],
    status: { code: 0, message: "" },
    resource: {},
    scope: "",
    ...more,
  };
}
const model = (m: unknown) => m as ModelCallPiece;
const tool = (m: unknown) => m as ToolExecutionPiece;
const SCHEMA = { type: "object", properties: { city: { type: "string" } } };

describe("OpenTelemetry GenAI", () => {
  it("reads the deprecated names (gen_ai.system, prompt/completion tokens) and prefers provider.name when both are there", () => {
    const old = model(
      mapGenAi(
        span("chat x", {
          "gen_ai.operation.name": "chat",
          "gen_ai.system": "openai",
          "gen_ai.request.model": "x",
          "gen_ai.usage.prompt_tokens": 7,
          "gen_ai.usage.completion_tokens": 2,
        }),
      ),
    );
    expect(old.model).toEqual({ name: "x", provider: "openai" });
    expect(old.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
    const both = model(
      mapGenAi(span("chat x", { "gen_ai.operation.name": "chat", "gen_ai.system": "xai", "gen_ai.provider.name": "x_ai", "gen_ai.request.model": "grok" })),
    );
    expect(both.model.provider).toBe("x_ai");
  });

  it("structured (AnyValue) messages and definitions as well as JSON strings; the example's `result` key; definitions without a schema skipped", () => {
    const piece = model(
      mapGenAi(
        span("chat", {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "m",
          "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "tool_call", id: " call_1", name: "w", arguments: { city: "P" } }] }],
          "gen_ai.input.messages": [{ role: "tool", parts: [{ type: "tool_call_response", id: "call_0", result: { denied: true, reason: "not allowed" } }] }],
          "gen_ai.tool.definitions": [
            { type: "function", name: "w", parameters: SCHEMA },
            { type: "function", name: "nothing" },
          ],
        }),
      ),
    );
    expect(piece.calls).toEqual([{ callId: "call_1", name: "w", arguments: { city: "P" } }]);
    expect(piece.toolMessages).toEqual([{ callId: "call_0", content: "not allowed", error: true, idKept: true }]);
    expect(piece.definitions).toEqual([{ name: "w", parameters: SCHEMA }]);
  });

  it("execute_tool: error status and exception message; agent spans carry nothing to use; other spans are not GenAI", () => {
    const failed = tool(
      mapGenAi(
        span(
          "execute_tool w",
          { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "w", "gen_ai.tool.call.id": "c" },
          {
            status: { code: 2, message: "" },
            events: [{ name: "exception", timeNs: 0n, attributes: { "exception.message": "boom" } }],
          },
        ),
      ),
    );
    expect(failed).toMatchObject({ callId: "c", status: "error", summary: "boom", latencyMs: 500 });
    // the kind of failure from error.type or the exception's type (isomorphic/outcome.ts)
    const failedAs = (attributes: Record<string, string>, exceptionType?: string) =>
      tool(
        mapGenAi(
          span(
            "execute_tool w",
            { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "w", "gen_ai.tool.call.id": "c", ...attributes },
            {
              status: { code: 2, message: "" },
              events: exceptionType ? [{ name: "exception", timeNs: 0n, attributes: { "exception.type": exceptionType } }] : [],
            },
          ),
        ),
      ).status;
    expect(failedAs({ "error.type": "TimeoutError" })).toBe("timeout");
    expect(failedAs({}, "asyncio.TimeoutError")).toBe("timeout");
    expect(failedAs({ "error.type": "ToolNotFoundError" })).toBe("not_found");
    expect(failedAs({ "error.type": "PermissionDenied" })).toBe("not_allowed");
    expect(failedAs({ "error.type": "tool_error" })).toBe("error");
    expect(mapGenAi(span("invoke_agent", { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 5 }))).toBe("nothing");
    expect(mapSpan(span("GET /", { "http.request.method": "GET" }))).toBe("other");
    expect(mapGenAi(span("chat", { "gen_ai.operation.name": "chat" }))).toHaveProperty("rejected");
  });
});

describe("Vercel AI SDK", () => {
  it("v4 shapes: args as the raw string, promptTokens, parameters in ai.prompt.tools, isError tool results", () => {
    const piece = model(
      mapVercelAi(
        span("ai.generateText.doGenerate", {
          "ai.model.id": "gpt-4o",
          "ai.model.provider": "openai.chat",
          "ai.usage.promptTokens": 10,
          "ai.usage.completionTokens": 4,
          "ai.response.toolCalls": JSON.stringify([{ toolCallType: "function", toolCallId: "t1", toolName: "w", args: '{"city": ' }]),
          "ai.prompt.tools": [JSON.stringify({ type: "function", name: "w", parameters: SCHEMA })],
          "ai.prompt.messages": JSON.stringify([
            { role: "tool", content: [{ type: "tool-result", toolCallId: "t0", toolName: "w", result: "bad", isError: true }] },
          ]),
        }),
      ),
    );
    expect(piece.calls).toEqual([{ callId: "t1", name: "w", arguments: '{"city": ' }]);
    expect(piece.usage).toEqual({ inputTokens: 10, outputTokens: 4 });
    expect(piece.definitions).toEqual([{ name: "w", parameters: SCHEMA }]);
    expect(piece.toolMessages).toEqual([{ callId: "t0", content: "bad", error: true, idKept: true }]);
  });

  it("v5/v6 shapes: input, inputSchema, error-text outputs; the enclosing ai.generateText span is not a model call", () => {
    const piece = model(
      mapVercelAi(
        span("ai.streamText.doStream", {
          "ai.model.id": "m",
          "ai.response.toolCalls": JSON.stringify([{ toolCallId: "t1", toolName: "w", input: { city: "P" } }]),
          "ai.prompt.tools": [
            JSON.stringify({ type: "function", name: "w", inputSchema: SCHEMA }),
            JSON.stringify({ type: "provider", id: "x.y", name: "y", args: {} }),
          ],
          "ai.prompt.messages": JSON.stringify([
            { role: "tool", content: [{ type: "tool-result", toolCallId: "t0", output: { type: "error-text", value: "Invalid input" } }] },
          ]),
        }),
      ),
    );
    expect(piece.calls[0]!.arguments).toEqual({ city: "P" });
    expect(piece.definitions).toEqual([{ name: "w", parameters: SCHEMA }]);
    expect(piece.toolMessages).toEqual([{ callId: "t0", content: "Invalid input", error: true, idKept: true }]);
    expect(mapVercelAi(span("ai.generateText", { "ai.usage.inputTokens": 100 }))).toBe("nothing");
    expect(tool(mapVercelAi(span("ai.toolCall", { "ai.toolCall.name": "w", "ai.toolCall.id": "t1", "ai.toolCall.result": '{"ok":1}' })))).toMatchObject({
      callId: "t1",
      status: "ok",
      summary: '{"ok":1}',
    });
  });
});

describe("OpenInference and OpenLLMetry", () => {
  it("OpenInference: several output messages and tool calls keep their order; OpenAI-shaped definitions", () => {
    const piece = model(
      mapOpenInference(
        span("llm", {
          "openinference.span.kind": "LLM",
          "llm.model_name": "m",
          "llm.output_messages.1.message.tool_calls.0.tool_call.function.name": "c",
          "llm.output_messages.0.message.tool_calls.10.tool_call.function.name": "b",
          "llm.output_messages.0.message.tool_calls.2.tool_call.function.name": "a",
          "llm.output_messages.0.message.tool_calls.2.tool_call.function.arguments": "{}",
          "llm.tools.0.tool.json_schema": JSON.stringify({ type: "function", function: { name: "a", parameters: SCHEMA } }),
        }),
      ),
    );
    expect(piece.calls.map((c) => c.name)).toEqual(["a", "b", "c"]);
    expect(piece.definitions).toEqual([{ name: "a", parameters: SCHEMA }]);
  });

  it("OpenLLMetry: JS's `arguments` key for function schemas, and the newer GenAI message attributes", () => {
    const piece = model(
      mapOpenLlmetry(
        span("openai.chat", {
          "llm.request.type": "chat",
          "gen_ai.request.model": "m",
          "llm.request.functions.0.name": "f",
          "llm.request.functions.0.arguments": JSON.stringify(SCHEMA),
          "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "x", name: "f", arguments: "{}" }] }]),
        }),
      ),
    );
    expect(piece.definitions).toEqual([{ name: "f", parameters: SCHEMA }]);
    expect(piece.calls).toEqual([{ callId: "x", name: "f", arguments: {} }]);
  });
});

describe("mapSpan: the family that reads a span", () => {
  it("reads OpenLLMetry's spans as OpenLLMetry although they carry GenAI attributes too", () => {
    // newer OpenLLMetry releases name the tool in gen_ai.tool.name, which the GenAI mapper also reads
    const toolSpan = span("get_weather.tool", {
      "traceloop.span.kind": "tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_1",
      "traceloop.entity.output": '{"temp":21}',
    });
    expect(mapGenAi(toolSpan)).toMatchObject({ kind: "tool", family: "gen_ai" });
    expect(mapSpan(toolSpan)).toMatchObject({ kind: "tool", family: "openllmetry", callId: "call_1", summary: '{"temp":21}' });

    // a model-call span with both the GenAI message attributes and the legacy function definitions
    const modelSpan = span("openai.chat", {
      "llm.request.type": "chat",
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m",
      "llm.request.functions.0.name": "f",
      "llm.request.functions.0.arguments": JSON.stringify(SCHEMA),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "x", name: "f", arguments: "{}" }] }]),
    });
    expect(model(mapGenAi(modelSpan)).definitions).toEqual([]);
    expect(mapSpan(modelSpan)).toMatchObject({ kind: "model", family: "openllmetry", definitions: [{ name: "f", parameters: SCHEMA }] });
  });

  it("reads the AI SDK's model calls as the AI SDK's, with the gen_ai.* attributes it also sets", () => {
    const doGenerate = span("ai.generateText.doGenerate", {
      "operation.name": "ai.generateText.doGenerate",
      "ai.model.id": "gpt-4o",
      "ai.model.provider": "openai.chat",
      "gen_ai.system": "openai.chat",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.usage.input_tokens": 10,
      "ai.response.toolCalls": JSON.stringify([{ toolCallId: "t1", toolName: "w", input: { city: "P" } }]),
    });
    expect(mapSpan(doGenerate)).toMatchObject({ kind: "model", family: "vercel_ai", calls: [{ callId: "t1", name: "w" }] });
  });
});

describe("Vercel AI SDK", () => {
  const doGenerate = (attributes: Attributes) =>
    model(mapVercelAi(span("ai.generateText.doGenerate", { "ai.operationId": "ai.generateText.doGenerate", "ai.model.id": "m", ...attributes })));

  it("the run id from v6's telemetry metadata and from v7's runtime context (v7 removed metadata); the metadata first when both are there", () => {
    expect(doGenerate({ "ai.telemetry.metadata.sessionId": "v6" }).runId).toBe("v6");
    expect(doGenerate({ "ai.telemetry.metadata.conversationId": "v6c" }).runId).toBe("v6c");
    expect(doGenerate({ "ai.settings.context.sessionId": "v7" }).runId).toBe("v7");
    expect(doGenerate({ "ai.settings.context.conversationId": "v7c" }).runId).toBe("v7c");
    expect(doGenerate({ "ai.telemetry.metadata.sessionId": "v6", "ai.settings.context.sessionId": "v7" }).runId).toBe("v6");
    expect(doGenerate({ "ai.settings.context.userId": "u" }).runId).toBeUndefined();
  });
});

describe("assembly", () => {
  it("ids are stable and bounded; usage goes with the first call of a model call only", () => {
    expect(eventId(TRACE, "c", "s", 0)).toBe(eventId(TRACE, "c", "other", 3));
    expect(eventId(TRACE, "x".repeat(500), "s", 0).length).toBeLessThanOrEqual(128);
    expect(eventId(TRACE, undefined, "s", 1)).not.toBe(eventId(TRACE, undefined, "s", 2));
    const chat = span("chat", {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m",
      "gen_ai.usage.input_tokens": 9,
      "gen_ai.output.messages": JSON.stringify([
        {
          role: "assistant",
          parts: [
            { type: "tool_call", name: "a", arguments: {} },
            { type: "tool_call", name: "b", arguments: {} },
          ],
        },
      ]),
    });
    const out = assemble([chat, chat]);
    expect(out.calls.map((c) => c.event.usage?.inputTokens)).toEqual([9, undefined, 9, undefined]);
    expect(new Set(out.calls.map((c) => c.event.id)).size).toBe(2);
  });

  it("pairs each tool span with its call: by tool call id, else the latest earlier call of that tool in the request", () => {
    const ms = (n: number) => 1_764_493_200_000_000_000n + BigInt(n) * 1_000_000n;
    const chat = (calls: object[], at: number, more: Attributes = {}) =>
      span(
        "chat",
        {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "m",
          "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: calls.map((c) => ({ type: "tool_call", arguments: {}, ...c })) }]),
          "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "w", parameters: SCHEMA }]),
          ...more,
        },
        { startNs: ms(at), endNs: ms(at + 10) },
      );
    const first = chat([{ name: "w" }, { name: "v" }], 0);
    const second = chat([{ name: "w" }], 100, {
      "gen_ai.input.messages": JSON.stringify([{ role: "tool", parts: [{ type: "tool_call_response", id: "earlier", response: "done" }] }]),
    });
    const byId = chat([{ name: "w", id: "call_9" }], 200);
    const llmetryTool = (at: number) =>
      span("w.tool", { "traceloop.span.kind": "tool", "traceloop.entity.name": "w", "traceloop.entity.output": "ok" }, { startNs: ms(at), endNs: ms(at + 5) });
    const out = assemble([
      first,
      second,
      byId,
      llmetryTool(150), // after both calls of w: the latest, the second one's
      llmetryTool(50), // before the second: the first one's
      llmetryTool(60), // nothing left before it
      span("execute_tool w", { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "w", "gen_ai.tool.call.id": "call_9" }),
      span("GET /", { "http.request.method": "GET" }),
      span("chat", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" }, { startNs: 0n }),
    ]);
    const [w1, v1, w2, w3] = out.calls;
    expect(out.calls.map((c) => c.event.tool)).toEqual(["w", "v", "w", "w"]);
    expect(w1!.definition).toEqual({ name: "w", parameters: SCHEMA });
    expect(v1!.definition).toBeUndefined();
    expect(w3!.event.metadata).toMatchObject({ "otel.tool_call_id": "call_9", "otel.source": "gen_ai" });
    expect(w1!.event.metadata).not.toHaveProperty("otel.tool_call_id");
    // the three model calls repeat one definitions text: it is listed once, with the first span that gave it
    expect(out.definitions).toEqual([{ definition: { name: "w", parameters: SCHEMA }, span: { name: first.name, traceId: first.traceId } }]);
    expect(out.modelCalls.map((m) => m.startedNs)).toEqual([ms(0), ms(100), ms(200)]);
    // each result as written (the trace and span name it came from ride along for the stats)
    expect(out.results).toMatchObject([
      { callId: eventId(TRACE, "earlier", second.spanId, 0), priority: 1, status: "ok", summary: "done" },
      { callId: w2!.event.id, priority: 2, status: "ok", summary: "ok", latencyMs: 5 },
      { callId: w1!.event.id, priority: 2, status: "ok", summary: "ok", latencyMs: 5 },
      { callId: w3!.event.id, priority: 2, status: "ok", latencyMs: 500 },
    ]);
    expect(out.ignored).toBe(1);
    expect(out.rejected.map((r) => r.reason)).toEqual(['model-call span "chat" has no start time']);
    // nothing left before it in the request: an execution, joined with its call when both are stored (executions.ts)
    expect(out.executions).toMatchObject([{ spanName: "w.tool", tool: "w" }]);
  });

  it("arguments: objects kept, JSON text parsed, anything else (or too deep) kept as the raw text", () => {
    expect(writtenArguments('{"a":1}')).toEqual({ a: 1 });
    expect(writtenArguments("[1]")).toBe("[1]");
    expect(writtenArguments(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`)).toMatch(/^\{"a":\[/);
    // the limit is 64 levels: the object, then 63 arrays, is kept; one more array is too deep
    const nested = (arrays: number) => `{"a":${"[".repeat(arrays)}${"]".repeat(arrays)}}`;
    expect(writtenArguments(nested(63))).toEqual(JSON.parse(nested(63)));
    expect(writtenArguments(nested(64))).toBe(nested(64));
    expect(writtenArguments(JSON.parse(nested(63)))).toEqual(JSON.parse(nested(63)));
    expect(writtenArguments(JSON.parse(nested(64)))).toBe(nested(64));
    expect(definitionFrom({ type: "function", name: "x", parameters: JSON.stringify(SCHEMA) })).toEqual({ name: "x", parameters: SCHEMA });
  });
});

describe("conversations: results of every shape, calls without ids", () => {
  const llm = (input: Attributes, output: Attributes) =>
    model(
      mapOpenInference(
        span("llm", { "openinference.span.kind": "LLM", "llm.model_name": "m-2026", "llm.invocation_parameters": '{"model":"m"}', ...input, ...output }),
      ),
    );

  it("OpenInference: the requested model is the name and the response's the version; role user + tool_call_id is a result", () => {
    const piece = llm(
      {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "hi",
        "llm.input_messages.1.message.role": "assistant",
        "llm.input_messages.1.message.tool_calls.0.tool_call.id": "t1",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "w",
        "llm.input_messages.2.message.role": "user",
        "llm.input_messages.2.message.tool_call_id": "t1",
        "llm.input_messages.2.message.content": "Error: no",
      },
      {},
    );
    expect(piece.model).toEqual({ name: "m", version: "m-2026" });
    expect(piece.toolMessages).toEqual([{ callId: "t1", content: "Error: no", error: false, idKept: true }]);
    expect(piece.continues).toEqual(["t1"]);
  });

  it("calls without ids get the same positional id in the turn that wrote them and in the next turn's input, so results pair", () => {
    const opening = { "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "loan 4471?" };
    const first = llm(opening, { "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "w" });
    const next = llm(
      {
        ...opening,
        "llm.input_messages.1.message.role": "assistant",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "w",
        "llm.input_messages.2.message.role": "tool",
        "llm.input_messages.2.message.content": "sunny",
      },
      { "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "w" },
    );
    expect(first.calls[0]!.callId).toMatch(/^#\w+\.0\.0$/);
    // neither the call nor its result had an id: whether the harness kept one cannot be known (no idKept)
    expect(next.toolMessages).toEqual([{ callId: first.calls[0]!.callId, content: "sunny", error: false }]);
    expect(next.calls[0]!.callId).not.toBe(first.calls[0]!.callId);
    // another conversation in the same trace does not collide
    const other = llm(
      { ...opening, "llm.input_messages.0.message.content": "loan 5820?" },
      { "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "w" },
    );
    expect(other.calls[0]!.callId).not.toBe(first.calls[0]!.callId);
  });

  it("parallel calls with ids answered by messages without one: paired by position, and the lost ids are marked", () => {
    const piece = llm(
      {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "two loans?",
        "llm.input_messages.1.message.role": "assistant",
        "llm.input_messages.1.message.tool_calls.0.tool_call.id": "p1",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "getloan",
        "llm.input_messages.1.message.tool_calls.1.tool_call.id": "p2",
        "llm.input_messages.1.message.tool_calls.1.tool_call.function.name": "getloan",
        "llm.input_messages.2.message.role": "tool",
        "llm.input_messages.2.message.content": "first",
        "llm.input_messages.3.message.role": "tool",
        "llm.input_messages.3.message.tool_call_id": "p2",
        "llm.input_messages.3.message.content": "second",
      },
      {},
    );
    expect(piece.toolMessages).toEqual([
      { callId: "p1", content: "first", error: false, idKept: false },
      { callId: "p2", content: "second", error: false, idKept: true },
    ]);
  });

  it("Anthropic tool_result parts in OpenLLMetry's indexed prompts, with is_error", () => {
    const piece = model(
      mapOpenLlmetry(
        span("anthropic.chat", {
          "llm.request.type": "chat",
          "gen_ai.request.model": "c",
          "gen_ai.prompt.0.role": "user",
          "gen_ai.prompt.0.content": JSON.stringify([
            { type: "tool_result", tool_use_id: "a", content: "Error: bad", is_error: true },
            { type: "tool_result", tool_use_id: "b", content: [{ type: "text", text: "ok" }] },
          ]),
        }),
      ),
    );
    expect(piece.toolMessages).toEqual([
      { callId: "a", content: "Error: bad", error: true, idKept: true },
      { callId: "b", content: "ok", error: false, idKept: true },
    ]);
  });

  it("a retry under the right name corrects the unknown tool of the previous turn", () => {
    const chat = span("chat", {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m",
      "gen_ai.input.messages": JSON.stringify([
        { role: "user", parts: [{ type: "text", content: "?" }] },
        { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "getloans", arguments: {} }] },
        { role: "tool", parts: [{ type: "tool_call_response", id: "c1", response: "no such tool" }] },
      ]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "c2", name: "getloan", arguments: {} }] }]),
    });
    const [call] = assemble([chat]).calls;
    expect(call!.event.correctsId).toBe(eventId(TRACE, "c1", "", 0));
  });
});
