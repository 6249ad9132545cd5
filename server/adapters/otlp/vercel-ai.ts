import { isPlainObject } from "../../../isomorphic/tool-schema";
import {
  definitionFrom,
  definitionsOnce,
  first,
  modelPiece,
  num,
  str,
  structured,
  summaryOf,
  toolPiece,
  usageOf,
  writtenArguments,
  type Definition,
  type Mapped,
  type ToolMessage,
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

function usage(a: Attributes): Usage | undefined {
  // ai@6.0.119 renamed promptTokens/completionTokens to inputTokens/outputTokens
  return usageOf({
    inputTokens: num(a, "ai.usage.inputTokens", "ai.usage.promptTokens", "gen_ai.usage.input_tokens"),
    outputTokens: num(a, "ai.usage.outputTokens", "ai.usage.completionTokens", "gen_ai.usage.output_tokens"),
  });
}

/** `ai.response.toolCalls`: v5/v6 `{toolCallId, toolName, input}` (the raw text the model wrote), v4 `args`. */
function callsOf(a: Attributes): WrittenCall[] {
  const parsed = structured(a["ai.response.toolCalls"]);
  return (Array.isArray(parsed) ? parsed.filter(isPlainObject) : []).flatMap((c) => {
    if (typeof c.toolName !== "string" || c.toolName === "") return [];
    return [
      {
        ...(typeof c.toolCallId === "string" && c.toolCallId ? { callId: c.toolCallId } : {}),
        name: c.toolName,
        arguments: writtenArguments(c.input ?? c.args),
      },
    ];
  });
}

/** `tool-result` parts of the prompt's tool messages: what the model was told about its previous calls. */
function toolMessagesOf(a: Attributes): ToolMessage[] {
  const parsed = structured(a["ai.prompt.messages"]);
  return (Array.isArray(parsed) ? parsed.filter(isPlainObject) : []).flatMap((m) =>
    m.role === "tool" && Array.isArray(m.content)
      ? m.content.filter(isPlainObject).flatMap((p) => {
          if (p.type !== "tool-result" || typeof p.toolCallId !== "string") return [];
          // v5+: output {type: "json" | "text" | "error-text" | "error-json" | …, value}; v4: result + isError
          const output = isPlainObject(p.output) ? p.output : undefined;
          const error = output ? typeof output.type === "string" && output.type.startsWith("error") : p.isError === true;
          return [{ callId: p.toolCallId, content: summaryOf(output ? (output.value ?? output.reason ?? output) : p.result) ?? "", error }];
        })
      : [],
  );
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
  return modelPiece("vercel_ai", span, {
    runId: first(a, "ai.telemetry.metadata.sessionId", "ai.telemetry.metadata.conversationId"),
    model: { name, ...(provider ? { provider } : {}), ...(version ? { version } : {}) },
    usage: usage(a),
    calls: callsOf(a),
    toolMessages: toolMessagesOf(a),
    definitions: definitionsOf(a),
  });
}
