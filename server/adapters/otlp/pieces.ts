import { createHash } from "node:crypto";
import { isPlainObject, SCHEMA_KEYS } from "../../../isomorphic/tool-schema";
import type { ResultStatus } from "../../../contracts/event";
import { failureStatus } from "../../../isomorphic/outcome";
import type { Attributes, AttrValue, OtlpSpan } from "./wire";

/**
 * What the convention families' mappers produce from one span: a piece of a tool call.
 * A model-call span gives the calls as the model wrote them (plus usage, the tool
 * definitions it was given and the tool messages of its input, i.e. the previous turn's
 * results); a tool-execution span gives what happened to one call.
 */
export type Family = "gen_ai" | "vercel_ai" | "openinference" | "openllmetry";

export type ToolArguments = Record<string, unknown> | string;
export type WrittenCall = { callId?: string; name: string; arguments: ToolArguments };
/**
 * A tool result of the input. `idKept`: true when the message named its call's tool call id, false
 * when it named none and answered its call (which had one) by position; absent when the call had
 * no id either (a positional one), so nothing could be kept.
 */
export type ToolMessage = { callId: string; content: string; error: boolean; idKept?: boolean };
/**
 * One message of a model call's input, as the families flatten them: an assistant turn with
 * the calls it wrote, or a tool result (role `tool`, or role `user` with a tool call id, as
 * OpenInference's Anthropic instrumentation sends them), or anything else.
 */
export type InputMessage =
  | { kind: "assistant"; calls: WrittenCall[]; /** its text, for the conversation view (transcript.ts) */ text?: string }
  | { kind: "result"; callId?: string; content: string; error: boolean }
  | {
      kind: "other";
      content?: string;
      /** `system`, `user`, …, and its text where `content` lacks it: for the conversation view */ role?: string;
      text?: string;
    };
export type Usage = { inputTokens?: number; outputTokens?: number; costUsd?: number };
/** A tool definition in a shape `tools.register` accepts: { name, description?, parameters }. */
export type Definition = { name: string; description?: string; parameters: Record<string, unknown> };

export interface ModelCallPiece {
  kind: "model";
  family: Family;
  span: OtlpSpan;
  runId?: string;
  model: { provider?: string; name: string; version?: string };
  usage?: Usage;
  calls: WrittenCall[];
  toolMessages: ToolMessage[];
  /** the tool call ids of earlier turns that this call's input repeats: the conversation it continues */
  continues: string[];
  /** the calls of the previous turn (those whose results this model call was given) */
  answered: WrittenCall[];
  /** how many assistant turns its input repeats (0 when it recorded no input): its place in its conversation */
  turn: number;
  definitions: Definition[];
  /** its input messages and the text of its answer, as recorded: the run's conversation (transcript.ts) */
  input: InputMessage[];
  outputText?: string;
}

export interface ToolExecutionPiece {
  kind: "tool";
  family: Family;
  span: OtlpSpan;
  callId?: string;
  name: string;
  status: ResultStatus;
  summary?: string;
  latencyMs: number;
  /** what a server or tool runtime records of the execution (MCP conventions), when it did */
  server?: string;
  protocolVersion?: string;
  requestId?: string;
  arguments?: ToolArguments;
}

/** A mapper's answer: a piece, "not a span of this family", "a GenAI span with nothing to use", or a reason it is unusable. */
export type Mapped = ModelCallPiece | ToolExecutionPiece | "other" | "nothing" | { rejected: string };

/* ---------- attribute readers shared by the mappers ---------- */

export const str = (a: Attributes, key: string): string | undefined => {
  const v = a[key];
  return typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
};

export const num = (a: Attributes, ...keys: string[]): number | undefined => {
  for (const key of keys) {
    const v = a[key];
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return undefined;
};

export const first = (a: Attributes, ...keys: string[]) => keys.map((k) => str(a, k)).find((v) => v !== undefined);

/** Deeper JSON than this is kept as the raw string (PostgreSQL and the classifier would choke on it). */
const MAX_JSON_DEPTH = 64;

/**
 * Whether a value nests more than `levels` levels (a value is one level, each object or array
 * around it one more). It recurses at most `levels` + 1 calls deep, whatever the value, and
 * allocates nothing: it runs for every structured attribute of every span.
 */
function deeperThan(value: unknown, levels: number): boolean {
  if (levels < 1) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, levels - 1)) return true;
  } else if (isPlainObject(value)) {
    for (const key in value) if (Object.hasOwn(value, key) && deeperThan(value[key], levels - 1)) return true;
  }
  return false;
}

