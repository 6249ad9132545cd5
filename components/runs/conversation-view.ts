import type { inferProcedureOutput } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";

/**
 * What the run page's Conversation section shows, decided from the stored messages and calls:
 * the messages in order with each assistant turn's tool calls under it (by the tool call ids the
 * message names, and a model call's answer with the calls that model call wrote), each tool result
 * with the call it answers, calls no message names at their time, and which texts fold. No markup
 * here (see conversation-view.test.ts).
 */
export type ConversationData = inferProcedureOutput<AppRouter["calls"]["conversation"]>;
export type ConversationMessage = ConversationData["messages"][number];
export type RunCall = inferProcedureOutput<AppRouter["calls"]["run"]>["calls"][number];

/** Texts longer than this, or of more lines, are folded (a `<details>`: the page works without JavaScript). */
export const FOLD_CHARS = 600;
export const FOLD_LINES = 8;
/** What a folded text shows before it is opened. */
const PREVIEW_CHARS = 200;
const PREVIEW_LINES = 3;

export type Fold = {
  /** the text shown closed: the whole text when it is short, else its start */
  preview: string;
  folded: boolean;
  /** the message was longer than what was stored: its length then (the stored text is its start) */
  cutFrom?: number;
};

/** Whether and how a message's text folds; `chars` is the length it had before it was stored. */
export function foldText(text: string, chars: number = text.length): Fold {
  const lines = text.split("\n");
  const folded = text.length > FOLD_CHARS || lines.length > FOLD_LINES;
  let preview = text;
  if (folded) {
    preview = lines.slice(0, PREVIEW_LINES).join("\n");
    if (preview.length > PREVIEW_CHARS) preview = preview.slice(0, PREVIEW_CHARS);
    preview = `${preview.trimEnd()}…`;
  }
  return { preview, folded, ...(chars > text.length ? { cutFrom: chars } : {}) };
}

export type ConversationItem =
  | {
      kind: "message";
      message: ConversationMessage;
      fold: Fold;
      /** an assistant turn: the stored calls it wrote, in its order */
      calls: RunCall[];
      /** a tool result: the stored call it answers */
      answers?: RunCall;
      /** tools the turn asked for that are not among the run's stored calls (refused by the event contract, or deleted by retention) */
      unstored: string[];
    }
  /** a stored call no message names (its model call's messages did not arrive), at its time */
  | { kind: "call"; call: RunCall };

const meta = (call: RunCall) => (call.metadata && typeof call.metadata === "object" ? (call.metadata as Record<string, unknown>) : {});
const spanKeyOf = (call: RunCall) => {
  const m = meta(call);
  return typeof m["otel.trace_id"] === "string" && typeof m["otel.span_id"] === "string" ? `${m["otel.trace_id"]}/${m["otel.span_id"]}` : undefined;
};
const toolCallIdOf = (call: RunCall) => {
  const id = meta(call)["otel.tool_call_id"];
  return typeof id === "string" ? id : undefined;
};

/** The run's conversation interleaved with its calls. */
export function conversationItems(messages: ConversationMessage[], calls: RunCall[]): ConversationItem[] {
  const byToolCallId = new Map<string, RunCall>();
  const bySpan = new Map<string, RunCall[]>();
  for (const call of calls) {
    const id = toolCallIdOf(call);
    if (id && !byToolCallId.has(id)) byToolCallId.set(id, call);
    const span = spanKeyOf(call);
    if (span) bySpan.set(span, [...(bySpan.get(span) ?? []), call]);
  }
  const placed = new Set<string>();
  const items: ConversationItem[] = messages.map((message) => {
    const attached: RunCall[] = [];
    const take = (call: RunCall | undefined) => {
      if (call && !placed.has(call.id)) {
        placed.add(call.id);
        attached.push(call);
      }
    };
    if (message.role === "assistant") {
      for (const ref of message.calls) take(ref.id ? byToolCallId.get(ref.id) : undefined);
      // the answer of a model call: the calls it wrote (those recorded without an id too)
      if (message.output) for (const call of bySpan.get(message.spanKey) ?? []) take(call);
    }
    const answers = message.callId ? byToolCallId.get(message.callId) : undefined;
    const unstored = message.calls.filter((ref) => !attached.some((c) => (ref.id ? toolCallIdOf(c) === ref.id : c.tool === ref.name))).map((ref) => ref.name);
    return { kind: "message", message, fold: foldText(message.text, message.chars), calls: attached, unstored, ...(answers ? { answers } : {}) };
  });
  // calls no message names: before the first message delivered after them
  const left = calls.filter((c) => !placed.has(c.id));
  for (const call of left) {
    const at = items.findIndex((item) => item.kind === "message" && item.message.at.getTime() > call.timestamp.getTime());
    items.splice(at < 0 ? items.length : at, 0, { kind: "call", call });
  }
  return items;
}

/** How the roles read on the page. */
const ROLE_LABELS: Record<string, string> = { system: "System", user: "User", assistant: "Model", tool: "Tool result", developer: "Developer" };
export const roleLabel = (role: string) => ROLE_LABELS[role] ?? role;
