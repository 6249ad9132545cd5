import { isPlainObject } from "../../../isomorphic/tool-schema";
import {
  definitionFrom,
  definitionsOnce,
  displayText,
  first,
  modelPiece,
  num,
  readConversation,
  str,
  structured,
  summaryOf,
  toolPiece,
  usageOf,
  writtenArguments,
  type Definition,
  type Mapped,
  type InputMessage,
  type Usage,
  type WrittenCall,
} from "./pieces";
import type { Attributes, OtlpSpan } from "./wire";

/**
 * The Vercel AI SDK's own spans (`ai.*`, v4 to v6, and v7's legacy integration): one
 * `ai.generateText.doGenerate` / `ai.streamText.doStream` span per model call with
 * `ai.response.toolCalls`, `ai.prompt.tools` and `ai.prompt.messages`, and one `ai.toolCall`
 * span per executed call. The enclosing `ai.generateText` span repeats the whole run's usage,
 * so it is not a model call. (v7's GenAI-convention spans are read by the GenAI mapper.)
 */
const operationOf = (span: OtlpSpan) => str(span.attributes, "ai.operationId") ?? (span.name.startsWith("ai.") ? span.name : undefined);

/**
 * Where the run id is: v6 and earlier `experimental_telemetry.metadata` (`ai.telemetry.metadata.*`);
 * v7, which removed `metadata`, the `runtimeContext` properties named in
 * `telemetry.includeRuntimeContext` (`ai.settings.context.*`).
 */
const RUN_ID_KEYS = ["sessionId", "conversationId"].flatMap((key) => [`ai.telemetry.metadata.${key}`, `ai.settings.context.${key}`]);

function usage(a: Attributes): Usage | undefined {
  // ai@6.0.119 renamed promptTokens/completionTokens to inputTokens/outputTokens
  return usageOf({
    inputTokens: num(a, "ai.usage.inputTokens", "ai.usage.promptTokens", "gen_ai.usage.input_tokens"),
    outputTokens: num(a, "ai.usage.outputTokens", "ai.usage.completionTokens", "gen_ai.usage.output_tokens"),
  });
}

/** Tool calls in the AI SDK's shapes: v5/v6 `{toolCallId, toolName, input}` (the raw text the model wrote), v4 `args`. */
function callsIn(items: Record<string, unknown>[]): WrittenCall[] {
  const calls: WrittenCall[] = [];
  for (const c of items) {
    if (typeof c.toolName !== "string" || c.toolName === "" || (c.type !== undefined && c.type !== "tool-call")) continue;
    const callId = typeof c.toolCallId === "string" && c.toolCallId ? { callId: c.toolCallId } : {};
    calls.push({ ...callId, name: c.toolName, arguments: writtenArguments(c.input ?? c.args) });
  }
  return calls;
}

/** `ai.response.toolCalls`: the calls this model call wrote. */
function callsOf(a: Attributes): WrittenCall[] {
  const parsed = structured(a["ai.response.toolCalls"]);
  return callsIn(Array.isArray(parsed) ? parsed.filter(isPlainObject) : []);
}

/**
 * `ai.prompt.messages` as a conversation: the assistant turns with their `tool-call` parts (the
 * earlier calls, so that a renamed retry is paired with the call it corrects) and the `tool-result`
 * parts of the tool messages (what the model was told about its previous calls).
 */
function conversationOf(a: Attributes): InputMessage[] {
  const parsed = structured(a["ai.prompt.messages"]);
  const messages: InputMessage[] = [];
  for (const m of Array.isArray(parsed) ? parsed : []) {
    if (!isPlainObject(m)) continue;
    const content = Array.isArray(m.content) ? m.content.filter(isPlainObject) : [];
    if (m.role === "assistant")
      messages.push({
        kind: "assistant",
        calls: callsIn(content),
        text: typeof m.content === "string" ? m.content : displayText(content.filter((p) => p.type === "text")),
      });
    else if (m.role === "tool") {
      for (const p of content) {
        if (p.type !== "tool-result" || typeof p.toolCallId !== "string") continue;
        // v5+: output {type: "json" | "text" | "error-text" | "error-json" | …, value}; v4: result + isError
        const output = isPlainObject(p.output) ? p.output : undefined;
        const error = output ? typeof output.type === "string" && output.type.startsWith("error") : p.isError === true;
        messages.push({ kind: "result", callId: p.toolCallId, content: summaryOf(output ? (output.value ?? output.reason ?? output) : p.result) ?? "", error });
      }
    } else
      messages.push({
        kind: "other",
        content: typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""),
        ...(typeof m.role === "string" ? { role: m.role } : {}),
      });
  }
  return messages;
}

function definitionsOf(a: Attributes): Definition[] {
  return definitionsOnce(a["ai.prompt.tools"], (tools) => {
    const parsed = structured(tools);
    const items = Array.isArray(tools) ? tools : Array.isArray(parsed) ? parsed : [];
    return items.map(definitionFrom).filter((d): d is Definition => d !== null);
  });
}

export function mapVercelAi(span: OtlpSpan): Mapped {
  const operation = operationOf(span);
  if (!operation) return "other";
  const a = span.attributes;
  if (operation === "ai.toolCall") {
    const name = str(a, "ai.toolCall.name");
    if (!name) return { rejected: `ai.toolCall span without ai.toolCall.name` };
    return toolPiece("vercel_ai", span, name, str(a, "ai.toolCall.id"), a["ai.toolCall.result"] ?? a["ai.toolCall.output"]);
  }
  if (!/\.do(Generate|Stream)$/.test(operation)) return "nothing";
  const name = first(a, "ai.model.id", "gen_ai.request.model");
  if (!name) return { rejected: `${operation} span without ai.model.id` };
  const provider = first(a, "ai.model.provider", "gen_ai.system");
  const version = first(a, "ai.response.model", "gen_ai.response.model");
  const input = conversationOf(a);
  const conversation = readConversation(input);
  return modelPiece("vercel_ai", span, {
    input,
    outputText: str(a, "ai.response.text"),
    runId: first(a, ...RUN_ID_KEYS),
    model: { name, ...(provider ? { provider } : {}), ...(version ? { version } : {}) },
    usage: usage(a),
    calls: callsOf(a),
    toolMessages: conversation.toolMessages,
    conversation,
    definitions: definitionsOf(a),
  });
}