/** What a JSON text can start with (after white space); anything else is not JSON, and need not pay for JSON.parse's exception. */
const JSON_START = /^\s*[[{"\-0-9tfn]/;

/** A structured attribute: JS exporters send JSON strings, others structured AnyValues; both are accepted. */
export function structured(value: AttrValue | undefined): unknown {
  if (typeof value !== "string") return value;
  if (!JSON_START.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return deeperThan(parsed, MAX_JSON_DEPTH) ? undefined : parsed;
  } catch {
    return undefined;
  }
}

/** Tool-call arguments as the model wrote them: the object when the text is a JSON object, else the raw text. */
export function writtenArguments(value: unknown): ToolArguments {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") {
    const parsed = structured(value);
    return isPlainObject(parsed) ? parsed : value;
  }
  if (isPlainObject(value) && !deeperThan(value, MAX_JSON_DEPTH)) return value;
  return JSON.stringify(value) ?? "";
}

/** A text rendering of a result for the stored summary (at most 10,000 characters, as for ingest.batch). */
export function summaryOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return text.length > 10_000 ? `${text.slice(0, 9_999)}…` : text;
}

/**
 * Instrumentations repeat the same tool definitions on every model-call span, and an export
 * holds hundreds of spans: while one export is mapped (`assemble`), each distinct definitions
 * text is read once and the spans that carry it share what was read (nothing changes it).
 */
let definitionsOfExport: Map<string, Definition[]> | undefined;

/** Runs `work` (the mapping of one export's spans) with its own memo of definitions texts. */
export function withinOneExport<T>(work: () => T): T {
  const outer = definitionsOfExport;
  definitionsOfExport = new Map();
  try {
    return work();
  } finally {
    definitionsOfExport = outer;
  }
}

/** The tool definitions in an attribute value, as `read` finds them; a text already read in this export is not read again. */
export function definitionsOnce(value: AttrValue | undefined, read: (value: AttrValue | undefined) => Definition[]): Definition[] {
  if (typeof value !== "string" || !definitionsOfExport) return read(value);
  let found = definitionsOfExport.get(value);
  if (!found) definitionsOfExport.set(value, (found = read(value)));
  return found;
}

/**
 * Flattened lists (`llm.tools.0.tool.json_schema`, `gen_ai.completion.1.tool_calls.0.name`):
 * the entries under `prefix` grouped by their index, in index order, each keyed by the rest of the name.
 */
export function indexed(a: Record<string, AttrValue>, prefix: string): Record<string, AttrValue>[] {
  const groups = new Map<number, Record<string, AttrValue>>();
  for (const [key, value] of Object.entries(a)) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d{1,4})\.(.+)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const index = Number(match[1]);
    if (!groups.has(index)) groups.set(index, {});
    groups.get(index)![match[2]!] = value;
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
}

/**
 * Tool definitions in any of the shapes the families emit: OpenAI's nested
 * `{type:"function", function:{…}}`, the flat `{name, description, parameters}`, and the AI
 * SDK's `inputSchema` (the keys tools.register reads: SCHEMA_KEYS). Definitions without a schema (content capture off) and provider tools are skipped.
 */
export function definitionFrom(raw: unknown): Definition | null {
  const value = typeof raw === "string" ? structured(raw) : raw;
  if (!isPlainObject(value)) return null;
  const source = isPlainObject(value.function) ? value.function : value;
  if (value.type !== undefined && value.type !== "function") return null;
  const parameters = SCHEMA_KEYS.map((key) => source[key]).find((schema) => schema !== undefined && schema !== null);
  const schema = typeof parameters === "string" ? structured(parameters) : parameters;
  if (typeof source.name !== "string" || !isPlainObject(schema)) return null;
  return { name: source.name, ...(typeof source.description === "string" ? { description: source.description } : {}), parameters: schema };
}

/* ---------- conversations: tool results and calls without ids ---------- */

/**
 * The id of a call the instrumentation recorded without one: its conversation (a hash of the
 * messages before the first assistant turn, which every turn repeats), its turn (how many
 * assistant messages came before it) and its position in that turn. The model call that wrote
 * it and every later one that repeats it in its input compute the same id, so a re-sent span is
 * a duplicate and the next turn's tool message still finds its call.
 */
