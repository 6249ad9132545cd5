import { describe, expect, it } from "vitest";
import { demoConversationSpans } from "../../services/demo/demo-conversation";
import { assemble } from "./assemble";
import { MESSAGE_TEXT_CHARS, messageRows, transcriptOf, type TranscriptMessage } from "./transcript";
import type { OtlpSpan } from "./wire";

const NOW = new Date("2026-12-01T12:00:00Z");
const rowsOf = (spans: OtlpSpan[]) => messageRows(assemble(spans).modelCalls).sort((a, b) => a.depth - b.depth);

describe("a run's conversation from its model calls", () => {
  it("stores the prefix every model call repeats once: 5 model calls carrying 35 messages give the run's 11", () => {
    const spans = demoConversationSpans(NOW);
    const { modelCalls } = assemble(spans);
    expect(modelCalls.map((m) => m.messages.length)).toEqual([3, 5, 7, 9, 11]);
    const rows = rowsOf(spans);
    expect(rows.map((r) => [r.depth, r.role])).toEqual([
      [0, "system"],
      [1, "user"],
      [2, "assistant"],
      [3, "tool"],
      [4, "assistant"],
      [5, "tool"],
      [6, "assistant"],
      [7, "tool"],
      [8, "assistant"],
      [9, "tool"],
      [10, "assistant"],
    ]);
    // each message is delivered by the first model call that carried it; an answer by the call that wrote it
    const spanOf = (spanId: string) => `${spans[0]!.traceId}/${spanId}`;
    expect(rows[0]).toMatchObject({ spanKey: spanOf(spans[0]!.spanId), output: false });
    expect(rows[2]).toMatchObject({ spanKey: spanOf(spans[0]!.spanId), output: true, calls: [{ id: "call_demo_1", name: "getloan" }] });
    expect(rows[3]).toMatchObject({ spanKey: spanOf(spans[1]!.spanId), callId: "call_demo_1", output: false });
    expect(rows[10]).toMatchObject({ spanKey: spanOf(spans[4]!.spanId), output: true, calls: [] });
    expect(rows[10]!.text).toMatch(/^Your payment for loan 4471 arrived on time/);
  });

  it("gives the same rows whatever order and grouping the model calls arrive in", () => {
    const spans = demoConversationSpans(NOW);
    const whole = rowsOf(spans);
    expect(rowsOf([...spans].reverse())).toEqual(whole);
    // one call at a time, each keeping the earliest delivery, as the upsert does
    const kept = new Map<string, (typeof whole)[number]>();
    for (const span of [spans[3]!, spans[1]!, spans[4]!, spans[0]!, spans[2]!]) {
      for (const row of rowsOf([span])) {
        const old = kept.get(row.key);
        if (!old || row.startedNs < old.startedNs) kept.set(row.key, row);
      }
    }
    expect([...kept.values()].sort((a, b) => a.depth - b.depth)).toEqual(whole);
  });

  it("of model calls that started in the same millisecond, an answer stays with the call that wrote it, whatever the span ids", () => {
    const spans = demoConversationSpans(NOW).map((s, i, all) => ({ ...s, startNs: all[0]!.startNs, spanId: (9 - i).toString(16).padStart(16, "0") }));
    const answers = rowsOf(spans).filter((r) => r.role === "assistant");
    expect(answers.map((r) => [r.output, r.spanKey.split("/")[1]])).toEqual(spans.map((s) => [true, s.spanId]));
  });

  it("keys a message by the conversation before it: the same text at two places is two messages", () => {
    const same: TranscriptMessage = { role: "tool", text: "ok", calls: [] };
    const rows = messageRows([
      {
        runId: "r",
        spanKey: "t/1",
        startedNs: 1n,
        messages: [{ role: "user", text: "go", calls: [] }, same, { role: "user", text: "again", calls: [] }, same],
      },
    ]);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.key)).size).toBe(4);
    // and another run's identical conversation is its own
    expect(messageRows([{ runId: "other", spanKey: "t/2", startedNs: 1n, messages: [{ role: "user", text: "go", calls: [] }] }])[0]!.key).toBe(rows[0]!.key);
    expect(messageRows([{ runId: "other", spanKey: "t/2", startedNs: 1n, messages: [{ role: "user", text: "go", calls: [] }] }])[0]!.runId).toBe("other");
  });

  it("keeps the answers of model calls whose input was not recorded apart, even when they read alike", () => {
    const answer: TranscriptMessage = { role: "assistant", text: "Looking it up.", calls: [{ name: "getloan" }], output: true };
    const rows = messageRows([
      { runId: "r", spanKey: "t/1", startedNs: 1n, messages: [answer] },
      { runId: "r", spanKey: "t/2", startedNs: 2n, messages: [answer] },
    ]);
    expect(rows.map((r) => r.spanKey)).toEqual(["t/1", "t/2"]);
    // an answer that is only tool calls, without input: the stored calls hold all of it
    expect(messageRows([{ runId: "r", spanKey: "t/3", startedNs: 3n, messages: [{ ...answer, text: "" }] }])).toEqual([]);
  });

  it("cuts a long text to MESSAGE_TEXT_CHARS, keeps its length, and makes it storable", () => {
    const long = `${"a".repeat(MESSAGE_TEXT_CHARS - 1)}😀 and more`;
    const [row] = messageRows([{ runId: "r", spanKey: "t/1", startedNs: 1n, messages: [{ role: "tool", text: long, calls: [] }] }]);
    // the emoji's pair would be split at the limit: the cut leaves it out whole
    expect(row!.text).toBe("a".repeat(MESSAGE_TEXT_CHARS - 1));
    expect(row!.chars).toBe(long.length);
    const [nul] = messageRows([{ runId: "r", spanKey: "t/1", startedNs: 1n, messages: [{ role: "user", text: "a\u0000b", calls: [] }] }]);
    expect(nul!.text).toBe("a\uFFFDb");
  });

  it("adds the model call's answer after its input only when it answered", () => {
    expect(transcriptOf([{ kind: "other", content: "hi", role: "user" }], { calls: [] })).toEqual([{ role: "user", text: "hi", calls: [] }]);
    expect(transcriptOf([], { text: "hello", calls: [{ callId: "c1", name: "w", arguments: {} }] })).toEqual([
      { role: "assistant", text: "hello", calls: [{ id: "c1", name: "w" }], output: true },
    ]);
  });
});

