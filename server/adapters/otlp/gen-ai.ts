import { isPlainObject } from "../../../isomorphic/tool-schema";
import {
  definitionFrom,
  definitionsOnce,
  first,
  modelPiece,
  num,
  readConversation,
  str,
  structured,
  textOf,
  toolPiece,
  usageOf,
  withCallIds,
  writtenArguments,
  type Definition,
  type InputMessage,
  type Mapped,
  type Usage,
  type WrittenCall,
} from "./pieces";
import type { Attributes, AttrValue, OtlpSpan } from "./wire";

/**
 * OpenTelemetry GenAI semantic conventions (v1.37 and later, with the names they replaced):
 * inference spans (`gen_ai.operation.name` chat / generate_content / text_completion) carry
 * the model, usage, `gen_ai.output.messages` with the tool calls as the model wrote them,
 * `gen_ai.input.messages` with the previous turn's tool responses and `gen_ai.tool.definitions`;
 * `execute_tool` spans carry what happened to one call.
 */
export const MODEL_CALL_OPERATIONS = new Set(["chat", "generate_content", "text_completion"]);

export const genAiModel = (a: Attributes) => {
  const name = first(a, "gen_ai.request.model", "gen_ai.response.model");
  if (!name) return undefined;
  const provider = first(a, "gen_ai.provider.name", "gen_ai.system");
  const version = str(a, "gen_ai.response.model");
  return { name, ...(provider ? { provider } : {}), ...(version ? { version } : {}) };
};

