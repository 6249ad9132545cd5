import { createHash } from "node:crypto";
import { unstorableText, walkJson } from "../../../contracts/json-walk";
import { isPlainObject } from "../../../isomorphic/tool-schema";
import { mapSpan } from "./assemble";
import { MODEL_CALL_OPERATIONS } from "./gen-ai";
import { str, structured } from "./pieces";
import type { AttrValue, Attributes, OtlpLogRecord, OtlpSpan } from "./wire";

/**
 * GenAI content sent as log records instead of span attributes. The official OpenTelemetry
 * instrumentations (`@opentelemetry/instrumentation-openai`, Python's openai-v2) put no
 * messages on their chat spans: each message is a log record of the span (same trace and span
 * id) named by its event. Older conventions send one record per message (`gen_ai.system.message`,
 * `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message`, `gen_ai.choice`); the
 * newer ones send `gen_ai.client.inference.operation.details` records with the message attributes
 * of a span (the Responses API path sends the input in one and each output item in another).
 * Every record whose event name starts with `gen_ai.` is kept: a message of a role the event name
 * or the body names is read as one. A span and its records are joined whichever arrives first:
 * the records become the span's message attributes, and the span then goes through the span
 * mappers like any other.
 */
export const isGenAiEvent = (name: string) => name.startsWith("gen_ai.");

/** What is kept of a record to join it later. */
export type LogContent = { event: string; timeNs: bigint; body: AttrValue; attributes: Attributes };

const MESSAGE_ATTRIBUTES = ["gen_ai.input.messages", "gen_ai.output.messages"];

/** A GenAI model-call span with no messages of its own: its content, if any, comes as log records. */
export function awaitsLogContent(span: OtlpSpan): boolean {
  if (MESSAGE_ATTRIBUTES.some((key) => span.attributes[key] !== undefined)) return false;
  // only a GenAI model call's span can be one (tool spans need not be mapped to know that)
  if (!MODEL_CALL_OPERATIONS.has(str(span.attributes, "gen_ai.operation.name") ?? "")) return false;
  const mapped = mapSpan(span);
  return (
    typeof mapped === "object" &&
    "kind" in mapped &&
    mapped.kind === "model" &&
    mapped.family === "gen_ai" &&
    !mapped.calls.length &&
    !mapped.toolMessages.length
  );
}

/** The span a record belongs to, as the span mappers key it (empty when the record carries no span ids). */
export const recordSpanKey = (record: Pick<OtlpLogRecord, "traceId" | "spanId">) => (record.traceId ? `${record.traceId}/${record.spanId}` : "");

/** A stable key of a record's content, so that a re-sent record is kept once. */
export const recordKey = (record: LogContent) =>
  createHash("sha256")
    .update(`${record.event}\n${record.timeNs}\n${JSON.stringify(record.body)}`)
    .digest("hex")
    .slice(0, 32);

const object = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `gen_ai.choice`'s (and an assistant message's) tool calls in OpenAI's shape → GenAI `tool_call` parts. */
const toolCallParts = (message: Record<string, unknown>) =>
  array(message.tool_calls).flatMap((raw) => {
    const call = object(raw);
    const fn = object(call.function);
    const name = fn.name ?? call.name;
    if (typeof name !== "string" || !name) return [];
    return [
      { type: "tool_call", ...(typeof call.id === "string" ? { id: call.id } : {}), name, arguments: (fn.arguments ?? call.arguments ?? "") as AttrValue },
    ];
  });

const MESSAGE_EVENT = /^gen_ai\.(\w+)\.message$/;

