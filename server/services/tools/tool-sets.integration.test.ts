import { describe, expect, it } from "vitest";
import { COST_TOOLS, projectWithTools, withKey } from "../../../test/fixtures";
import { servedTraces } from "../../../test/otlp";
import { chatSpan, request } from "../../../test/otlp-json-spans";
import { definitionTokens } from "../../domain/context-cost";
import { deleteProject } from "../projects";
import { sweepProject } from "../retention/sweep";

// The tool sets runs carried (tool-sets.ts) and the context cost counted with them: runs that
// name their set through ingest.batch (on the first event only, as the SDKs do) and through an
// OTLP model-call span's definitions, beside runs that name none; retention and project deletion.

const TOOLS = COST_TOOLS;
const tokens = (name: string) => definitionTokens(TOOLS.find((t) => t.name === name)!);
const ALL = TOOLS.reduce((n, t) => n + definitionTokens(t), 0);

const served = servedTraces();
const { sql } = served;
const rows = async (table: string, projectId: string) => (await sql.query(`SELECT * FROM ${table} WHERE project_id = $1`, [projectId])).rows;

const HOUR = 3_600_000;
// whole hours, as the rollups count calls: each call a minute past its hour
const start = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR;
const at = (hours: number) => new Date(start + hours * HOUR).toISOString();
const range = (from: number, to: number) => ({ from: at(from), to: at(to) });
const event = (id: string, runId: string, hours: number, extra: Record<string, unknown> = {}) => ({
  id,
  runId,
  timestamp: at(hours + 1 / 60),
  model: { name: "gpt-4o" },
  tool: "get_order",
  arguments: { id: id },
  ...extra,
});

describe("tool sets through ingest.batch", () => {
  it("count a run that named its set (on its first event) with that set, the others with the registered set, and say which", async () => {
    const p = await projectWithTools(TOOLS);
    // the first batch: the carried run's first two calls (the set on the first only) and a run that names none
    const first = [
      event("c-1", "carried", 1, { toolSet: ["get_order", "not_registered", "get_order"] }),
      event("c-2", "carried", 2),
      event("p-1", "plain", 3),
      event("p-2", "plain", 4),
    ];
    expect(await p.ingest.ingest.batch({ events: first })).toMatchObject({ accepted: 4, rejected: [] });
    // a later batch: the carried run's third call, which names no set
    expect(await p.ingest.ingest.batch({ events: [event("c-3", "carried", 5)] })).toMatchObject({ accepted: 1 });

    expect(await rows("tool_sets", p.project.id)).toMatchObject([{ tools: ["get_order", "not_registered"] }]);
    expect((await rows("run_tool_sets", p.project.id)).map((r) => [r.run_id, r.first_at.toISOString(), r.last_at.toISOString()])).toEqual([
      ["carried", at(1 + 1 / 60), at(5 + 1 / 60)],
    ]);

    const api = withKey(p.readKey);
    const cost = await api.tools.contextCost({ range: range(0, 24) });
    expect(cost.basis).toBe("mixed");
    expect(cost.carried).toEqual({ calls: 3, of: 5, sets: 1, unregistered: ["not_registered"] });
    expect(cost.models).toMatchObject([{ model: "gpt-4o", carriedCalls: 3, setTokens: Math.round((3 * tokens("get_order") + 2 * ALL) / 5) }]);
    const perDay = Object.fromEntries(cost.tools.map((t) => [t.name, t.tokensPerDay]));
    expect(perDay).toEqual({ get_order: 5 * tokens("get_order"), export_everything: 2 * tokens("export_everything"), never_used: 2 * tokens("never_used") });

    // a range holding only the carried run's last call (sent without a set): still counted with the run's set
    const late = await api.tools.contextCost({ range: range(5, 6) });
    expect(late).toMatchObject({ basis: "carried", carried: { calls: 1, of: 1, sets: 1 } });
    expect(late.models[0]!.setTokens).toBe(tokens("get_order"));

    // a project whose runs name no set: the registered set, as before
    const none = await projectWithTools(TOOLS);
    await none.ingest.ingest.batch({ events: [event("n-1", "n", 1)] });
    expect(await withKey(none.readKey).tools.contextCost({ range: range(0, 24) })).toMatchObject({
      basis: "registered",
      carried: { calls: 0, of: 1, sets: 0, unregistered: [] },
      models: [{ setTokens: ALL, carriedCalls: 0 }],
    });
    expect(await rows("run_tool_sets", none.project.id)).toEqual([]);

    // retention: kept while the calls are, deleted with them
    expect(await sweepProject(p.project.id, new Date())).toMatchObject({ calls: 0, otlp: 0 });
    expect(await rows("run_tool_sets", p.project.id)).toHaveLength(1);
    const report = await sweepProject(p.project.id, new Date(Date.now() + 120 * 24 * HOUR));
    expect(report).toMatchObject({ calls: 5, otlp: 2, finished: true });
    expect([...(await rows("run_tool_sets", p.project.id)), ...(await rows("tool_sets", p.project.id))]).toEqual([]);
  });
});

describe("tool sets through OTLP", () => {
  it("count a model call that recorded its definitions with them, one that recorded none with the registered set", async () => {
    const p = await projectWithTools(TOOLS);
    const { key } = await p.key();
    const definitions = JSON.stringify(TOOLS.slice(0, 2).map((t) => ({ type: "function", ...t })));
    const body = request([
      chatSpan({ id: "with-defs", name: "get_order" }, { "gen_ai.tool.definitions": definitions }),
      chatSpan({ id: "without", name: "get_order" }),
    ]);
    const res = await fetch(served.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const calls = (await sql.query(`SELECT run_id, timestamp FROM tool_calls WHERE project_id = $1`, [p.project.id])).rows;
    expect(calls).toHaveLength(2);
    // the definitions were the registered ones: no new version
    expect((await rows("tool_definitions", p.project.id)).length).toBe(TOOLS.length);
    expect(await rows("tool_sets", p.project.id)).toMatchObject([{ tools: ["export_everything", "get_order"] }]);
    expect(await rows("run_tool_sets", p.project.id)).toHaveLength(1);

    const time = calls[0]!.timestamp.getTime();
    const cost = await withKey(p.readKey).tools.contextCost({
      range: { from: new Date(time - HOUR).toISOString(), to: new Date(time + HOUR).toISOString() },
    });
    expect(cost).toMatchObject({ basis: "mixed", carried: { calls: 1, of: 2, sets: 1, unregistered: [] } });
    expect(cost.models[0]!.setTokens).toBe(Math.round((tokens("get_order") + tokens("export_everything") + ALL) / 2));

    await deleteProject(p.project.id);
    expect([...(await rows("run_tool_sets", p.project.id)), ...(await rows("tool_sets", p.project.id))]).toEqual([]);
  });
});
