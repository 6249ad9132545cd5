import { isPlainObject } from "../../../isomorphic/tool-schema";
import { displayText, structured, textOf, writtenArguments, type InputMessage, type WrittenCall } from "./pieces";
import type { AttrValue } from "./wire";

/**
 * LangChain's serialised messages (`{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}`),
 * which OpenInference's LangChain instrumentations put in `input.value` / `output.value`. They
 * hold what the flattened attributes lose: the tool call ids (JS), the calls LangChain could not
 * parse (`invalid_tool_calls`), the response model, and a tool's own text inside a `ToolMessage`.
 */
type Serialised = { kind: string; kwargs: Record<string, unknown> };

const LANGCHAIN_MARK = /"lc"\s*:\s*1/;

/** The text parsed, when it holds LangChain serialisations (checked on the text first, so other spans cost one regex). */
function parsed(value: AttrValue | undefined): unknown {
  return typeof value === "string" && LANGCHAIN_MARK.test(value) ? structured(value) : undefined;
}

function serialised(value: unknown): Serialised | undefined {
  if (!isPlainObject(value) || value.lc !== 1 || !Array.isArray(value.id) || !isPlainObject(value.kwargs)) return undefined;
  const kind = value.id[value.id.length - 1];
  return typeof kind === "string" ? { kind: kind.replace(/Chunk$/, ""), kwargs: value.kwargs } : undefined;
}

const idOf = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/**
 * The calls of an AIMessage in the order the model wrote them: the provider's raw list
 * (`additional_kwargs.tool_calls`) when there is one, else LangChain's parsed `tool_calls`
 * followed by `invalid_tool_calls` (arguments kept as the raw text, so they classify as malformed).
 */
function aiMessageCalls(kwargs: Record<string, unknown>): WrittenCall[] {
  const raw = list(isPlainObject(kwargs.additional_kwargs) ? kwargs.additional_kwargs.tool_calls : undefined).flatMap((c) => {
    const fn = isPlainObject(c.function) ? c.function : {};
    return typeof fn.name === "string" && fn.name
      ? [{ ...(idOf(c.id) ? { callId: idOf(c.id)! } : {}), name: fn.name, arguments: writtenArguments(fn.arguments) }]
      : [];
  });
  if (raw.length) return raw;
  return [...list(kwargs.tool_calls), ...list(kwargs.invalid_tool_calls)].flatMap((c) =>
    typeof c.name === "string" && c.name ? [{ ...(idOf(c.id) ? { callId: idOf(c.id)! } : {}), name: c.name, arguments: writtenArguments(c.args) }] : [],
  );
}

function inputMessage(value: unknown): InputMessage {
  const message = serialised(value);
  if (message?.kind === "AIMessage") return { kind: "assistant", calls: aiMessageCalls(message.kwargs), text: displayText(message.kwargs.content) };
  if (message?.kind === "ToolMessage") {
    const callId = idOf(message.kwargs.tool_call_id);
    return { kind: "result", ...(callId ? { callId } : {}), content: textOf(message.kwargs.content), error: message.kwargs.status === "error" };
  }
  const role = message && ROLES[message.kind];
  return { kind: "other", content: message ? textOf(message.kwargs.content) : "", ...(role ? { role } : {}) };
}

/** LangChain's message classes as the roles the conversation view shows. */
const ROLES: Record<string, string> = { HumanMessage: "user", SystemMessage: "system", ChatMessage: "user", FunctionMessage: "tool" };

/** `output.value` of a chat model span: the generated AIMessage's calls and the model the response names. */
export function langChainOutput(value: AttrValue | undefined): { calls: WrittenCall[]; text: string; responseModel?: string; provider?: string } | undefined {
  const output = parsed(value);
  if (!isPlainObject(output) || !Array.isArray(output.generations)) return undefined;
  const calls: WrittenCall[] = [];
  const texts: string[] = [];
  let responseModel: string | undefined;
  let provider: string | undefined;
  for (const generation of output.generations.flat()) {
    const message = serialised(isPlainObject(generation) ? generation.message : undefined);
    if (message?.kind !== "AIMessage") continue;
    calls.push(...aiMessageCalls(message.kwargs));
    const text = displayText(message.kwargs.content);
    if (text) texts.push(text);
    const metadata = message.kwargs.response_metadata;
    if (!isPlainObject(metadata)) continue;
    responseModel ??= idOf(metadata.model_name) ?? idOf(metadata.model);
    provider ??= idOf(metadata.model_provider);
  }
  return { calls, text: texts.join("\n"), ...(responseModel ? { responseModel } : {}), ...(provider ? { provider } : {}) };
}

/** `input.value` of a chat model span (`{messages: [[…]]}`): the conversation so far. */
export function langChainInput(value: AttrValue | undefined): InputMessage[] | undefined {
  const input = parsed(value);
  if (!isPlainObject(input) || !Array.isArray(input.messages)) return undefined;
  return input.messages.flat().map(inputMessage);
}

/** A TOOL span's `output.value` that is a serialised ToolMessage (bare or under `output`): the tool's own text. */
export function langChainToolMessage(value: AttrValue | undefined): { callId?: string; content: string; error: boolean } | undefined {
  const output = parsed(value);
  const message = inputMessage(isPlainObject(output) && output.lc === undefined ? output.output : output);
  return message.kind === "result" ? message : undefined;
}
