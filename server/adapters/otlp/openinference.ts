import { isPlainObject } from "../../../isomorphic/tool-schema";
import { langChainInput, langChainOutput, langChainToolMessage } from "./langchain";
import {
  definitionFrom,
  definitionsOnce,
  displayText,
  flattenedMessage,
  first,
  indexed,
  modelPiece,
  num,
  readConversation,
  str,
  structured,
  toolPiece,
  toolResultParts,
  usageOf,
  withCallIds,
  writtenArguments,
  type InputMessage,
  type Mapped,
  type ModelCallPiece,
  type WrittenCall,
} from "./pieces";
import type { Attributes, AttrValue, OtlpSpan } from "./wire";

/**
 * OpenInference (Arize Phoenix): `openinference.span.kind` LLM spans carry flattened
 * messages (`llm.output_messages.N.message.tool_calls.M.tool_call.function.arguments`), the
 * tool definitions (`llm.tools.N.tool.json_schema`) and token counts; TOOL spans carry one
 * executed call (`tool.name`, `tool_call.id` / `tool.id`, `output.value`). The LangChain
 * instrumentations also put LangChain's serialised messages in `input.value` / `output.value`,
 * which are read for what the flattened attributes lose (see langchain.ts).
 */

/** `…tool_calls.M.tool_call.*` of one flattened message. */
const flattenedCalls = (message: Record<string, AttrValue>): WrittenCall[] =>
  indexed(message, "message.tool_calls.").flatMap((call) => {
    const name = str(call, "tool_call.function.name");
    if (!name) return [];
    const callId = str(call, "tool_call.id");
    return [{ ...(callId ? { callId } : {}), name, arguments: writtenArguments(call["tool_call.function.arguments"]) }];
  });

/** The text parts of a flattened message sent as parts (`message.contents.N.message_content.text`), joined. */
const contentsText = (m: Record<string, AttrValue>) =>
  indexed(m, "message.contents.")
    .flatMap((part) => (typeof part["message_content.text"] === "string" ? [part["message_content.text"]] : []))
    .join("\n");

/** One flattened input message (`llm.input_messages.N.message.*`). */
const flattenedInput = (m: Record<string, AttrValue>): InputMessage[] =>
  flattenedMessage({
    role: str(m, "message.role"),
    callId: str(m, "message.tool_call_id"),
    content: m["message.content"],
    calls: () => flattenedCalls(m),
    text: contentsText(m) || undefined,
  });

/**
 * The request body in `input.value`, when it is Anthropic's Messages shape: the Anthropic
 * instrumentations flatten a user message of several `tool_result` parts into one message with
 * the last part's id only, and drop `is_error`; the body keeps every part.
 */
function anthropicRequest(value: AttrValue | undefined): InputMessage[] | undefined {
  const body = typeof value === "string" && value.includes('"tool_result"') ? structured(value) : undefined;
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return undefined;
  return body.messages.filter(isPlainObject).flatMap((m): InputMessage[] => {
    const content = Array.isArray(m.content) ? m.content.filter(isPlainObject) : [];
    if (m.role === "assistant") {
      const calls = content.flatMap((p) =>
        p.type === "tool_use" && typeof p.name === "string"
          ? [{ ...(typeof p.id === "string" ? { callId: p.id } : {}), name: p.name, arguments: writtenArguments(p.input) }]
          : [],
      );
      return [{ kind: "assistant", calls, text: displayText(m.content) }];
    }
    const results = toolResultParts(content);
    return results.length
      ? results.map((r) => ({ kind: "result" as const, ...r }))
      : [{ kind: "other", content: typeof m.content === "string" ? m.content : "", ...(typeof m.role === "string" ? { role: m.role } : {}) }];
  });
}

/** The `model` a JSON request body starts with (the OpenAI and Anthropic SDK bodies do). */
const requestedInBody = (value: AttrValue | undefined) => (typeof value === "string" ? /^\{\s*"model"\s*:\s*"([^"]{1,200})"/.exec(value)?.[1] : undefined);

/**
 * The requested model is the name and the answering one the version, as for the other
 * families: `llm.model_name` is the response's model for the OpenAI and Anthropic
 * instrumentations and the requested one for LangChain's, so the requested name comes from
 * `llm.invocation_parameters` (`model`, LangChain's `model_name`), `llm.request.model_name` or
 * the request body in `input.value`.
 */
