import { afterAll, beforeAll, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { QUEUES, RETENTION_SWEEP_BUDGET_SECONDS, startBoss } from "./boss";

let boss: PgBoss;
beforeAll(async () => {
  boss = await startBoss();
});
afterAll(() => boss.stop({ graceful: false, close: false }));

it("a retention sweep whose process died is expired (and retried) within minutes, not after an hour", async () => {
  // a worker takes the job and dies mid-sweep: the job stays active until it expires
  await boss.send(QUEUES.retention, {}, { singletonKey: `killed-${Date.now()}` });
  const [taken] = await boss.fetch(QUEUES.retention, { includeMetadata: true });
  expect(taken).toBeDefined();
  const job = await boss.getJobById(QUEUES.retention, taken!.id);
  expect(job?.state).toBe("active");
  // the sweep stops itself after its budget and goes on in a new job (sweepRetention), so that is how long one job can run
  expect(Number(job!.expireInSeconds)).toBeLessThanOrEqual(RETENTION_SWEEP_BUDGET_SECONDS + 60);
  expect(RETENTION_SWEEP_BUDGET_SECONDS).toBeLessThanOrEqual(600);
  await boss.complete(QUEUES.retention, taken!.id);
});
