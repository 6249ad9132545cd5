import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces, shuffled } from "@/test/otlp";
import { storedState } from "@/test/otlp-state";
import { expectConversations, pastedAfterTheCalls } from "@/test/scripted-model";
import { TOOLS } from "@/test/scripted-tools";

/**
 * Exports of real instrumentations replayed as OTLP/JSON (test/otlp-fixtures/README.md says
 * what each holds): the Python packages, which cannot run here, and a JavaScript agent
 * without a span around its conversations, sent whole and span by span in other orders.
 */
const served = servedTraces();
const { sql } = served;

type Request = { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
/**
 * A capture's requests, its span times moved together so that its last span ends at the moment
 * this file was loaded (the same shift on every read of it): the dashboards' and Re-check's
 * ranges ("the last 24 hours") then hold it on any day the test runs. Exporters write the times
 * as strings or as bare numbers; both keep their form.
 */
const LOADED_AT_NANOS = BigInt(Date.now()) * 1_000_000n;
const SPAN_TIME = /("(?:start|end)TimeUnixNano":\s*)("?)(\d+)\2/g;
const fixture = (name: string): Request[] => {
  const text = readFileSync(path.join(import.meta.dirname, "../../../test/otlp-fixtures", `${name}.json`), "utf8");
  const last = [...text.matchAll(SPAN_TIME)].map((m) => BigInt(m[3]!)).reduce((a, b) => (b > a ? b : a), 0n);
  const shift = LOADED_AT_NANOS - last;
  return JSON.parse(text.replace(SPAN_TIME, (_, key: string, quote: string, nanos: string) => `${key}${quote}${BigInt(nanos) + shift}${quote}`));
};
const spansOf = (requests: Request[]) => requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
const request = (spans: unknown[]): Request => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

async function post(key: string, body: Request) {
  const response = await fetch(served.url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
}

/** Posts the capture's requests; for a package that sends no definitions, then pastes `paste` on the Tools page and re-checks. */
async function replay(name: string, options: { paste?: unknown[] } = {}) {
  const p = await makeProject();
  const { key } = await p.key();
  for (const body of fixture(name)) expect((await post(key, body)).partialSuccess).toBeUndefined();
  if (options.paste) await pastedAfterTheCalls(served.base, sql, p, options.paste);
  const { rows } = await sql.query(
    `SELECT c.*, c.metadata->>'otel.tool_call_id' AS tool_call_id, k.metadata->>'otel.tool_call_id' AS corrected_by
       FROM tool_calls c LEFT JOIN tool_calls k ON k.project_id = c.project_id AND k.id = c.correction_id
      WHERE c.project_id = $1 ORDER BY c.timestamp, c.step, tool_call_id`,
    [p.project.id],
  );
  return { projectId: p.project.id, key, rows };
}

// the Python captures' tools as their agent gave them to the openai client (openai-v2 sends no definitions: they are pasted)
const PY_TOOLS = [TOOLS[0]!, { ...TOOLS[1]!, description: "List the customer's loans in one state." }].map((t) => ({ type: "function", function: t }));

/** What the scripted model did in the Python runs: script A (four mistakes, then right), script B (two calls at once, twice). */
const SCRIPTED = (malformed: string) => [
  ["getloans", false, "unknown_tool", 0, 1],
  ["getloan", false, "missing_argument", 1, 2],
  ["getloan", false, "wrong_type", 2, 3],
  ["getloan", false, "out_of_range", 3, 4],
  ["getloan", true, null, 4, null],
  ["listopenloans", false, "invalid_choice", 0, 7],
  ["getloan", false, malformed, 0, 8],
  ["listopenloans", true, null, 1, null],
  ["getloan", false, "extra_argument", 1, 9],
  ["getloan", true, null, 2, null],
];

const MODELS = {
  openai: { model_provider: "openai", model_name: "gpt-4o-mini", model_version: "gpt-4o-mini-2024-07-18" },
  anthropic: { model_provider: "anthropic", model_name: "claude-sonnet-4-5", model_version: "claude-sonnet-4-5-20250929" },
};

describe("replayed Python captures", () => {
  const cases = [
    { name: "py-openinference-openai", model: MODELS.openai, malformed: "malformed_arguments" },
    // Anthropic's API sends parsed input: the scripted unparsable call arrives as a wrong type; refusals are flagged is_error
    { name: "py-anthropic-openinference", model: MODELS.anthropic, malformed: "wrong_type", refusedStatus: "error" },
    { name: "py-langchain-openinference", model: MODELS.openai, malformed: "malformed_arguments" },
    // openai-v2 (span_only) sends no tool definitions: the calls land unchecked, then the tools are pasted and re-checked
    { name: "py-otel-genai-openai", model: MODELS.openai, malformed: "malformed_arguments", paste: PY_TOOLS },
  ];
  for (const c of cases) {
    it(`${c.name}: every call, verdict, correction, result and run, one model name`, async () => {
      const { rows, projectId } = await replay(c.name, { paste: c.paste });
      const index = new Map(rows.map((r, i) => [r.id, i]));
      expect(rows.map((r) => [r.tool, r.valid, r.category, r.step, r.correction_id ? index.get(r.correction_id) : null])).toEqual(SCRIPTED(c.malformed));
      expect(new Set(rows.map((r) => r.run_id)).size).toBe(2);
      for (const r of rows) {
        expect(r).toMatchObject(c.model);
        // checked against the definition the span carried (its version pinned), or the one pasted
        expect(r.checked_version, `${r.tool_call_id} checked`).toEqual(r.tool === "getloans" ? null : expect.any(String));
        if (!c.paste) expect(r.tool_version, `${r.tool_call_id} pinned`).toBe(r.checked_version);
        // the harness's answer: its error for a refused call, the tool's own text otherwise
        if (r.valid) expect(r).toMatchObject({ result_status: "ok", result_summary: expect.stringMatching(/^\[?\{"loannumber"/) });
        else expect(r).toMatchObject({ result_status: c.refusedStatus ?? "ok", result_summary: expect.stringMatching(/^Error: /) });
      }
      expect((await storedState(sql, projectId)).rollupsDifferFromRaw).toEqual({});
      // each run's conversation, each message once (Anthropic's request body lacks the system prompt, and
      // its answers come as parts: both are read from the flattened messages)
      await expectConversations(sql, projectId, rows);
    });
  }
});

describe("a JavaScript agent without a span around its conversations (OpenInference openai)", () => {
  const NAME = "js-openinference-openai-noroot";
  it("each conversation is one run with its corrections, whole or span by span in any order, and the same stored state", async () => {
    const whole = await replay(NAME);
    // nine conversations, each model call a trace of its own
    expect(new Set(spansOf(fixture(NAME)).map((s) => (s as { traceId: string }).traceId)).size).toBe(26);
    expect(new Set(whole.rows.map((r) => r.run_id)).size).toBe(9);
    expect(whole.rows.filter((r) => r.valid === false).map((r) => r.correction_id !== null)).toEqual(
      whole.rows.filter((r) => r.valid === false).map(() => true),
    );
    expect(whole.rows.filter((r) => r.correction_id).length).toBe(8);
    for (const r of whole.rows) expect(r.result_summary, `${r.tool_call_id} has its result`).not.toBeNull();
    const expected = await storedState(sql, whole.projectId);
    // each conversation's messages are in its one run, its last answer (a trace that wrote no call) included
    expect(new Set(expected.conversation.map((m) => m.run_id))).toEqual(new Set(whole.rows.map((r) => r.run_id)));
    expect(expected.conversation.filter((m) => m.output && m.calls.length === 0)).toHaveLength(9);

    const spans = spansOf(fixture(NAME));
    for (const order of [[...spans].reverse(), shuffled(spans, 7)]) {
      const p = await makeProject();
      const { key } = await p.key();
      for (const span of order) expect((await post(key, request([span]))).partialSuccess).toBeUndefined();
      const state = await storedState(sql, p.project.id);
      // run ids are the trace of the conversation's first model call, whichever order they came in
      expect(state).toEqual(expected);
    }
  }, 180_000);
});

describe("JavaScript LangChain (OpenInference langchain)", () => {
  it("ids from LangChain's serialised messages, the unparsable call from invalid_tool_calls, the tool's text rather than the ToolMessage", async () => {
    const { rows } = await replay("js-langchain-openinference");
    expect(rows).toHaveLength(18);
    for (const r of rows) expect(r.tool_call_id).toMatch(/^call_c\d_t\d_\d_f06a8a$/);
    const malformed = rows.find((r) => r.tool_call_id === "call_c6_t0_0_f06a8a")!;
    expect(malformed).toMatchObject({ valid: false, category: "malformed_arguments", arguments: '{"loannumber": "4471", "includehistory": tru' });
    const ok = rows.find((r) => r.tool_call_id === "call_c1_t1_0_f06a8a")!;
    expect(ok).toMatchObject({ valid: true, result_status: "ok", result_summary: '{"loannumber":"4471","balance":12300,"status":"current"}' });
    expect(rows.find((r) => r.tool_call_id === "call_c1_t0_0_f06a8a")).toMatchObject({ category: "unknown_tool", result_status: "error" });
    for (const r of rows) expect(r).toMatchObject({ model_provider: "openai", model_name: "gpt-4o-mini", model_version: "gpt-4o-mini-2024-07-18" });
  });
});