const positionalCallId = (conversation: string, turn: number, position: number) => `#${conversation}.${turn}.${position}`;
const isPositional = (callId: string) => callId.startsWith("#");

/** Tool results parts in Anthropic's shape (`{type: "tool_result", tool_use_id, content, is_error}`) inside a message's content. */
export function toolResultParts(content: unknown): ToolMessage[] {
  const value = typeof content === "string" && content.startsWith("[") ? structured(content) : content;
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).flatMap((p) => {
    if (p.type !== "tool_result" || typeof p.tool_use_id !== "string" || p.tool_use_id === "") return [];
    return [{ callId: p.tool_use_id, content: textOf(p.content), error: p.is_error === true }];
  });
}

/**
 * One message of the flattened (indexed) forms, given its fields: an assistant turn with the
 * calls it wrote, a tool result (role `tool`, or any role with a tool call id, as OpenInference's
 * Anthropic instrumentation sends them), Anthropic `tool_result` parts, or anything else.
 */
export function flattenedMessage(fields: {
  role?: string;
  callId?: string;
  content: AttrValue | undefined;
  calls: () => WrittenCall[];
  /** the text to show where `content` has none (a message sent as parts) */
  text?: string;
}): InputMessage[] {
  const { role, callId, content, text } = fields;
  if (role === "assistant") return [{ kind: "assistant", calls: fields.calls(), text: displayText(content) || (text ?? "") }];
  if (role === "tool" || callId) return [{ kind: "result", ...(callId ? { callId } : {}), content: textOf(textBlocks(content) ?? content), error: false }];
  const parts = toolResultParts(content);
  return parts.length
    ? parts.map((p) => ({ kind: "result" as const, ...p }))
    : [{ kind: "other", content: typeof content === "string" ? content : "", ...(role ? { role } : {}), ...(text ? { text } : {}) }];
}

/** A message's content as text to show: text blocks joined, a string as it is, nothing else. */
export const displayText = (content: unknown): string => {
  const blocks = typeof content === "string" ? textBlocks(content) : Array.isArray(content) ? content : undefined;
  if (blocks) return blocks.flatMap((b) => (isPlainObject(b) && typeof b.text === "string" ? [b.text] : [])).join("\n");
  return typeof content === "string" ? content : "";
};

/** Content sent as a JSON array of text blocks (Anthropic, OpenAI content parts); anything else is kept as sent. */
function textBlocks(content: AttrValue | undefined): unknown[] | undefined {
  const value = typeof content === "string" && content.startsWith("[") ? structured(content) : undefined;
  return Array.isArray(value) && value.every((b) => isPlainObject(b) && typeof b.text === "string") ? value : undefined;
}

/** A result's text: strings as they are, Anthropic/OpenAI content blocks by their text, anything else as JSON. */
export function textOf(value: unknown): string {
  if (Array.isArray(value) && value.every((b) => isPlainObject(b) && typeof b.text === "string")) return summaryOf(value.map((b) => b.text).join("\n")) ?? "";
  return summaryOf(value) ?? "";
}

export type Conversation = {
  toolMessages: ToolMessage[];
  continues: string[];
  /** the calls of the last assistant turn of the input: those this model call is answering */
  answered: WrittenCall[];
  turn: number;
  conversation: string;
};

/**
 * Reads a model call's input as a conversation: the results it carries (each paired with its
 * call: by the tool call id, or, when the instrumentation recorded none, by position after the
 * assistant turn that wrote the calls), the tool call ids it repeats from earlier turns, and the
 * turn its own output is (the number of assistant messages before it).
 */
export function readConversation(messages: InputMessage[]): Conversation {
  const toolMessages: ToolMessage[] = [];
  const continues: string[] = [];
  const firstAssistant = messages.findIndex((m) => m.kind === "assistant");
  const opening = messages.slice(0, firstAssistant < 0 ? messages.length : firstAssistant);
  // no input recorded: nothing to recognise the conversation by, so calls keep span-based ids
  const conversation = messages.length ? hash(JSON.stringify(opening.map((m) => (m.kind === "other" ? (m.content ?? "") : m.kind)))).slice(0, 12) : "";
  let turn = 0;
  let pending: string[] = [];
  let answered: WrittenCall[] = [];
  for (const m of messages) {
    if (m.kind === "assistant") {
      answered = m.calls.map((c, position) => (c.callId ? c : { ...c, callId: positionalCallId(conversation, turn, position) }));
      pending = answered.map((c) => c.callId!);
      continues.push(...pending);
      turn++;
    } else if (m.kind === "result") {
      const callId = m.callId ?? pending[0];
      if (!callId) continue;
      pending = pending.filter((id) => id !== callId);
      const idKept = m.callId !== undefined ? true : isPositional(callId) ? undefined : false;
      toolMessages.push({ callId, content: m.content, error: m.error, ...(idKept !== undefined ? { idKept } : {}) });
    }
  }
  return { toolMessages, continues: [...new Set(continues)], answered, turn, conversation };
}

