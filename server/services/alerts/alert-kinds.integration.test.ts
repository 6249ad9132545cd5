import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { waitFor } from "../../../test/wait";
import { prisma } from "../../db/client";
import { startWorker } from "../jobs/work";
import { evaluateAlerts } from "./evaluator";

// The rule kinds after the gate (issue 33.6) on ingested data: each fires above its threshold and stays quiet
// below it, through the same evaluator, preview, silences and webhooks as the invalid-rate rules.

const now = new Date();
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const base = { condition: "threshold", windowMinutes: 15, minCalls: 10, scope: { tool: "getloan" } } as const;

/**
 * getloan: 20 ok results (10 of them empty) and 20 failed results of 3 s in the last ten minutes,
 * and one run that failed 4 times in a row before it succeeded. An empty result is not a failed one.
 */
function traffic() {
  const results = Array.from({ length: 40 }, (_, i) =>
    makeEvent({
      timestamp: minutesAgo(10 - i * 0.2),
      result: i % 2 ? { status: "error", latencyMs: 3000 } : { status: "ok", latencyMs: 3000, summary: i % 4 ? '{"offers": [1]}' : "[]" },
    }),
  );
  const spiral = [0, 1, 2, 3, 4].map((step) =>
    makeEvent({
      id: `spiral-${step}-${now.getTime()}`,
      runId: `spiral-run-${now.getTime()}`,
      step,
      timestamp: minutesAgo(5 - step * 0.1),
      arguments: step < 4 ? { loannumber: "12" } : { loannumber: "4471" },
      ...(step === 4 ? { result: { status: "ok", latencyMs: 3000 } } : {}),
      usage: { inputTokens: 1000, outputTokens: 100, costUsd: 0.01 },
    }),
  );
  return [...results, ...spiral];
}

function receiver() {
  const received: { event: string; body: { rule: { metric: string }; incident: { summary: string; value: number } } }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ event: String(req.headers["x-toolgate-event"]), body: JSON.parse(body) });
      res.end();
    });
  });
  return new Promise<{ url: string; received: typeof received; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => server.close() }),
    ),
  );
}

