import { expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";

// otlp_model_calls and otlp_results have no foreign key to projects (ingestion writes them in
// bulk, and the check per row cost as much as the insert: docs/PERFORMANCE.md), so deleting a
// project removes their rows by hand, with everything else the project holds.

const served = servedTraces();
const { sql } = served;

const START = 1764493200000000000n;
const attributes = (attrs: Record<string, string>) => Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } }));
const TRACE = "c".repeat(32);

const spans = [
  {
    traceId: TRACE,
    spanId: "1".repeat(16),
    name: "chat m",
    kind: 3,
    startTimeUnixNano: String(START),
    endTimeUnixNano: String(START + 1_000_000n),
    attributes: attributes({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m",
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "lookup", arguments: { q: 1 } }] }]),
    }),
  },
  {
    traceId: TRACE,
    spanId: "2".repeat(16),
    name: "execute_tool lookup",
    kind: 1,
    startTimeUnixNano: String(START + 2_000_000n),
    endTimeUnixNano: String(START + 9_000_000n),
    attributes: attributes({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.call.result": "found",
    }),
  },
];

it("deleting a project removes its OTLP steps and results with its calls, and leaves another project's", async () => {
  const [gone, kept] = [await makeProject(), await makeProject()];
  for (const p of [gone, kept]) {
    const { key } = await p.key();
    const res = await fetch(served.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans }] }] }),
    });
    expect(res.status).toBe(200);
  }
  const tables = ["tool_calls", "otlp_model_calls", "otlp_results"];
  const counts = async (projectId: string) => {
    const out: Record<string, number> = {};
    for (const table of tables) out[table] = (await sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId])).rows[0].n;
    return out;
  };
  expect(await counts(gone.project.id)).toEqual({ tool_calls: 1, otlp_model_calls: 1, otlp_results: 1 });
  await (await gone.asOwner()).projects.delete({ project: gone.project.slug });
  expect(await counts(gone.project.id)).toEqual({ tool_calls: 0, otlp_model_calls: 0, otlp_results: 0 });
  expect(await counts(kept.project.id)).toEqual({ tool_calls: 1, otlp_model_calls: 1, otlp_results: 1 });
});
