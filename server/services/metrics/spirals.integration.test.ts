import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { statusesOf } from "../../../isomorphic/outcome";
import { pool, prisma } from "../../db/client";
import { attemptFailed, findSpirals } from "../../domain/spirals";
import { readSpirals } from "./spirals";
import { FAILED_ATTEMPT_SQL, refreshKeptSpirals } from "./spirals-kept";
import { QUEUES } from "../jobs/boss";
import { startWorker } from "../jobs/work";
import { waitFor } from "../../../test/wait";

// Retry spirals read from stored runs (server/services/metrics/spirals.ts): a turn's parallel calls
// of one tool are one attempt (server/domain/spirals.ts), through ingest.batch and metrics.spirals.

const now = Date.now();
const at = (seconds: number) => new Date(now - 600_000 + seconds * 1000).toISOString();
/** One run: each call `[turn, result status]` of getloan, a step each, refused when the status is "invalid". */
const run = (runId: string, calls: [number, "invalid" | "error" | "ok"][]) =>
  calls.map(([turn, how], step) =>
    makeEvent({
      id: `${runId}-${step}`,
      runId,
      step,
      turn,
      timestamp: at(step),
      arguments: how === "invalid" ? { loannumber: 12 } : { loannumber: "4471" },
      ...(how === "invalid" ? {} : { result: { status: how } }),
      usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.01 },
    }),
  );

describe("retry spirals and parallel calls", () => {
  it("count a turn's failed parallel calls of a tool as one attempt", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const events = [
      // three parallel getloan calls refused in one response, then a success: one attempt, no spiral
      ...run("parallel", [
        [0, "invalid"],
        [0, "invalid"],
        [0, "invalid"],
        [1, "ok"],
      ]),
      // turn 0's two failed calls, then turns 1 and 2 failed, turn 3 succeeded: three attempts, four failed calls burned
      ...run("spiral", [
        [0, "invalid"],
        [0, "error"],
        [1, "invalid"],
        [2, "error"],
        [3, "ok"],
      ]),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: events.length, rejected: [] });
    const owner = await p.asOwner();
    const range = { from: at(-60), to: at(60) };
    const spirals = await owner.metrics.spirals({ project: p.project.slug, range, scope: { tool: "getloan" } });
    expect(spirals).toMatchObject({
      total: { spirals: 1, attempts: 3, tokens: 440 },
      longest: [{ runId: "spiral", attempts: 3, firstAttemptId: "spiral-0", endedBy: "spiral-4" }],
    });
    expect(spirals.total.costUsd).toBeCloseTo(0.04, 10);
    // the whole project's read (the models page) says the same
    expect((await owner.metrics.spirals({ project: p.project.slug, range })).total).toMatchObject({ spirals: 1, attempts: 3 });
  });
});

