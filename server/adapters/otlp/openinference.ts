import {
  definitionFrom,
  first,
  indexed,
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
  type WrittenCall,
} from "./pieces";
import type { OtlpSpan } from "./wire";

/**
 * OpenInference (Arize Phoenix): `openinference.span.kind` LLM spans carry flattened
 * messages (`llm.output_messages.N.message.tool_calls.M.tool_call.function.arguments`), the
 * tool definitions (`llm.tools.N.tool.json_schema`) and token counts; TOOL spans carry one
 * executed call (`tool.name`, `tool_call.id` / `tool.id`, `output.value`).
 */
export function mapOpenInference(span: OtlpSpan): Mapped {
  const a = span.attributes;
  const kind = str(a, "openinference.span.kind")?.toUpperCase();
  if (!kind) return "other";
  if (kind === "TOOL") {
    const name = str(a, "tool.name");
    if (!name) return { rejected: `TOOL span "${span.name.slice(0, 60)}" without tool.name` };
    return toolPiece("openinference", span, name, first(a, "tool_call.id", "tool.id"), a["output.value"]);
  }
  if (kind !== "LLM") return "nothing";
  const name = str(a, "llm.model_name");
  if (!name) return { rejected: `LLM span "${span.name.slice(0, 60)}" without llm.model_name` };
  const provider = first(a, "llm.provider", "llm.system");
  const calls: WrittenCall[] = indexed(a, "llm.output_messages.").flatMap((message) =>
    indexed(message, "message.tool_calls.").flatMap((call) => {
      const toolName = str(call, "tool_call.function.name");
      if (!toolName) return [];
      const callId = str(call, "tool_call.id");
      return [{ ...(callId ? { callId } : {}), name: toolName, arguments: writtenArguments(call["tool_call.function.arguments"]) }];
    }),
  );
  const toolMessages: ToolMessage[] = indexed(a, "llm.input_messages.").flatMap((m) => {
    const callId = str(m, "message.tool_call_id");
    return str(m, "message.role") === "tool" && callId ? [{ callId, content: summaryOf(m["message.content"]) ?? "", error: false }] : [];
  });
  const definitions = indexed(a, "llm.tools.")
    .map((t) => definitionFrom(structured(t["tool.json_schema"])))
    .filter((d): d is Definition => d !== null);
  return modelPiece("openinference", span, {
    runId: str(a, "session.id"),
    model: { name, ...(provider ? { provider } : {}) },
    usage: usageOf({ inputTokens: num(a, "llm.token_count.prompt"), outputTokens: num(a, "llm.token_count.completion"), costUsd: num(a, "llm.cost.total") }),
    calls,
    toolMessages,
    definitions,
  });
}
