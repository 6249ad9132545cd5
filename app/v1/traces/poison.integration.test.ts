import { describe, expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";
import { attributes, chatSpan, request, toolSpan } from "@/test/otlp-json-spans";

// Issue 20 item 6: a span whose values cannot be stored is rejected on its own (partial
// success), with the same bounds ingest.batch applies; the good span beside it is stored.

const served = servedTraces();
const { sql } = served;

/** Text that PostgreSQL cannot compress below its index row limit (a repeated letter would fit). */
const incompressible = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(48 + ((i * 7919 + ((i * i) % 13)) % 75))).join("");

const POISON: { name: string; span: () => unknown; reason: RegExp }[] = [
  { name: "start time 2^63 ns", span: () => chatSpan({ id: "p", name: "lookup" }, {}, { startTimeUnixNano: "9223372036854775808" }), reason: /start time/ },
  { name: "start time 1e20 ns (a JSON number)", span: () => chatSpan({ id: "p", name: "lookup" }, {}, { startTimeUnixNano: 1e20 }), reason: /start time/ },
  { name: "NUL in a conversation id", span: () => chatSpan({ id: "p", name: "lookup" }, { "gen_ai.conversation.id": "conv\u0000x" }), reason: /NUL/ },
  {
    name: "a 6,000-character conversation id",
    span: () => chatSpan({ id: "p", name: "lookup" }, { "gen_ai.conversation.id": incompressible(6000) }),
    reason: /at most 256/,
  },
  { name: "NUL in a tool call id", span: () => chatSpan({ id: "call\u0000x", name: "lookup" }), reason: /NUL/ },
  { name: "NUL in a tool result", span: () => toolSpan("res-nul", "ok\u0000then", 5_000_000n), reason: /NUL/ },
  {
    name: "NUL in a span name (a span missing its model, so the name is in the reason)",
    span: () => ({ ...chatSpan({ id: "p", name: "lookup" }), name: "chat\u0000m", attributes: attributes({ "gen_ai.operation.name": "chat" }) }),
    reason: /gen_ai\.request\.model/,
  },
  { name: "a tool span longer than 2^31 ms", span: () => toolSpan("res-long", "fine", (2n ** 31n + 5n) * 1_000_000n), reason: /2,147,483,647/ },
];

describe("OTLP rejects per span, never per request", () => {
  it.each(POISON)("$name: 200, partial success, the good span beside it stored", async ({ span, reason }) => {
    const p = await makeProject();
    const { key } = await p.key();
    const res = await fetch(served.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify(request([span(), chatSpan({ id: "good", name: "lookup" })])),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    if (answer.partialSuccess) expect(answer.partialSuccess.errorMessage).toMatch(reason);
    const { rows } = await sql.query(`SELECT metadata->>'otel.tool_call_id' AS call FROM tool_calls WHERE project_id = $1`, [p.project.id]);
    expect(rows.map((r) => r.call)).toContain("good");
    expect(Number(answer.partialSuccess?.rejectedSpans ?? 0)).toBeGreaterThanOrEqual(1);
    const stats = await sql.query(`SELECT spans::int, rejected::int FROM otlp_stats WHERE project_id = $1`, [p.project.id]);
    expect(stats.rows[0]).toMatchObject({ spans: 2 });
  });
});
