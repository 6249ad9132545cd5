import { describe, expect, it } from "vitest";
import { conversationItems, FOLD_CHARS, FOLD_LINES, foldText, type ConversationMessage, type RunCall } from "./conversation-view";

const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, s));
let n = 0;
const message = (m: Partial<ConversationMessage>): ConversationMessage => ({
  key: `k${n++}`,
  depth: n,
  role: "user",
  text: "",
  chars: (m.text ?? "").length,
  calls: [],
  callId: null,
  error: false,
  spanKey: "T/1",
  output: false,
  at: at(0),
  ...m,
});
const call = (id: string, tool: string, metadata: Record<string, string>, s: number) =>
  ({ id, tool, valid: true, category: null, step: null, timestamp: at(s), metadata }) as unknown as RunCall;

describe("folding", () => {
  it("leaves short texts open and folds long or many-line ones behind their start", () => {
    expect(foldText("short")).toEqual({ preview: "short", folded: false });
    const long = foldText("x".repeat(FOLD_CHARS + 1));
    expect(long.folded).toBe(true);
    expect(long.preview).toMatch(/^x{200}…$/);
    const lines = foldText(Array.from({ length: FOLD_LINES + 1 }, (_, i) => `line ${i}`).join("\n"));
    expect(lines).toEqual({ preview: "line 0\nline 1\nline 2…", folded: true });
  });

  it("says when the stored text was cut, with the length it had", () => {
    expect(foldText("abc", 50_000)).toMatchObject({ cutFrom: 50_000 });
    expect(foldText("abc", 3)).not.toHaveProperty("cutFrom");
  });
});

describe("messages interleaved with the run's calls", () => {
  it("puts each call under the turn that wrote it (by tool call id, or as the model call's answer), links results, and places the rest by time", () => {
    const a = call("a", "getloan", { "otel.trace_id": "T", "otel.span_id": "1", "otel.tool_call_id": "c1" }, 1);
    const b = call("b", "getloan", { "otel.trace_id": "T", "otel.span_id": "2", "otel.tool_call_id": "#x.1.0" }, 5);
    const sdk = call("s", "sendmessage", {}, 7); // sent with ingest.batch: no message names it
    const items = conversationItems(
      [
        message({ role: "user", text: "loan?", at: at(1) }),
        message({ role: "assistant", calls: [{ id: "c1", name: "getloan" }, { name: "gone" }], output: true, at: at(1) }),
        message({ role: "tool", text: "refused", callId: "c1", at: at(5) }),
        // an answer whose calls the instrumentation recorded without ids: found by its model call
        message({ role: "assistant", calls: [{ name: "getloan" }], output: true, spanKey: "T/2", at: at(5) }),
        message({ role: "assistant", text: "Done.", output: true, spanKey: "T/3", at: at(9) }),
      ],
      [a, b, sdk],
    );
    expect(items.map((i) => (i.kind === "call" ? `call ${i.call.id}` : `${i.message.role}: ${i.calls.map((c) => c.id).join(",")}`))).toEqual([
      "user: ",
      "assistant: a",
      "tool: ",
      "assistant: b",
      "call s",
      "assistant: ",
    ]);
    const [, turn, result] = items;
    expect(turn).toMatchObject({ unstored: ["gone"] });
    expect(result).toMatchObject({ answers: { id: "a" } });
  });
});
