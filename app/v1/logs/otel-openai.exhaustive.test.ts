import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";
import { oneScript, pastedAfterTheCalls, serveScriptedModel } from "@/test/scripted-model";
import { OPENAI_TOOLS } from "@/test/scripted-tools";

// The real @opentelemetry/instrumentation-openai (0.22.0) around the real `openai` client (6.30.1: it
// supports no newer major), in
// an agent process of its own (test/agents/openai-otel-agent.ts) configured with the three
// OTEL_EXPORTER_OTLP_* variables only. Its chat spans carry no messages: the tool calls and
// results come as GenAI log records to /v1/logs, which must join the spans. It sends no tool
// definitions either: the calls land unchecked, then an admin pastes the agent's OpenAI `tools`
// array on the Tools page and re-checks them.

const served = servedTraces();
const { sql } = served;

/** What the scripted model answers, turn by turn: a wrong type, its correction, two parallel calls, the answer. */
const SCRIPT = [
  [{ id: "call_wrong", name: "getloan", arguments: '{"loannumber":4471}' }],
  [{ id: "call_fixed", name: "getloan", arguments: '{"loannumber":"4471"}' }],
  [
    { id: "call_par_a", name: "getloan", arguments: '{"loannumber":"5120"}' },
    { id: "call_par_b", name: "listopenloans", arguments: '{"status":"overdue"}' },
  ],
  [],
];

let model: Awaited<ReturnType<typeof serveScriptedModel>>;
beforeAll(async () => {
  model = await serveScriptedModel(oneScript(SCRIPT, "Loan 4471 has a balance of 12,300; 4471 and 5120 are overdue."));
});
afterAll(() => model.close());

/** Runs the agent (test/agents/openai-otel-agent.ts) against a scripted model, configured by the three OTEL_EXPORTER_OTLP_* variables only. */
async function runAgent(modelUrl: string, key: string) {
  const agent = path.join(import.meta.dirname, "../../../test/agents/openai-otel-agent.ts");
  await promisify(execFile)(process.execPath, ["--import", "tsx", agent], {
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH,
      OPENAI_BASE_URL: `${modelUrl}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: served.base,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
    },
    timeout: 60_000,
  });
}

describe("@opentelemetry/instrumentation-openai (content in log records)", () => {
  it("calls, verdicts, arguments, the correction and the results land from its spans and logs", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    await runAgent(model.url, key);
    await pastedAfterTheCalls(served.base, sql, p, OPENAI_TOOLS);
    const { rows } = await sql.query(
      `SELECT metadata->>'otel.tool_call_id' AS call, tool, arguments, valid, category, step, model_name, model_version, result_summary,
              correction_id IS NOT NULL AS corrected, run_id, checked_version
         FROM tool_calls WHERE project_id = $1 ORDER BY step, call`,
      [p.project.id],
    );
    expect(rows).toMatchObject([
      { call: "call_wrong", tool: "getloan", arguments: { loannumber: 4471 }, valid: false, category: "wrong_type", step: 0, corrected: true },
      { call: "call_fixed", tool: "getloan", arguments: { loannumber: "4471" }, valid: true, step: 1, result_summary: "loan 4471: balance 12,300" },
      { call: "call_par_a", tool: "getloan", valid: true, step: 2, result_summary: "loan 5120: balance 12,300" },
      { call: "call_par_b", tool: "listopenloans", arguments: { status: "overdue" }, valid: true, step: 2, result_summary: "loans overdue: 4471, 5120" },
    ]);
    expect(rows[0].result_summary).toBe("Error: loannumber must be a string");
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(1); // one conversation span around the turns: one run
    for (const r of rows) expect(r).toMatchObject({ model_name: "gpt-4o-mini", model_version: "gpt-4o-mini-2024-07-18", checked_version: expect.any(String) });
    const [correction] = (
      await sql.query(
        `SELECT c.metadata->>'otel.tool_call_id' AS call FROM tool_calls w JOIN tool_calls c ON c.project_id = w.project_id AND c.id = w.correction_id
                        WHERE w.project_id = $1 AND w.metadata->>'otel.tool_call_id' = 'call_wrong'`,
        [p.project.id],
      )
    ).rows;
    expect(correction.call).toBe("call_fixed");

    // the conversation, from the log records: each message once, the model's text from its choices
    const { rows: messages } = await sql.query(
      `SELECT role, text, calls, call_id AS "callId", output FROM otlp_messages WHERE project_id = $1 AND run_id = $2 ORDER BY started_ns, depth`,
      [p.project.id, rows[0].run_id],
    );
    // in the order the records were emitted: by time, records of equal times as they arrived (they were read in no order before)
    expect(messages.map((m) => [m.role, m.output, m.callId ?? m.calls.map((c: { id: string }) => c.id).join(",")])).toEqual([
      ["system", false, ""],
      ["user", false, ""],
      ["assistant", true, "call_wrong"],
      ["tool", false, "call_wrong"],
      ["assistant", true, "call_fixed"],
      ["tool", false, "call_fixed"],
      ["assistant", true, "call_par_a,call_par_b"],
      ["tool", false, "call_par_a"],
      ["tool", false, "call_par_b"],
      ["assistant", true, ""],
    ]);
    expect(messages[3].text).toBe("Error: loannumber must be a string");
    // the last answer's text, from its gen_ai.choice record
    expect(messages[9].text).toMatch(/^Loan 4471 has a balance of 12,300/);
  });

  it("an unknown tool's retry under the right name is paired with it: the earlier turn comes as a gen_ai.assistant.message record", async () => {
    const renaming = await serveScriptedModel(
      oneScript(
        [
          [{ id: "call_typo", name: "getloans", arguments: '{"loannumber":"4471"}' }],
          [{ id: "call_renamed", name: "getloan", arguments: '{"loannumber":"4471"}' }],
          [],
        ],
        "Loan 4471 has a balance of 12,300.",
      ),
    );
    try {
      const p = await makeProject();
      const { key } = await p.key();
      await runAgent(renaming.url, key);
      await pastedAfterTheCalls(served.base, sql, p, OPENAI_TOOLS);
      const { rows } = await sql.query(
        `SELECT w.tool, w.category, c.metadata->>'otel.tool_call_id' AS corrected_by
           FROM tool_calls w LEFT JOIN tool_calls c ON c.project_id = w.project_id AND c.id = w.correction_id
          WHERE w.project_id = $1 AND w.metadata->>'otel.tool_call_id' = 'call_typo'`,
        [p.project.id],
      );
      expect(rows).toEqual([{ tool: "getloans", category: "unknown_tool", corrected_by: "call_renamed" }]);
    } finally {
      await renaming.close();
    }
  });
});
