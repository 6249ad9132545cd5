import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";
import { attributes, request } from "@/test/otlp-json-spans";

/*
 * Server-side telemetry: an MCP server of the official Python SDK (mcp 2.3.0, test/python/
 * requirements-otel-mcp.txt, installed in .venv-otel) traces each request with its own
 * OpenTelemetryMiddleware and exports through the OpenTelemetry SDK, configured by the standard
 * OTEL_* variables only. The SDK's client, over stdio, carries the agent's trace context in each
 * request's `_meta`, so the server's `tools/call getloan` spans are in the agent's trace. The agent's
 * model calls (GenAI chat spans that wrote the calls) are sent before or after: either way each
 * execution joins its call.
 */
const served = servedTraces();
const { sql } = served;
const root = path.join(import.meta.dirname, "../../..");
const python = path.join(root, ".venv-otel/bin/python");

let counter = 0;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** The agent's model call that wrote one tool call, started at `startMs`. */
function modelCall(traceId: string, startMs: number, call: { id: string; name: string }) {
  const start = BigInt(startMs) * 1_000_000n;
  return {
    traceId,
    spanId: hex(++counter, 16),
    name: "chat gpt-4o-mini",
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 5_000_000n),
    attributes: attributes({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.conversation.id": `conversation-${traceId}`,
      "gen_ai.output.messages": JSON.stringify([
        { role: "assistant", parts: [{ type: "tool_call", id: call.id, name: call.name, arguments: { loannumber: "4471" } }] },
      ]),
    }),
  };
}

async function runMcpClient(traceId: string, key: string) {
  expect(
    existsSync(python),
    `${python}: create it with python3 -m venv .venv-otel && .venv-otel/bin/pip install -r test/python/requirements-otel-mcp.txt`,
  ).toBe(true);
  const { stdout } = await promisify(execFile)(python, [path.join(root, "test/python/mcp_loan_client.py")], {
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH,
      TRACEPARENT: `00-${traceId}-${hex(++counter, 16)}-01`,
      OTEL_EXPORTER_OTLP_ENDPOINT: served.base,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}`,
      OTEL_SERVICE_NAME: "loan-server",
    },
    timeout: 60_000,
  });
  return stdout;
}

it.each(["model calls first", "server spans first"])(
  "the MCP SDK's server spans become tool executions, joined with the model's calls (%s)",
  async (order) => {
    const p = await makeProject();
    const { key } = await p.key();
    const traceId = hex(Date.now(), 20) + hex(++counter, 12);
    const started = Date.now() - 2_000;
    const modelCalls = [
      modelCall(traceId, started, { id: "call_get", name: "getloan" }),
      modelCall(traceId, started + 500, { id: "call_close", name: "closeloan" }),
    ];
    const sendModelCalls = async () => {
      const res = await fetch(`${served.url}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: JSON.stringify(request(modelCalls)),
      });
      expect(await res.json()).toEqual({});
    };
    if (order === "model calls first") await sendModelCalls();
    expect(await runMcpClient(traceId, key)).toMatch(/^False True/);
    if (order === "server spans first") await sendModelCalls();

    const { rows: executions } = await sql.query(
      `SELECT tool, status, summary, server, protocol_version, request_id IS NOT NULL AS has_request_id, latency_ms >= 0 AS timed,
              (SELECT metadata->>'otel.tool_call_id' FROM tool_calls c WHERE c.project_id = e.project_id AND c.id = e.call_id) AS joined_to
         FROM otlp_tool_executions e WHERE project_id = $1 ORDER BY started_ns`,
      [p.project.id],
    );
    expect(executions).toEqual([
      expect.objectContaining({ tool: "getloan", status: "ok", server: "loan-server", has_request_id: true, timed: true, joined_to: "call_get" }),
      expect.objectContaining({ tool: "closeloan", status: "error", summary: "tool_error", server: "loan-server", joined_to: "call_close" }),
    ]);
    expect(executions[0].protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const { rows: calls } = await sql.query(
      `SELECT metadata->>'otel.tool_call_id' AS call, result_status, result_summary, latency_ms IS NOT NULL AS timed FROM tool_calls WHERE project_id = $1 ORDER BY timestamp`,
      [p.project.id],
    );
    expect(calls).toEqual([
      { call: "call_get", result_status: "ok", result_summary: null, timed: true },
      { call: "call_close", result_status: "error", result_summary: "tool_error", timed: true },
    ]);
    const { rows: stats } = await sql.query(`SELECT rejected::int, executions::int, executions_joined::int FROM otlp_stats WHERE project_id = $1`, [
      p.project.id,
    ]);
    expect(stats).toEqual([{ rejected: 0, executions: 2, executions_joined: 2 }]);
  },
  120_000, // two Python processes start (the client and the stdio server)
);