function modelOf(a: Attributes, fromOutput: { responseModel?: string; provider?: string } | undefined): ModelCallPiece["model"] | undefined {
  const invocation = structured(a["llm.invocation_parameters"]);
  const requested = isPlainObject(invocation) ? [invocation.model, invocation.model_name].find((v) => typeof v === "string" && v !== "") : undefined;
  const modelName = str(a, "llm.model_name");
  const name = (requested as string | undefined) ?? first(a, "llm.request.model_name") ?? requestedInBody(a["input.value"]) ?? modelName;
  if (!name) return undefined;
  const version = str(a, "llm.response.model_name") ?? (modelName !== name ? modelName : undefined) ?? fromOutput?.responseModel;
  const provider = first(a, "llm.provider", "llm.system") ?? fromOutput?.provider;
  return { name, ...(provider ? { provider } : {}), ...(version ? { version } : {}) };
}

/** Calls LangChain recorded that the flattened list lacks (the unparsable ones, Python) or ids it did not carry (JS), merged in order. */
function mergeCalls(flat: WrittenCall[], fromOutput: WrittenCall[]): WrittenCall[] {
  const unused = [...fromOutput];
  const merged = flat.map((call) => {
    if (call.callId) return call;
    const i = unused.findIndex((c) => c.name === call.name && c.callId);
    return i < 0 ? call : { ...call, callId: unused.splice(i, 1)[0]!.callId };
  });
  const known = new Set(merged.map((c) => c.callId).filter(Boolean));
  for (const call of unused) if (call.callId && !known.has(call.callId) && !flat.some((f) => f.callId === call.callId)) merged.push(call);
  return merged;
}

export function mapOpenInference(span: OtlpSpan): Mapped {
  const a = span.attributes;
  const kind = str(a, "openinference.span.kind")?.toUpperCase();
  if (!kind) return "other";
  if (kind === "TOOL") {
    const name = str(a, "tool.name");
    if (!name) return { rejected: `TOOL span "${span.name.slice(0, 60)}" without tool.name` };
    const message = langChainToolMessage(a["output.value"]);
    const piece = toolPiece("openinference", span, name, first(a, "tool_call.id", "tool.id") ?? message?.callId, message ? message.content : a["output.value"]);
    return message?.error && piece.status === "ok" ? { ...piece, status: "error" } : piece;
  }
  if (kind !== "LLM") return "nothing";
  const output = langChainOutput(a["output.value"]);
  const model = modelOf(a, output);
  if (!model) return { rejected: `LLM span "${span.name.slice(0, 60)}" without llm.model_name` };

  // LangChain JS records no tool call ids in the flattened input; its serialised input has them
  const serialised = langChainInput(a["input.value"]);
  const body = serialised ? undefined : anthropicRequest(a["input.value"]);
  const flattened = () => indexed(a, "llm.input_messages.").flatMap(flattenedInput);
  const input = serialised ?? body ?? flattened();
  // the request body leaves the system prompt out (a parameter of its own): the flattened messages have it
  const shown = body ? [...flattened().filter((m) => m.kind === "other" && m.role === "system"), ...body] : input;
  const conversation = readConversation(input);
  const outputMessages = indexed(a, "llm.output_messages.");
  const flatCalls = outputMessages.flatMap(flattenedCalls);
  const calls = withCallIds(output ? mergeCalls(flatCalls, output.calls) : flatCalls, conversation);

  const definitions = indexed(a, "llm.tools.").flatMap((t) =>
    definitionsOnce(t["tool.json_schema"], (schema) => {
      const definition = definitionFrom(structured(schema));
      return definition ? [definition] : [];
    }),
  );
  return modelPiece("openinference", span, {
    input: shown,
    outputText:
      outputMessages
        .map((m) => displayText(m["message.content"]) || contentsText(m))
        .filter(Boolean)
        .join("\n") || output?.text,
    runId: str(a, "session.id"),
    model,
    usage: usageOf({ inputTokens: num(a, "llm.token_count.prompt"), outputTokens: num(a, "llm.token_count.completion"), costUsd: num(a, "llm.cost.total") }),
    calls,
    toolMessages: conversation.toolMessages,
    conversation,
    definitions,
  });
}
