import { createHash } from "node:crypto";
import { storableText } from "../../../contracts/json-walk";
import { displayText, type InputMessage, type WrittenCall } from "./pieces";

/**
 * A run's conversation as the model saw it (docs/otlp.md, "The conversation"): the messages of
 * each model call's input and the message it answered with, in one shape whatever the family.
 * Every model call repeats the conversation so far, so the messages are keyed by their place in
 * it: a message's key is a hash of the key of the message before it and its own content (a hash
 * chain). The same prefix, repeated by every later model call of the run, gives the same keys and
 * is stored once: a run of N model calls stores its N turns' messages once, not N² times.
 */
export type TranscriptMessage = {
  /** `system`, `user`, `assistant`, `tool` (a tool result), or what the instrumentation named it */
  role: string;
  text: string;
  /** an assistant turn's tool calls (their ids when the instrumentation recorded them) */
  calls: { id?: string; name: string }[];
  /** a tool result: the id of the call it answers, when recorded */
  callId?: string;
  /** a tool result the family marks as an error */
  error?: boolean;
  /** the model call's own answer (the last message of its transcript), not a message of its input */
  output?: true;
};

/** At most this many characters of a message's text are stored (as for a call's result summary); `chars` keeps the length it had. */
export const MESSAGE_TEXT_CHARS = 10_000;

/** A message of a model call's input as the mappers read it. */
function inputTranscript(m: InputMessage): TranscriptMessage {
  if (m.kind === "assistant") return { role: "assistant", text: m.text ?? "", calls: m.calls.map(callRef) };
  if (m.kind === "result") return { role: "tool", text: m.content, calls: [], ...(m.callId ? { callId: m.callId } : {}), ...(m.error ? { error: true } : {}) };
  return { role: m.role ?? "user", text: displayText(m.content) || (m.text ?? ""), calls: [] };
}

const callRef = (c: WrittenCall) => ({ ...(c.callId ? { id: c.callId } : {}), name: c.name });

/** A model call's transcript: its input, then its answer (the text and the calls it wrote) when it gave one. */
export function transcriptOf(input: InputMessage[], output: { text?: string; calls: WrittenCall[] }): TranscriptMessage[] {
  const messages = input.map(inputTranscript);
  if (output.text || output.calls.length) messages.push({ role: "assistant", text: output.text ?? "", calls: output.calls.map(callRef), output: true });
  return messages;
}

/** A stored message: its place in the run's conversation and the model call that first delivered it. */
export type MessageRow = {
  runId: string;
  key: string;
  depth: number;
  role: string;
  text: string;
  /** the text's length before it was cut to MESSAGE_TEXT_CHARS */
  chars: number;
  calls: { id?: string; name: string }[];
  callId?: string;
  error: boolean;
  /** the model call that delivered it first (by start, then span key), and whether as its answer */
  spanKey: string;
  startedNs: bigint;
  output: boolean;
};

const hash = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

/** The text bounded to MESSAGE_TEXT_CHARS (never splitting a surrogate pair) and made storable (NUL, lone surrogates → U+FFFD). */
function boundedText(text: string): string {
  if (text.length <= MESSAGE_TEXT_CHARS) return storableText(text);
  const code = text.charCodeAt(MESSAGE_TEXT_CHARS - 1);
  return storableText(text.slice(0, code >= 0xd800 && code <= 0xdbff ? MESSAGE_TEXT_CHARS - 1 : MESSAGE_TEXT_CHARS));
}

/**
 * Whether `a` was delivered before `b`: the row kept when both deliver one message. By start; of
 * model calls that started in the same tick of the clock (JavaScript SDKs record milliseconds),
 * the one whose answer it is (a message is an answer before any later call repeats it), then by span key.
 * The upsert of server/services/otlp/messages.ts orders the same way.
 */
const deliveredBefore = (a: Pick<MessageRow, "startedNs" | "spanKey" | "output">, b: Pick<MessageRow, "startedNs" | "spanKey" | "output">) =>
  a.startedNs < b.startedNs || (a.startedNs === b.startedNs && (a.output !== b.output ? a.output : a.spanKey < b.spanKey));

/**
 * The rows to store for an export's model calls: each message keyed by the hash chain of its
 * conversation (the role, text, tool names and result ids of it and of every message before it),
 * each (run, key) once, delivered by the earliest model call that carried it. The text is hashed
 * whole and stored bounded. A model call that recorded only the tool calls of its answer gives
 * none: the calls are stored as calls (docs/PERFORMANCE.md: 20–28 µs of app CPU per call saved).
 */
export function messageRows(modelCalls: { runId: string; spanKey: string; startedNs: bigint; messages: TranscriptMessage[] }[]): MessageRow[] {
  const rows = new Map<string, MessageRow>();
  for (const call of modelCalls) {
    const [first] = call.messages;
    // only an answer's tool calls, without input or text: nothing the stored calls do not hold
    if (call.messages.length === 1 && first!.output && !first!.text) continue;
    // a model call whose input was not recorded (only its answer was) repeats no conversation:
    // its chain starts at its own span, so two such answers that read alike stay two messages
    let key = first?.output ? call.spanKey : "";
    call.messages.forEach((m, depth) => {
      key = hash(JSON.stringify([key, m.role, m.text, m.calls.map((c) => c.name), m.callId ?? null]));
      const row: MessageRow = {
        runId: call.runId,
        key,
        depth,
        role: boundedText(m.role).slice(0, 100),
        text: boundedText(m.text),
        chars: m.text.length,
        calls: m.calls.map((c) => ({ ...(c.id ? { id: boundedText(c.id).slice(0, 1000) } : {}), name: boundedText(c.name).slice(0, 200) })),
        ...(m.callId ? { callId: boundedText(m.callId).slice(0, 1000) } : {}),
        error: m.error === true,
        spanKey: call.spanKey,
        startedNs: call.startedNs,
        output: m.output === true,
      };
      const id = `${call.runId}\n${key}`;
      const kept = rows.get(id);
      if (!kept || deliveredBefore(row, kept)) rows.set(id, row);
    });
  }
  return [...rows.values()];
}