describe("alert rules on tool errors, empty results, latency and spirals", () => {
  let worker: Awaited<ReturnType<typeof startWorker>>;
  beforeAll(async () => {
    worker = await startWorker({ schedules: false });
  });
  afterAll(() => worker.stop());

  it("each kind fires above its threshold and stays quiet below it, with its preview, state and webhook", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const owner = await p.asOwner();
    const project = p.project.slug;
    const hook = await receiver();
    try {
      await owner.webhooks.create({ project, name: "ops", url: hook.url });
      await api.ingest.batch({ events: traffic() });
      const rules = {
        errors: { ...base, name: "getloan errors", metric: "tool_error_rate", threshold: 0.3 },
        errorsQuiet: { ...base, name: "getloan errors quiet", metric: "tool_error_rate", threshold: 0.6 },
        // from an hour the evaluator reads the rollups, where the empty results have a column of their own
        errorsHourly: { ...base, name: "getloan errors hourly", metric: "tool_error_rate", threshold: 0.3, windowMinutes: 60 },
        empty: { ...base, name: "getloan empty", metric: "empty_result_rate", threshold: 0.2 },
        // the preview slides 15-minute windows over the burst: a window's share of empty results can
        // reach about a third while the whole is 24 % (it fired once at 0.3), so the quiet rule sits well above both
        emptyQuiet: { ...base, name: "getloan empty quiet", metric: "empty_result_rate", threshold: 0.5 },
        emptyHourly: { ...base, name: "getloan empty hourly", metric: "empty_result_rate", threshold: 0.2, windowMinutes: 60 },
        latency: { ...base, name: "getloan slow", metric: "latency_p95", threshold: 2000, windowMinutes: 60 },
        latencyQuiet: { ...base, name: "getloan slow quiet", metric: "latency_p95", threshold: 5000, windowMinutes: 60 },
        spirals: { ...base, name: "getloan spirals", metric: "spirals", threshold: 0, spiralLength: 3 },
        spiralsQuiet: { ...base, name: "getloan spirals quiet", metric: "spirals", threshold: 0, spiralLength: 5 },
      } as const;
      for (const [key, rule] of Object.entries(rules)) {
        // the preview runs the evaluator's logic over the last days: fires for the loud rules only
        const preview = await owner.alerts.preview({ project, rule, days: 1 });
        expect({ key, fired: preview.fired }).toEqual({ key, fired: key.endsWith("Quiet") ? 0 : 1 });
        await owner.alerts.createRule({ project, rule });
      }

      // the tool page's read: the spiral, its run, the call that ended it and what it burned
      const range = { from: minutesAgo(60), to: new Date(now.getTime() + 60_000).toISOString() };
      const spirals = await owner.metrics.spirals({ project, range, scope: { tool: "getloan" } });
      expect(spirals).toMatchObject({
        minLength: 3,
        total: { spirals: 1, attempts: 4, tokens: 4400 },
        groups: [{ tool: "getloan", model: "acme-large", modelVersion: "2026-10", spirals: 1, attempts: 4, longest: 4 }],
        longest: [{ runId: `spiral-run-${now.getTime()}`, attempts: 4, endedBy: `spiral-4-${now.getTime()}`, firstAttemptId: `spiral-0-${now.getTime()}` }],
        truncated: false,
      });
      expect(spirals.total.costUsd).toBeCloseTo(0.04, 10);
      expect((await owner.metrics.spirals({ project, range, minLength: 5 })).total.spirals).toBe(0);

      const report = await evaluateAlerts({ projectId: p.project.id });
      expect(report?.fired.map((f) => f.summary).sort()).toEqual([
        "Empty result rate 24.39% is above 20.00% for tool getloan over 1 h (41 results).",
        "Empty result rate 24.39% is above 20.00% for tool getloan over 15 min (41 results).",
        expect.stringMatching(/^Latency p95 2,\d{3} ms is above 2,000 ms for tool getloan over 1 h \(41 timed results\)\.$/),
        "Retry spirals of 3+ failed attempts 1 is above 0 for tool getloan over 15 min (45 calls).",
        "Tool error rate 48.78% is above 30.00% for tool getloan over 1 h (41 results).",
        "Tool error rate 48.78% is above 30.00% for tool getloan over 15 min (41 results).",
      ]);
      const states = await prisma().alertRule.findMany({
        where: { projectId: p.project.id, builtIn: false },
        select: { name: true, lastState: true, lastValue: true },
      });
      expect(Object.fromEntries(states.map((s) => [s.name, [s.lastState, s.lastValue]]))).toEqual({
        "getloan errors": ["firing", 20 / 41],
        "getloan errors quiet": ["ok", 20 / 41],
        "getloan errors hourly": ["firing", 20 / 41],
        "getloan empty": ["firing", 10 / 41],
        "getloan empty quiet": ["ok", 10 / 41],
        "getloan empty hourly": ["firing", 10 / 41],
        "getloan slow": ["firing", expect.closeTo(3000, -3)],
        "getloan slow quiet": ["ok", expect.closeTo(3000, -3)],
        "getloan spirals": ["firing", 1],
        "getloan spirals quiet": ["ok", 0],
      });

      // each incident went to the webhook (rules naming no endpoint notify every one), as an invalid-rate incident does
      await waitFor(() => hook.received.length >= 6, "the six incidents' webhooks");
      expect(hook.received.map((r) => [r.event, r.body.rule.metric]).sort()).toEqual([
        ["incident.fired", "empty_result_rate"],
        ["incident.fired", "empty_result_rate"],
        ["incident.fired", "latency_p95"],
        ["incident.fired", "spirals"],
        ["incident.fired", "tool_error_rate"],
        ["incident.fired", "tool_error_rate"],
      ]);

      // a silence of the tool covers the new kinds too: resolved by hand, then fired again under it, recorded silenced
      const member = owner;
      for (const incident of await owner.alerts.incidents({ project })) await member.alerts.resolve({ project, id: incident.id });
      await member.alerts.silence({ project, silence: { tool: "getloan", minutes: 60, reason: "planned getloan migration" } });
      const again = await evaluateAlerts({ projectId: p.project.id, now: new Date(now.getTime() + 60_000) });
      expect(again?.fired).toHaveLength(6);
      expect(again?.fired.every((f) => f.silenced)).toBe(true);
    } finally {
      hook.close();
    }
  });
});
