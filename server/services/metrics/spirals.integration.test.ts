import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";

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