/** The calls a model call wrote, those without an id given their positional one (see positionalCallId). */
export const withCallIds = (calls: WrittenCall[], read: { conversation: string; turn: number }): WrittenCall[] =>
  read.conversation ? calls.map((c, position) => (c.callId ? c : { ...c, callId: positionalCallId(read.conversation, read.turn, position) })) : calls;

/* ---------- stable ids ---------- */

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * The event id of a tool call: its tool call id within the trace, or, when the
 * instrumentation records none, the model-call span and the call's position in its output.
 * The same span always gives the same id, so re-sent spans are duplicates.
 */
export function eventId(traceId: string, callId: string | undefined, modelSpanId: string, position: number): string {
  if (callId === undefined) return `otel:${traceId}:${modelSpanId}:${position}`;
  const id = `otel:${traceId}:${callId}`;
  return id.length <= 128 ? id : `otel:${traceId}:h${hash(callId)}`;
}

/** The span's duration in whole milliseconds. */
const durationMs = (span: OtlpSpan) => (span.endNs > span.startNs ? Number((span.endNs - span.startNs) / 1_000_000n) : 0);

/** An ISO timestamp (with microseconds lost) from unix nanoseconds. */
export const isoFromNs = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString();

const isError = (span: OtlpSpan) => span.status.code === 2 || str(span.attributes, "error.type") !== undefined;

/** The error text of a failed span: its status message, else its exception event's message, else error.type. */
function errorText(span: OtlpSpan): string | undefined {
  const exception = span.events.find((e) => e.name === "exception");
  return span.status.message || (exception && first(exception.attributes, "exception.message", "exception.type")) || str(span.attributes, "error.type");
}

/** A failed span's kind of failure (isomorphic/outcome.ts): from error.type, the exception's type and the status message. */
function failedStatus(span: OtlpSpan): Exclude<ResultStatus, "ok"> {
  const exception = span.events.find((e) => e.name === "exception");
  return failureStatus(str(span.attributes, "error.type"), exception && str(exception.attributes, "exception.type"), span.status.message);
}

/** A tool-execution piece: failed spans give their error text, others the recorded result. */
export function toolPiece(family: Family, span: OtlpSpan, name: string, callId: string | undefined, result: unknown): ToolExecutionPiece {
  const failed = isError(span);
  const summary = failed ? errorText(span) : summaryOf(result);
  return {
    kind: "tool",
    family,
    span,
    ...(callId ? { callId } : {}),
    name,
    status: failed ? failedStatus(span) : "ok",
    // an empty result is kept as it is (""): Toolgate flags ok results that say nothing (isomorphic/outcome.ts)
    ...(summary !== undefined ? { summary } : {}),
    latencyMs: durationMs(span),
  };
}

/** Usage with only the counts that were recorded; undefined when none was. */
export function usageOf(counts: Usage): Usage | undefined {
  const { inputTokens, outputTokens, costUsd } = counts;
  if (inputTokens === undefined && outputTokens === undefined && costUsd === undefined) return undefined;
  return {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** A model-call piece, leaving out what the span did not record. */
export function modelPiece(
  family: Family,
  span: OtlpSpan,
  fields: {
    runId?: string;
    model: ModelCallPiece["model"];
    usage?: Usage;
    calls: WrittenCall[];
    toolMessages: ToolMessage[];
    conversation?: Conversation;
    definitions: Definition[];
    input?: InputMessage[];
    outputText?: string;
  },
): ModelCallPiece {
  const { runId, usage, conversation, input, outputText, ...rest } = fields;
  return {
    kind: "model",
    family,
    span,
    ...(runId ? { runId } : {}),
    ...(usage ? { usage } : {}),
    input: input ?? [],
    ...(outputText ? { outputText } : {}),
    continues: conversation?.continues ?? [],
    answered: conversation?.answered ?? [],
    turn: conversation?.turn ?? 0,
    ...rest,
  };
}