describe("each family's messages in one shape", () => {
  it("OpenInference: roles, texts (content blocks joined), the tool result's id, and the answer with its calls", () => {
    const [call] = assemble([
      {
        ...demoConversationSpans(NOW)[0]!,
        attributes: {
          "openinference.span.kind": "LLM",
          "llm.model_name": "m",
          "llm.input_messages.0.message.role": "system",
          "llm.input_messages.0.message.content": "Be brief.",
          "llm.input_messages.1.message.role": "user",
          "llm.input_messages.1.message.content": '[{"type":"text","text":"loan"},{"type":"text","text":"4471?"}]',
          "llm.input_messages.2.message.role": "assistant",
          "llm.input_messages.2.message.content": "Looking.",
          "llm.input_messages.2.message.tool_calls.0.tool_call.id": "t1",
          "llm.input_messages.2.message.tool_calls.0.tool_call.function.name": "getloan",
          "llm.input_messages.3.message.role": "tool",
          "llm.input_messages.3.message.tool_call_id": "t1",
          "llm.input_messages.3.message.content": "current",
          "llm.output_messages.0.message.role": "assistant",
          "llm.output_messages.0.message.content": "It is current.",
        },
      },
    ]).modelCalls;
    expect(call!.messages).toEqual([
      { role: "system", text: "Be brief.", calls: [] },
      { role: "user", text: "loan\n4471?", calls: [] },
      { role: "assistant", text: "Looking.", calls: [{ id: "t1", name: "getloan" }] },
      { role: "tool", text: "current", calls: [], callId: "t1" },
      { role: "assistant", text: "It is current.", calls: [], output: true },
    ]);
  });
});