/** A message record (`gen_ai.<role>.message`, or another GenAI event whose body names its role) as a GenAI message. */
function messageOf(record: LogContent): Record<string, unknown> | undefined {
  const body = object(record.body);
  const role = MESSAGE_EVENT.exec(record.event)?.[1] ?? (typeof body.role === "string" ? body.role : undefined);
  if (!role) return undefined;
  if (role === "tool") {
    const id = body.id ?? body.tool_call_id ?? record.attributes["gen_ai.tool.call.id"];
    return typeof id === "string" && id ? { role, parts: [{ type: "tool_call_response", id, response: body.content ?? "" }] } : undefined;
  }
  const text = typeof body.content === "string" && body.content ? [{ type: "text", content: body.content }] : [];
  return { role, parts: [...text, ...(role === "assistant" ? toolCallParts(body) : [])] };
}

/** A message attribute's messages, whether sent structured or as JSON text. */
const messagesIn = (value: unknown): unknown[] => array(typeof value === "string" ? structured(value) : value);

/**
 * The span with its log records' content as GenAI message attributes, in the records' order:
 * the message records (system, user, assistant turns with their tool calls, tool results) and
 * the input messages of operation-details records as `gen_ai.input.messages`; the choices' tool
 * calls and the output messages of operation-details records as `gen_ai.output.messages`.
 * Attributes the span already has are kept.
 */
export function spanWithLogs(span: OtlpSpan, records: LogContent[]): OtlpSpan {
  const ordered = [...records].sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
  const input: unknown[] = [];
  const output: unknown[] = [];
  let definitions: unknown;
  const choices = ordered.filter((r) => r.event === "gen_ai.choice").sort((a, b) => Number(object(a.body).index ?? 0) - Number(object(b.body).index ?? 0));
  const chosen = choices.flatMap((choice) => {
    const message = object(object(choice.body).message);
    // the answer's text too, for the conversation view (the mappers read only the tool calls of it)
    return [...(typeof message.content === "string" && message.content ? [{ type: "text", content: message.content }] : []), ...toolCallParts(message)];
  });
  for (const record of ordered) {
    if (record.event === "gen_ai.choice") continue;
    const body = object(record.body);
    const carried = (key: string) => record.attributes[key] ?? body[key];
    const details = MESSAGE_ATTRIBUTES.some((key) => carried(key) !== undefined) || carried("gen_ai.tool.definitions") !== undefined;
    if (details) {
      input.push(...messagesIn(carried("gen_ai.input.messages")));
      output.push(...messagesIn(carried("gen_ai.output.messages")));
      definitions ??= carried("gen_ai.tool.definitions");
      continue;
    }
    const message = messageOf(record);
    if (message) input.push(message);
  }
  if (chosen.length) output.push({ role: "assistant", parts: chosen });
  const added: Attributes = {};
  if (input.length) added["gen_ai.input.messages"] = input as AttrValue;
  if (output.length) added["gen_ai.output.messages"] = output as AttrValue;
  if (definitions !== undefined) added["gen_ai.tool.definitions"] = definitions as AttrValue;
  return { ...span, attributes: { ...added, ...span.attributes } };
}

/** Why PostgreSQL's jsonb cannot hold this value (a NUL or a lone surrogate in a key or a string), or undefined. */
export function unstorableJson(value: unknown): string | undefined {
  let problem: string | undefined;
  walkJson(value, ({ value: v, key }) => {
    problem = (typeof key === "string" ? unstorableText(key) : undefined) ?? (typeof v === "string" ? unstorableText(v) : undefined);
    return problem ? "stop" : true;
  });
  return problem;
}

/** What is kept of a waiting span: what the span mappers read of a GenAI model call (its gen_ai.* and error attributes), times as strings. */
export function pendingSpanJson(span: OtlpSpan) {
  const attributes = Object.fromEntries(Object.entries(span.attributes).filter(([key]) => key.startsWith("gen_ai.") || key === "error.type"));
  return { ...span, attributes, events: [], resource: {}, startNs: String(span.startNs), endNs: String(span.endNs) };
}

export function pendingSpanFrom(json: ReturnType<typeof pendingSpanJson>): OtlpSpan {
  return { ...json, startNs: BigInt(json.startNs), endNs: BigInt(json.endNs), events: [] };
}