/** Usage of one model call; the names before v1.27 (prompt/completion tokens) too. */
export function genAiUsage(a: Attributes): Usage | undefined {
  const inputTokens = num(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens");
  const outputTokens = num(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens");
  return usageOf({
    inputTokens: inputTokens === undefined ? undefined : Math.round(inputTokens),
    outputTokens: outputTokens === undefined ? undefined : Math.round(outputTokens),
    costUsd: num(a, "gen_ai.usage.cost"),
  });
}

const messages = (value: unknown): Record<string, unknown>[] => {
  const parsed = structured(value as never);
  return Array.isArray(parsed) ? parsed.filter(isPlainObject) : [];
};
const parts = (message: Record<string, unknown>) => (Array.isArray(message.parts) ? message.parts.filter(isPlainObject) : []);
const idOf = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** `tool_call` parts of the output messages, in order (plain loops: this runs for every model-call span). */
export function callsFromMessages(value: unknown): WrittenCall[] {
  const calls: WrittenCall[] = [];
  for (const m of Array.isArray(value) ? value : messages(value)) {
    if (!isPlainObject(m) || !Array.isArray(m.parts)) continue;
    for (const p of m.parts as unknown[]) {
      if (!isPlainObject(p) || p.type !== "tool_call" || typeof p.name !== "string" || p.name === "") continue;
      const callId = idOf(p.id);
      const written = writtenArguments(p.arguments);
      calls.push(callId ? { callId, name: p.name, arguments: written } : { name: p.name, arguments: written });
    }
  }
  return calls;
}

/** `gen_ai.input.messages` as a conversation: assistant turns with their `tool_call` parts, `tool_call_response` parts (the spec's `response`; its example's `result` too). */
export function inputFromMessages(value: unknown): InputMessage[] {
  return messages(value).flatMap((m): InputMessage[] => {
    if (m.role === "assistant") return [{ kind: "assistant", calls: callsFromMessages([m]), text: textOfParts(m) }];
    const results = parts(m).flatMap((p) => {
      if (p.type !== "tool_call_response") return [];
      const callId = idOf(p.id);
      const response = p.response ?? p.result;
      const denied = isPlainObject(response) && response.denied === true;
      return [{ kind: "result" as const, ...(callId ? { callId } : {}), content: textOf(denied ? (response.reason ?? response) : response), error: denied }];
    });
    if (results.length) return results;
    return [
      {
        kind: "other",
        content: parts(m)
          .map((p) => (typeof p.content === "string" ? p.content : ""))
          .join("\n"),
        ...(typeof m.role === "string" ? { role: m.role } : {}),
      },
    ];
  });
}

/** The `text` parts of a message, joined (what the conversation view shows of it). */
const textOfParts = (m: Record<string, unknown>) =>
  parts(m)
    .flatMap((p) => (p.type === "text" && typeof p.content === "string" ? [p.content] : []))
    .join("\n");

/** The text of `gen_ai.output.messages` (the model's answer besides its tool calls). */
export const outputTextOf = (value: unknown) => messages(value).map(textOfParts).filter(Boolean).join("\n");

/**
 * `gen_ai.system_instructions` (v1.37 and later: the system prompt, outside the input messages) as
 * a message of the conversation view; not part of the conversation that ids and turns are read from.
 */
function systemInstructions(value: unknown): InputMessage[] {
  const parsed = structured(value as never);
  const text = (Array.isArray(parsed) ? parsed.filter(isPlainObject) : []).flatMap((p) => (typeof p.content === "string" ? [p.content] : [])).join("\n");
  return text ? [{ kind: "other", role: "system", content: text }] : [];
}

export function definitionsFrom(value: AttrValue | undefined): Definition[] {
  return definitionsOnce(value, (v) => {
    const parsed = structured(v);
    return (Array.isArray(parsed) ? parsed : []).map(definitionFrom).filter((d): d is Definition => d !== null);
  });
}

const SPAN_KIND_CLIENT = 3;

/**
 * A tool execution as a server or tool runtime records it: `execute_tool` spans, and the MCP
 * conventions' `tools/call {gen_ai.tool.name}` server spans (`mcp.method.name`,
 * `mcp.protocol.version`, `jsonrpc.request.id`, `error.type` = `tool_error` when the result has
 * `isError`). Arguments and result when the runtime records them (`gen_ai.tool.call.arguments`,
 * `gen_ai.tool.call.result`, both opt-in); the server is the resource's `service.name`.
 */
function toolExecution(span: OtlpSpan, name: string): Mapped {
  const a = span.attributes;
  const result = a["gen_ai.tool.call.result"];
  const piece = toolPiece("gen_ai", span, name, str(a, "gen_ai.tool.call.id")?.trim(), structured(result) ?? result);
  // short identifiers: kept to 200 characters, as the event contract's names are
  const server = first(span.resource, "service.name")?.slice(0, 200);
  const protocolVersion = str(a, "mcp.protocol.version")?.slice(0, 200);
  const requestId = str(a, "jsonrpc.request.id")?.slice(0, 200);
  const args = a["gen_ai.tool.call.arguments"];
  return {
    ...piece,
    ...(server ? { server } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(requestId ? { requestId } : {}),
    ...(args !== undefined && args !== null ? { arguments: writtenArguments(args) } : {}),
  };
}

export function mapGenAi(span: OtlpSpan): Mapped {
  const a = span.attributes;
  const operation = str(a, "gen_ai.operation.name");
  const mcpMethod = str(a, "mcp.method.name");
  if (mcpMethod !== undefined) {
    // the server's span is the execution: the client's span of the same request repeats it, other methods execute no tool
    if (mcpMethod !== "tools/call" || span.kind === SPAN_KIND_CLIENT) return "nothing";
    const name = str(a, "gen_ai.tool.name") ?? /^tools\/call (.+)$/.exec(span.name)?.[1];
    if (!name) return { rejected: `MCP tools/call span "${span.name.slice(0, 60)}" names no tool (gen_ai.tool.name)` };
    return toolExecution(span, name);
  }
  const toolSpan = operation === "execute_tool" || (!operation && (a["gen_ai.tool.name"] !== undefined || a["gen_ai.tool.call.id"] !== undefined));
  if (toolSpan) {
    const name = str(a, "gen_ai.tool.name");
    if (!name) return { rejected: `execute_tool span "${span.name.slice(0, 60)}" has no gen_ai.tool.name` };
    return toolExecution(span, name);
  }
  if (!operation) return "other";
  if (!MODEL_CALL_OPERATIONS.has(operation)) return "nothing"; // invoke_agent, embeddings, …: usage there would count twice
  const model = genAiModel(a);
  if (!model) return { rejected: `${operation} span "${span.name.slice(0, 60)}" has no gen_ai.request.model` };
  const input = inputFromMessages(a["gen_ai.input.messages"]);
  const conversation = readConversation(input);
  return modelPiece("gen_ai", span, {
    input: [...systemInstructions(a["gen_ai.system_instructions"]), ...input],
    outputText: outputTextOf(a["gen_ai.output.messages"]),
    runId: str(a, "gen_ai.conversation.id"),
    model,
    usage: genAiUsage(a),
    calls: withCallIds(callsFromMessages(a["gen_ai.output.messages"]), conversation),
    toolMessages: conversation.toolMessages,
    conversation,
    definitions: definitionsFrom(a["gen_ai.tool.definitions"]),
  });
}