// The bounded read against the detector over whole runs (the benchmark's plain answer,
// bench/query.ts): runs of several tools, stepped, unstepped and both, with ties in time, failures
// in and out of the range, so that failed attempts are consecutive, apart, or last of their run.
describe("retry spirals read from the failed attempts and their neighbours", () => {
  it("answer what the detector over whole runs answers, for a tool and for the project", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const tools = ["getloan", "listopenloans", "search"];
    const events = [];
    for (let r = 0; r < 60; r++) {
      const runId = `bounded-${String(r).padStart(2, "0")}`;
      const stepping = pick(["all", "none", "some"] as const);
      const length = 3 + Math.floor(random() * 14);
      const runTools = tools.slice(0, 1 + Math.floor(random() * 3));
      for (let i = 0; i < length; i++) {
        const how = pick(["valid-false", "error", "timeout", "ok", "ok", "none"] as const);
        const stepped = stepping === "all" || (stepping === "some" && i < length / 2);
        events.push(
          makeEvent({
            id: `${runId}x${String(i).padStart(2, "0")}`,
            runId,
            step: stepped ? i : undefined,
            // over 500 s in steps of 10 s: ties in time, which the id decides
            timestamp: at(10 * Math.floor(random() * 50)),
            tool: pick(runTools),
            ...(how === "valid-false" ? { outcome: { valid: false, category: "missing_argument" } } : {}),
            ...(how === "error" || how === "timeout" || how === "ok" ? { result: { status: how } } : {}),
          }),
        );
      }
    }
    for (let i = 0; i < events.length; i += 200) await api.ingest.batch({ events: events.slice(i, i + 200) });
    const range = { from: new Date(at(100)), to: new Date(at(400)) };
    const plain = async (tool: string | undefined, minLength: number) => {
      const calls = await prisma().toolCall.findMany({
        where: { projectId: p.project.id },
        orderBy: [{ runId: "asc" }, { step: { sort: "asc", nulls: "last" } }, { timestamp: "asc" }, { id: "asc" }],
      });
      const lines: string[] = [];
      for (const runId of new Set(calls.map((c) => c.runId))) {
        const run = calls
          .filter((c) => c.runId === runId)
          .map((c) => {
            const call = { id: c.id, tool: c.tool, turn: c.turn, valid: c.valid, resultStatus: c.resultStatus };
            const outside = c.timestamp < range.from || c.timestamp >= range.to;
            // a failure that is not read (outside the range) breaks a streak, as the read's gap does
            return attemptFailed(call) && outside ? { id: "", tool: "", valid: true, resultStatus: "ok" } : call;
          });
        for (const s of findSpirals(run, minLength)) if (!tool || s.tool === tool) lines.push(`${s.attempts.join(",")}|${s.endedBy ?? "-"}`);
      }
      return lines.sort();
    };
    const compare = async (state: string) => {
      let spirals = 0;
      for (const minLength of [2, 3])
        for (const tool of [undefined, ...tools]) {
          const read = await readSpirals(p.project.id, range, { tool }, minLength);
          expect(read.spirals.map((s) => `${s.attempts.join(",")}|${s.endedBy ?? "-"}`).sort(), `${state}: ${tool ?? "project"}, ${minLength}`).toEqual(
            await plain(tool, minLength),
          );
          spirals += read.spirals.length;
        }
      // the data holds spirals, so the comparison says something
      expect(spirals, state).toBeGreaterThan(20);
    };
    const runsOf = async (sql: string) => (await pool().query<{ run_id: string }>(sql, [p.project.id])).rows.map((r) => r.run_id).sort();
    const stale = () => runsOf("SELECT run_id FROM spiral_stale_runs WHERE project_id = $1");
    // every run with a failed attempt is stale (a run without one has no spiral): read from its failed calls
    const failing = await runsOf(`SELECT DISTINCT run_id FROM tool_calls WHERE project_id = $1 AND ${FAILED_ATTEMPT_SQL}`);
    expect(failing.length).toBeGreaterThan(50);
    expect(await stale()).toEqual(failing);
    await compare("all runs stale");
    // kept by the worker: read from the kept spirals
    expect(await refreshKeptSpirals({ projectId: p.project.id })).toEqual({ projects: 1, runs: failing.length });
    expect(await stale()).toEqual([]);
    expect(Number((await pool().query("SELECT count(*) FROM spiral_attempts WHERE project_id = $1", [p.project.id])).rows[0].count)).toBeGreaterThan(20);
    await compare("all runs kept");
    // new calls in a third of the runs, which break, end, extend or start spirals: those runs are stale again
    // when a new call failed or the run has kept spirals (calls that did not fail cannot make one), the others kept
    const withSpirals = await runsOf("SELECT DISTINCT run_id FROM spiral_attempts WHERE project_id = $1");
    const more = [];
    const touched = new Set<string>();
    for (let r = 0; r < 60; r += 3) {
      const runId = `bounded-${String(r).padStart(2, "0")}`;
      for (let i = 0; i < 4; i++) {
        const how = pick(["valid-false", "error", "ok"] as const);
        if (how !== "ok" || withSpirals.includes(runId)) touched.add(runId);
        more.push(
          makeEvent({
            id: `${runId}y${i}`,
            runId,
            step: pick([undefined, 2 * i + 1]),
            timestamp: at(10 * Math.floor(random() * 50)),
            tool: pick(tools),
            ...(how === "valid-false" ? { outcome: { valid: false, category: "missing_argument" } } : { result: { status: how } }),
          }),
        );
      }
    }
    // and a call that did not fail, at the end of a run with kept spirals, which may end its last one
    const ended = withSpirals.find((runId) => Number(runId.slice(-2)) % 3 !== 0)!;
    more.push(makeEvent({ id: `${ended}z`, runId: ended, step: 99, timestamp: at(399), tool: pick(tools), result: { status: "ok" } }));
    touched.add(ended);
    await api.ingest.batch({ events: more });
    expect(touched.size).toBeGreaterThan(10);
    expect(await stale()).toEqual([...touched].sort());
    await compare("some runs stale");
    await refreshKeptSpirals({ projectId: p.project.id });
    await compare("all runs kept again");
    // a backfill the worker has not caught up with: every run from its failed calls
    await pool().query("INSERT INTO spiral_stale_runs (project_id, run_id) SELECT $1, 'elsewhere-' || i FROM generate_series(1, 2001) i", [p.project.id]);
    await compare("too many stale runs");
  });
});

it("the worker's job keeps the marked runs' spirals", async () => {
  const worker = await startWorker({ schedules: false });
  try {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    await api.ingest.batch({
      events: run("worked", [
        [0, "invalid"],
        [1, "error"],
        [2, "invalid"],
        [3, "ok"],
      ]),
    });
    const kept = async () =>
      (await pool().query("SELECT call_id FROM spiral_attempts WHERE project_id = $1 ORDER BY position", [p.project.id])).rows.map((r) => r.call_id);
    expect(await kept()).toEqual([]);
    await worker.boss.send(QUEUES.keptSpirals, {});
    await waitFor(async () => (await kept()).length > 0, "the kept spirals job");
    expect(await kept()).toEqual(["worked-0", "worked-1", "worked-2"]);
  } finally {
    await worker.stop();
  }
});

it("the partial index of failed attempts is of the statuses the read counts as failed", async () => {
  // the read's condition must imply the index's predicate (prisma/schema.prisma), or the read scans every call of the tool
  const { rows } = await pool().query<{ predicate: string }>(
    "SELECT pg_get_expr(indpred, indrelid) AS predicate FROM pg_index WHERE indexrelid = 'tool_calls_failed_tool_idx'::regclass",
  );
  const statuses = [...rows[0]!.predicate.matchAll(/'(\w+)'::text/g)].map((m) => m[1]);
  expect(statuses.sort()).toEqual(statusesOf("failed").sort());
  expect(rows[0]!.predicate).toMatch(/^\(\(valid IS FALSE\) OR /);
});
