import type PgBoss from "pg-boss";
import { env } from "../../env";
import { prisma } from "../../db/client";
import { evaluateAlerts } from "../alerts/evaluator";
import { deliver } from "../alerts/webhooks";
import { refreshDerivedAnswers } from "../derived/answers";
import { refreshCoarseRollups } from "../rollups/coarse";
import { refreshKeptSpirals } from "../metrics/spirals-kept";
import { sweepRetention } from "../retention/sweep";
import { DERIVED_REFRESH_BUDGET_SECONDS, QUEUES, RETENTION_SWEEP_BUDGET_SECONDS, startBoss, type DeliveryJob } from "./boss";

/**
 * One attempt of one delivery. A failure throws, and pg-boss schedules the next attempt
 * with exponential backoff (stored in its table, so a restart or another instance picks it
 * up); the attempt number is pg-boss's retry count + 1.
 */
async function runDelivery(job: PgBoss.JobWithMetadata<DeliveryJob>) {
  const { projectId, endpointId, incidentId, event, payload } = job.data;
  const endpoint = await prisma().webhookEndpoint.findUnique({
    where: { projectId_id: { projectId, id: endpointId } },
    select: { projectId: true, id: true, url: true, secret: true, enabled: true },
  });
  if (!endpoint?.enabled) return { skipped: "endpoint deleted or disabled" };
  const attempt = job.retryCount + 1;
  console.log(`[jobs] pid ${process.pid} delivering ${payload.deliveryId} to ${endpoint.url}, attempt ${attempt}`);
  const result = await deliver(endpoint, event, payload, incidentId, { attempt, deliveryId: payload.deliveryId });
  // an internal target is refused for good (webhook-target.ts): logged once, not retried
  if (result.refused) return { attempt, refused: result.error };
  if (!result.delivered) throw new Error(`attempt ${attempt}: ${result.error ?? `HTTP ${result.statusCode}`}`);
  return { attempt, statusCode: result.statusCode };
}

type WorkerOptions = {
  /** keep the cron schedules (every-minute evaluation, hourly retention); tests turn it off */
  schedules?: boolean;
  /** parallel deliveries in this process */
  deliveries?: number;
};

/**
 * Starts background work in this process: webhook deliveries, alert evaluation (unless
 * TOOLGATE_ALERT_EVALUATOR=off), the retention sweep, the refresh of stored derived answers and of the coarse rollups, with their schedules. Returns a stop().
 */
export async function startWorker({ schedules = true, deliveries = 4 }: WorkerOptions = {}) {
  const boss = await startBoss({ worker: true });
  const single = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: 1 };
  for (let i = 0; i < deliveries; i++) await boss.work<DeliveryJob>(QUEUES.delivery, single, ([job]) => runDelivery(job!));
  const evaluator = env().TOOLGATE_ALERT_EVALUATOR === "on";
  if (evaluator) {
    await boss.work(QUEUES.evaluate, { pollingIntervalSeconds: 2 }, async () => {
      const report = await evaluateAlerts();
      return report ? { rules: report.rules, fired: report.fired.length, resolved: report.resolved } : { busy: true };
    });
    if (schedules) await boss.schedule(QUEUES.evaluate, "* * * * *");
  }
  await boss.work(QUEUES.retention, { pollingIntervalSeconds: 10 }, async () => {
    // at most the budget per job (its expiry is set to match in boss.ts); what is left goes on in the next job
    const { reports, finished } = await sweepRetention(new Date(), { budgetSeconds: RETENTION_SWEEP_BUDGET_SECONDS });
    if (!finished) await boss.send(QUEUES.retention, {}, { startAfter: 1 });
    const total = (counter: "calls" | "otlp" | "rollups") => reports.reduce((n, r) => n + r[counter], 0);
    return { calls: total("calls"), otlp: total("otlp"), rollups: total("rollups"), finished };
  });
  if (schedules) await boss.schedule(QUEUES.retention, "17 * * * *");
  // the pages' stored derived answers that new calls (or the hour) made stale, computed again at most once a minute each
  await boss.work(QUEUES.derived, { pollingIntervalSeconds: 10 }, () => refreshDerivedAnswers(new Date(), DERIVED_REFRESH_BUDGET_SECONDS * 1000));
  if (schedules) await boss.schedule(QUEUES.derived, "* * * * *");
  // the coarse daily call rollups' days that batches marked stale, recomputed from the daily rows (reads take those days from the daily rows meanwhile)
  await boss.work(QUEUES.coarseRollups, { pollingIntervalSeconds: 2 }, () => refreshCoarseRollups({ budgetMs: DERIVED_REFRESH_BUDGET_SECONDS * 1000 }));
  if (schedules) await boss.schedule(QUEUES.coarseRollups, "* * * * *");
  // the retry spirals of the runs that batches marked stale, kept again from their whole runs (reads take those runs from their calls meanwhile)
  await boss.work(QUEUES.keptSpirals, { pollingIntervalSeconds: 2 }, () => refreshKeptSpirals({ budgetMs: DERIVED_REFRESH_BUDGET_SECONDS * 1000 }));
  if (schedules) await boss.schedule(QUEUES.keptSpirals, "* * * * *");
  return {
    boss,
    stop: (graceful = true) => boss.stop({ graceful, wait: true, close: false, timeout: 10_000 }),
  };
}

/** The worker of this process (Next.js's instrumentation and `npm run worker` start it once). */
export function startBackgroundWork() {
  const holder = globalThis as { toolgateWorker?: ReturnType<typeof startWorker> };
  holder.toolgateWorker ??= startWorker();
  return holder.toolgateWorker;
}
