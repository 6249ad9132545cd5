import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, withKey } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";

// The real @opentelemetry/instrumentation-openai (0.21.0) around the real `openai` client, in
// an agent process of its own (test/agents/openai-otel-agent.ts) configured with the three
// OTEL_EXPORTER_OTLP_* variables only. Its chat spans carry no messages: the tool calls and
// results come as GenAI log records to /v1/logs, which must join the spans.

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

let model: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { messages } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: { role: string }[] };
    const turn = messages.filter((m) => m.role === "assistant").length;
    const calls = SCRIPT[turn] ?? [];
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${turn}`,
        object: "chat.completion",
        created: 1764493200,
        model: "gpt-4o-mini-2024-07-18",
        choices: [
          {
            index: 0,
            finish_reason: calls.length ? "tool_calls" : "stop",
            message: calls.length
              ? {
                  role: "assistant",
                  content: null,
                  tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
                }
              : { role: "assistant", content: "Loan 4471 has a balance of 12,300; 4471 and 5120 are overdue." },
          },
        ],
        usage: { prompt_tokens: 100 + turn, completion_tokens: 20, total_tokens: 120 + turn },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  model = { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => model.close());

describe("@opentelemetry/instrumentation-openai (content in log records)", () => {
  it("calls, verdicts, arguments, the correction and the results land from its spans and logs", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    // the package sends no tool definitions: the project registers its tools
    await withKey(key).tools.register({
      tools: [
        { name: "getloan", parameters: { type: "object", properties: { loannumber: { type: "string", pattern: "^[0-9]{4,8}$" } }, required: ["loannumber"] } },
        { name: "listopenloans", parameters: { type: "object", properties: { status: { enum: ["open", "closed", "overdue"] } } } },
      ],
    });
    const agent = path.join(import.meta.dirname, "../../../test/agents/openai-otel-agent.ts");
    await promisify(execFile)(process.execPath, ["--import", "tsx", agent], {
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH,
        OPENAI_BASE_URL: model.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: served.base,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      },
      timeout: 60_000,
    });
    const { rows } = await sql.query(
      `SELECT metadata->>'otel.tool_call_id' AS call, tool, arguments, valid, category, step, model_name, result_summary,
              correction_id IS NOT NULL AS corrected, run_id, input_tokens
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
    expect(rows.every((r) => r.model_name === "gpt-4o-mini")).toBe(true);
    const [correction] = (
      await sql.query(
        `SELECT c.metadata->>'otel.tool_call_id' AS call FROM tool_calls w JOIN tool_calls c ON c.project_id = w.project_id AND c.id = w.correction_id
                        WHERE w.project_id = $1 AND w.metadata->>'otel.tool_call_id' = 'call_wrong'`,
        [p.project.id],
      )
    ).rows;
    expect(correction.call).toBe("call_fixed");
  });
});
