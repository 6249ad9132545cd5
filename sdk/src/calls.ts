import { describeValue, isPlainObject } from "../../isomorphic/tool-schema";

/** The provider shapes a model's tool call comes in. */
export type Provider = "openai" | "openai-responses" | "anthropic" | "ai-sdk";

/** OpenAI Chat Completions: an entry of `message.tool_calls`. */
export interface OpenAIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
}
/** OpenAI Responses: a `function_call` item of `response.output`. */
export interface ResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}
/** Anthropic Messages: a `tool_use` block of the assistant's `content`. */
export interface AnthropicToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}
/** Vercel AI SDK (v5, v6): a tool call of `result.toolCalls` or a `tool-call` content part. */
export interface AiSdkToolCall {
  type?: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
}
export type AnyToolCall = OpenAIToolCall | ResponsesFunctionCall | AnthropicToolUse | AiSdkToolCall;

export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}
export interface AiSdkToolResult {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: { type: "text" | "error-text"; value: string } | { type: "json"; value: unknown };
}
export type ToolResultMessage = OpenAIToolMessage | ResponsesFunctionCallOutput | AnthropicToolResult | AiSdkToolResult;

/** One call, whatever shape it came in. `arguments` is exactly what the model wrote (a string for OpenAI). */
export interface NormalizedCall {
  provider: Provider;
  callId: string;
  tool: string;
  arguments: unknown;
}

/**
 * The tool calls in `input`: one call, an array of calls, or a whole assistant turn (an Anthropic
 * content array, a Responses `output` array, an OpenAI message with `tool_calls`, an AI SDK result
 * with `toolCalls`). Text, reasoning and other blocks are skipped. Throws TypeError on a value that
 * holds no recognisable call — a harness bug, not a model mistake.
 */
export function normalizeCalls(input: unknown): NormalizedCall[] {
  if (Array.isArray(input)) return input.flatMap((item) => (isCallLike(item) ? [normalizeCall(item)] : []));
  if (isPlainObject(input)) {
    if (Array.isArray(input.tool_calls)) return normalizeCalls(input.tool_calls);
    if (Array.isArray(input.toolCalls)) return normalizeCalls(input.toolCalls);
    if (Array.isArray(input.content) && input.role === "assistant") return normalizeCalls(input.content);
    if (Array.isArray(input.output)) return normalizeCalls(input.output);
    return [normalizeCall(input)];
  }
  throw new TypeError(`Expected a tool call or an array of tool calls, got ${describeValue(input)}.`);
}

/** Blocks of a turn that are not tool calls (text, reasoning, …) are passed over. */
function isCallLike(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  if (item.type === undefined || item.type === "function" || item.type === "function_call" || item.type === "tool_use" || item.type === "tool-call")
    return true;
  return false;
}

function normalizeCall(call: unknown): NormalizedCall {
  if (isPlainObject(call)) {
    if (isPlainObject(call.function) && typeof call.id === "string") {
      return { provider: "openai", callId: call.id, tool: String(call.function.name ?? ""), arguments: call.function.arguments };
    }
    if (call.type === "function_call" && typeof call.call_id === "string") {
      return { provider: "openai-responses", callId: call.call_id, tool: String(call.name ?? ""), arguments: call.arguments };
    }
    if (call.type === "tool_use" && typeof call.id === "string") {
      return { provider: "anthropic", callId: call.id, tool: String(call.name ?? ""), arguments: call.input };
    }
    if (typeof call.toolCallId === "string" && typeof call.toolName === "string") {
      // ai v5/v6 name it `input`; v4 named it `args`.
      return { provider: "ai-sdk", callId: call.toolCallId, tool: call.toolName, arguments: "input" in call ? call.input : call.args };
    }
  }
  throw new TypeError(
    `Not a tool call: ${describeValue(call)}. Pass OpenAI tool_calls entries, Responses function_call items, Anthropic tool_use blocks or AI SDK tool calls.`,
  );
}

/** The tool result the provider expects for `call`: `content` is the text the model reads. */
export function toolResult(call: NormalizedCall, outcome: { isError: boolean; content: string; value?: unknown }): ToolResultMessage {
  switch (call.provider) {
    case "openai":
      return { role: "tool", tool_call_id: call.callId, content: outcome.content };
    case "openai-responses":
      return { type: "function_call_output", call_id: call.callId, output: outcome.content };
    case "anthropic":
      return { type: "tool_result", tool_use_id: call.callId, content: outcome.content, ...(outcome.isError ? { is_error: true as const } : {}) };
    case "ai-sdk":
      return {
        type: "tool-result",
        toolCallId: call.callId,
        toolName: call.tool,
        output: outcome.isError
          ? { type: "error-text", value: outcome.content }
          : typeof outcome.value === "string" || outcome.value === undefined
            ? { type: "text", value: outcome.content }
            : { type: "json", value: outcome.value },
      };
  }
}
