import { createHash } from "node:crypto";
import { encodeRequest } from "../server/adapters/otlp/wire";
import { LOAN_TOOLS } from "../test/events";

// OTLP mode: the same calls as an instrumented harness exports them (OpenTelemetry GenAI):
// per step one `chat` span (tool calls in gen_ai.output.messages, the tool definitions, usage)
// and one `execute_tool` span per call with its result; one request per `--batch` events.

/** Protobuf ExportTraceServiceRequest bodies of `batch` events each, and how many spans they hold. */
export function otlpBodies(events: Iterable<Record<string, unknown>>, batch: number) {
  const id = (text: string, bytes: number) => createHash("sha256").update(text).digest().subarray(0, bytes);
  const definitions = JSON.stringify(LOAN_TOOLS.map((t) => ({ type: "function", ...t })));
  const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const int = (key: string, value: number) => ({ key, value: { intValue: value } });
  const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
  type Event = {
    id: string;
    runId: string;
    step: number;
    timestamp: string;
    model: { provider?: string; name: string; version?: string };
    tool: string;
    arguments: unknown;
    usage?: { inputTokens: number; outputTokens: number };
    result?: { status: string; summary?: string; latencyMs?: number };
  };
  const spansOf = (event: Event) => {
    const traceId = id(event.runId, 16);
    const at = Date.parse(event.timestamp);
    const model = [
      str("gen_ai.operation.name", "chat"),
      str("gen_ai.request.model", event.model.name),
      ...(event.model.provider ? [str("gen_ai.provider.name", event.model.provider)] : []),
      ...(event.model.version ? [str("gen_ai.response.model", event.model.version)] : []),
      int("gen_ai.usage.input_tokens", event.usage?.inputTokens ?? 0),
      int("gen_ai.usage.output_tokens", event.usage?.outputTokens ?? 0),
      str("gen_ai.conversation.id", event.runId),
      str("gen_ai.tool.definitions", definitions),
      str(
        "gen_ai.output.messages",
        JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: event.id, name: event.tool, arguments: event.arguments }] }]),
      ),
    ];
    const chatId = id(`${event.id}/chat`, 8);
    const latency = event.result?.latencyMs ?? 10;
    return [
      { traceId, spanId: chatId, name: `chat ${event.model.name}`, kind: 3, startTimeUnixNano: ns(at - 800), endTimeUnixNano: ns(at), attributes: model },
      {
        traceId,
        spanId: id(`${event.id}/tool`, 8),
        parentSpanId: chatId,
        name: `execute_tool ${event.tool}`,
        kind: 1,
        startTimeUnixNano: ns(at + 5),
        endTimeUnixNano: ns(at + 5 + latency),
        attributes: [
          str("gen_ai.operation.name", "execute_tool"),
          str("gen_ai.tool.name", event.tool),
          str("gen_ai.tool.call.id", event.id),
          ...(event.result?.summary ? [str("gen_ai.tool.call.result", event.result.summary)] : []),
        ],
        status: { code: event.result?.status === "ok" ? 1 : 2, message: event.result?.status === "ok" ? "" : (event.result?.summary ?? "") },
      },
    ];
  };
  const bodies: Blob[] = [];
  let spans: unknown[] = [];
  let count = 0;
  let sent = 0;
  const flush = () => {
    bodies.push(
      new Blob([
        new Uint8Array(
          encodeRequest({
            resourceSpans: [{ resource: { attributes: [str("service.name", "bench-agent")] }, scopeSpans: [{ scope: { name: "bench" }, spans }] }],
          }),
        ),
      ]),
    );
    spans = [];
  };
  for (const event of events) {
    spans.push(...spansOf(event as unknown as Event));
    count += 2;
    if (++sent % batch === 0) flush();
  }
  if (spans.length) flush();
  return { bodies, spans: count };
}
