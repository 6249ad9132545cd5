import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pool } from "../../db/client";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";

/** What /api/health does: a round trip to the database through the app's pool. */
const health = async () => (await pool().query<{ up: number }>("SELECT 1 AS up")).rows[0]!.up;

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

const redos = { name: "redos", parameters: { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } }, required: ["code"] } };
const inherited = { name: "inherited", parameters: { type: "object", required: ["toString"] } };

async function project() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: [...LOAN_TOOLS, redos, inherited] });
  return { ...p, api };
}

const rows = async (projectId: string, ids: string[]) =>
  (await sql.query("SELECT id, valid, category, checked_valid, metadata, cost_usd FROM tool_calls WHERE project_id = $1 AND id = ANY($2)", [projectId, ids]))
    .rows;

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

describe("hardening: one tenant's event or schema cannot stall the server or sink a batch", () => {
  let p: Awaited<ReturnType<typeof project>>;
  beforeAll(async () => {
    p = await project();
  });

  it("a catastrophic pattern gets its verdict at once while health checks keep answering", async () => {
    // With a backtracking RegExp, 40 a's and a "!" held the event loop for over a minute; 10,000 would take longer than the universe has.
    const events = ["a".repeat(40) + "!", "a".repeat(10_000) + "!", "a".repeat(10_000)].map((code) => makeEvent({ tool: "redos", arguments: { code } }));
    const { result, stallMs } = await longestStall(() => Promise.all([p.api.ingest.batch({ events }), health(), health()]));
    const [ingested, ...healthChecks] = result;
    expect(ingested).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    expect(healthChecks).toEqual([1, 1]);
    // A bound for correctness, not speed: backtracking would stall for minutes, linear matching for milliseconds.
    expect(stallMs).toBeLessThan(1000);
    const stored = new Map(
      (
        await rows(
          p.project.id,
          events.map((e) => e.id),
        )
      ).map((r) => [r.id, r.category ?? "valid"]),
    );
    expect(events.map((e) => stored.get(e.id))).toEqual(["out_of_range", "out_of_range", "valid"]);
  });

  it("rejects each bad value per event, with the field, what was sent and the fix, and stores the good events beside them", async () => {
    const deep = (levels: number) => JSON.parse('{"a":'.repeat(levels) + "1" + "}".repeat(levels));
    const hour = "2026-11-30T10:";
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ tool: "get\u0000loan" }, "tool", /NUL character/],
      [{ arguments: { loannumber: "44\u000071" } }, "arguments.loannumber", /the string "44\\u000071" contains a NUL character/],
      [{ metadata: { ["env\u0000"]: "prod" } }, 'metadata["env\\u0000"]', /the metadata key .* contains a NUL/],
      [{ model: { name: "acme\ud800" } }, "model.name", /lone UTF-16 surrogate \(\\ud800\)/],
      [{ arguments: { loannumber: "\ud800" } }, "arguments.loannumber", /lone UTF-16 surrogate/],
      [{ step: 2 ** 31 }, "step", /step must be at most 2,147,483,647 \(a 32-bit integer\), got 2147483648/],
      [{ result: { status: "ok", latencyMs: 2 ** 31 } }, "result.latencyMs", /at most 2,147,483,647/],
      [{ usage: { inputTokens: 2 ** 31 } }, "usage.inputTokens", /at most 2,147,483,647/],
      [{ usage: { outputTokens: 2 ** 40 } }, "usage.outputTokens", /at most 2,147,483,647/],
      [{ timestamp: `${hour}00:00-23:59` }, "timestamp", /the offset -23:59 .* send the time in UTC, "2026-12-01T09:59:00.000Z"/],
      [{ arguments: deep(5_000) }, `arguments${".a".repeat(65)}`, /nested more than 64 levels deep here: flatten them/],
      [{ usage: { costUsd: 1e308 } }, "usage.costUsd", /at most 1,000,000 .*got 1e\+308/],
      [{ usage: { costUsd: 1e308 } }, "usage.costUsd", /at most 1,000,000/],
      [{ arguments: JSON.parse('{"loannumber": "4471", "amount": 1e400}') }, "arguments.amount", /the number Infinity cannot be stored .* send it as a string/],
    ];
    const good = [
      makeEvent({ timestamp: `${hour}00:01Z`, usage: { costUsd: 1_000_000 } }),
      makeEvent({ timestamp: `${hour}00:02Z`, usage: { costUsd: 1_000_000 } }), // the same rollup hour: the sum 2e6 is fine
      makeEvent({ timestamp: `${hour}00:03+15:59` }),
      makeEvent({ tool: "inherited", arguments: {} }),
      makeEvent({ metadata: JSON.parse('{"__proto__": "kept", "env": "prod"}') }),
    ];
    const events = [...bad.map(([fields]) => makeEvent({ timestamp: `${hour}00:00Z`, ...fields })), ...good];
    const result = await p.api.ingest.batch({ events });
    expect(result.accepted).toBe(good.length);
    expect(result.rejected.map((r) => r.index)).toEqual(bad.map((_, i) => i));
    bad.forEach(([, path, message], i) => {
      const rejection = result.rejected[i]!;
      expect(rejection.path).toBe(`events[${i}].${path}`);
      expect(rejection.message.startsWith(`events[${i}].${path}: `)).toBe(true);
      expect(rejection.message).toMatch(message);
    });

    const stored = new Map(
      (
        await rows(
          p.project.id,
          events.map((e) => e.id),
        )
      ).map((r) => [r.id, r]),
    );
    expect(stored.size).toBe(good.length);
    expect(stored.get(good[3]!.id)).toMatchObject({ valid: false, category: "missing_argument" }); // {} has no own toString
    expect(Object.keys(stored.get(good[4]!.id).metadata).sort()).toEqual(["__proto__", "env"]);
    const { rows: rollup } = await sql.query(
      "SELECT sum(cost_usd)::float8 AS cost FROM call_rollups_hourly WHERE project_id = $1 AND hour = '2026-11-30T10:00:00Z' AND tool = 'getloan'",
      [p.project.id],
    );
    expect(rollup[0].cost).toBe(2_000_000);
  });

  it("refuses a schema nested 1,000 levels deep, and a pattern RE2 cannot run, as BAD_REQUEST with the reason", async () => {
    let nested: object = { type: "string" };
    for (let i = 0; i < 1_000; i++) nested = { type: "object", properties: { a: nested } };
    await expect(p.api.tools.register({ tools: [{ name: "deep", parameters: nested }] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^tools\[0\] \(deep\): Error: parameters is nested more than 64 levels deep \(objects and arrays\) at #\/properties\/a\//),
    });
    const lookahead = { type: "object", properties: { id: { type: "string", pattern: "^(?!tmp-).+$" } } };
    await expect(p.api.tools.register({ tools: [{ name: "lookahead", parameters: lookahead }] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/the pattern "\^\(\?!tmp-\)\.\+\$" at #\/properties\/id\/pattern cannot be used .*no lookaround/),
    });
  });

  it("stores, unchecked, a call to a tool whose schema was stored before RE2 and the limits refused it", async () => {
    const q = await project();
    const parameters = { type: "object", properties: { code: { type: "string", pattern: "^(a)\\1$" } } };
    await sql.query("INSERT INTO tool_definitions (project_id, name, version, description, parameters) VALUES ($1, 'legacy', 'old', '', $2)", [
      q.project.id,
      JSON.stringify(parameters),
    ]);
    const events = [makeEvent({ tool: "legacy", arguments: { code: "aa" } }), makeEvent()];
    expect(await q.api.ingest.batch({ events })).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    const stored = new Map(
      (
        await rows(
          q.project.id,
          events.map((e) => e.id),
        )
      ).map((r) => [r.id, r]),
    );
    expect(stored.get(events[0]!.id)).toMatchObject({ valid: null, checked_valid: null });
    expect(stored.get(events[1]!.id)).toMatchObject({ valid: true, checked_valid: true });
  });
});
