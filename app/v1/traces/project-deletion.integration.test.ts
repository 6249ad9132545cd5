import { expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";
import { chatSpan, request, toolSpan } from "@/test/otlp-json-spans";

// otlp_model_calls, otlp_results and otlp_messages have no foreign key to projects (ingestion writes them in
// bulk, and the check per row cost as much as the insert: docs/PERFORMANCE.md), so deleting a
// project removes their rows by hand, with everything else the project holds.

const served = servedTraces();
const { sql } = served;

const TRACE = "c".repeat(32);
const prompt = { "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "look it up" }] }]) };
const spans = [chatSpan({ id: "call_1", name: "lookup" }, prompt, { traceId: TRACE }), toolSpan("call_1", "found", 7_000_000n, { traceId: TRACE })];

it("deleting a project removes its OTLP steps, results and messages with its calls, and leaves another project's", async () => {
  const [gone, kept] = [await makeProject(), await makeProject()];
  for (const p of [gone, kept]) {
    const { key } = await p.key();
    const res = await fetch(served.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify(request(spans)),
    });
    expect(res.status).toBe(200);
  }
  const tables = ["tool_calls", "otlp_model_calls", "otlp_results", "otlp_messages"];
  const counts = async (projectId: string) => {
    const out: Record<string, number> = {};
    for (const table of tables) out[table] = (await sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId])).rows[0].n;
    return out;
  };
  expect(await counts(gone.project.id)).toEqual({ tool_calls: 1, otlp_model_calls: 1, otlp_results: 1, otlp_messages: 2 });
  await (await gone.asOwner()).projects.delete({ project: gone.project.slug });
  expect(await counts(gone.project.id)).toEqual({ tool_calls: 0, otlp_model_calls: 0, otlp_results: 0, otlp_messages: 0 });
  expect(await counts(kept.project.id)).toEqual({ tool_calls: 1, otlp_model_calls: 1, otlp_results: 1, otlp_messages: 2 });
});
