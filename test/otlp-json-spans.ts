// OTLP/JSON spans of the GenAI conventions for tests that post them by hand: a model call that
// wrote one tool call, and the tool's execution. Each span gets fresh ids unless `span` overrides them.

const START = 1764493200000000000n;
let counter = 0;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const ids = () => ({ traceId: hex(++counter, 32), spanId: hex(++counter, 16) });

export const attributes = (attrs: Record<string, string>) => Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } }));

export function chatSpan(call: { id: string; name: string }, extra: Record<string, string> = {}, span: Record<string, unknown> = {}) {
  return {
    ...ids(),
    name: "chat m",
    kind: 3,
    startTimeUnixNano: String(START),
    endTimeUnixNano: String(START + 1_000_000n),
    attributes: attributes({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m",
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: call.id, name: call.name, arguments: {} }] }]),
      ...extra,
    }),
    ...span,
  };
}

export function toolSpan(callId: string, result: string, durationNs: bigint, span: Record<string, unknown> = {}) {
  return {
    ...ids(),
    name: "execute_tool lookup",
    kind: 1,
    startTimeUnixNano: String(START),
    endTimeUnixNano: String(START + durationNs),
    attributes: attributes({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup",
      "gen_ai.tool.call.id": callId,
      "gen_ai.tool.call.result": result,
    }),
    ...span,
  };
}

/** An ExportTraceServiceRequest (OTLP/JSON) holding these spans. */
export const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans }] }] });
