import { callsFromMessages, definitionsFrom, genAiModel, genAiUsage, inputFromMessages, outputTextOf } from "./gen-ai";
import {
  definitionFrom,
  flattenedMessage,
  indexed,
  modelPiece,
  readConversation,
  str,
  structured,
  toolPiece,
  withCallIds,
  writtenArguments,
  type Definition,
  type Mapped,
  type WrittenCall,
} from "./pieces";
import type { AttrValue, OtlpSpan } from "./wire";

/**
 * OpenLLMetry (Traceloop). Model-call spans (`llm.request.type`) carry the indexed form of
 * older releases (`gen_ai.completion.N.tool_calls.M.{id,name,arguments}`,
 * `gen_ai.prompt.N.{role,tool_call_id,content}`, `llm.request.functions.N.{name,description,parameters|arguments}`)
 * or, since Python 0.55 / JS 0.24, the GenAI message attributes. Tool spans are the
 * `traceloop.span.kind = tool` decorator spans; they record no tool call id.
 */
/** `tool_calls.M.{id,name,arguments}` of one indexed completion or prompt message. */
const legacyToolCalls = (message: Record<string, AttrValue>): WrittenCall[] =>
  indexed(message, "tool_calls.").flatMap((call) => {
    const name = str(call, "name");
    if (!name) return [];
    const callId = str(call, "id");
    return [{ ...(callId ? { callId } : {}), name, arguments: writtenArguments(call.arguments) }];
  });

export function mapOpenLlmetry(span: OtlpSpan): Mapped {
  const a = span.attributes;
  const spanKind = str(a, "traceloop.span.kind");
  if (spanKind === "tool") {
    const name = str(a, "gen_ai.tool.name") ?? str(a, "traceloop.entity.name");
    if (!name) return { rejected: `tool span "${span.name.slice(0, 60)}" without traceloop.entity.name` };
    return toolPiece("openllmetry", span, name, str(a, "gen_ai.tool.call.id"), a["traceloop.entity.output"]);
  }
  if (!str(a, "llm.request.type")) return spanKind ? "nothing" : "other";
  const model = genAiModel(a);
  if (!model) return { rejected: `model-call span "${span.name.slice(0, 60)}" without gen_ai.request.model` };
  const legacyCalls: WrittenCall[] = indexed(a, "gen_ai.completion.").flatMap(legacyToolCalls);
  const legacyInput = indexed(a, "gen_ai.prompt.").flatMap((m) =>
    flattenedMessage({ role: str(m, "role"), callId: str(m, "tool_call_id"), content: m.content, calls: () => legacyToolCalls(m) }),
  );
  const input = [...legacyInput, ...inputFromMessages(a["gen_ai.input.messages"])];
  const conversation = readConversation(input);
  const legacyText = indexed(a, "gen_ai.completion.").flatMap((m) => (typeof m.content === "string" && m.content ? [m.content] : []));
  const legacyDefinitions = indexed(a, "llm.request.functions.")
    .map((f) => definitionFrom({ name: f.name, description: f.description, parameters: structured(f.parameters ?? f.arguments) }))
    .filter((d): d is Definition => d !== null);
  return modelPiece("openllmetry", span, {
    input,
    outputText: [...legacyText, outputTextOf(a["gen_ai.output.messages"])].filter(Boolean).join("\n"),
    model,
    usage: genAiUsage(a),
    calls: withCallIds([...legacyCalls, ...callsFromMessages(a["gen_ai.output.messages"])], conversation),
    toolMessages: conversation.toolMessages,
    conversation,
    definitions: [...legacyDefinitions, ...definitionsFrom(a["gen_ai.tool.definitions"])],
  });
}
