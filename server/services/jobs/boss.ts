import { createHash } from "node:crypto";
import PgBoss from "pg-boss";
import { env } from "../../env";
import { pool } from "../../db/client";

/**
 * Background work runs on pg-boss, a job queue kept in the app's own PostgreSQL (schema
 * `pgboss`, created and migrated by pg-boss itself at start; Prisma only diffs `public`).
 * Every instance can enqueue; only instances with TOOLGATE_WORKER=on (or `npm run worker`)
 * work the queues and keep the schedules. docs/SCALING.md explains the setup.
 */
export const QUEUES = {
  /** one webhook payload to one endpoint; pg-boss retries it with exponential backoff */
  delivery: "webhook-delivery",
  /** one alert evaluation pass over every project (cron: every minute) */
  evaluate: "alerts-evaluate",
  /** deletes expired calls and rollups (cron: every hour) */
  retention: "retention-sweep",
  /** refreshes the stored answers of the pages' derived reads that new calls made stale (cron: every minute) */
  derived: "derived-answers-refresh",
  /** recomputes the coarse daily call rollups' stale days from the daily rows (cron: every minute) */
  coarseRollups: "coarse-rollups-refresh",
  /** keeps the retry spirals of the runs that batches marked stale, from their whole runs (cron: every minute) */
  keptSpirals: "kept-spirals-refresh",
} as const;

/** What a webhook delivery job carries: queued by the alert evaluator, run by the worker (server/services/jobs/work.ts). */
export type DeliveryJob = {
  projectId: string;
  endpointId: string;
  incidentId: string | null;
  event: string;
  payload: { deliveryId: string } & Record<string, unknown>;
};

const BOSS_SCHEMA = "pgboss";

/**
 * How long one retention job sweeps before it stops and hands the rest to a new job
 * (work.ts). Its job expires a minute after that: a sweep killed with its process is
 * retried within minutes, while a live one never outlasts its job's expiry.
 */
export const RETENTION_SWEEP_BUDGET_SECONDS = 240;

/** How long one refresh of stored derived answers (server/services/derived/answers.ts), of the coarse rollups (rollups/coarse.ts) or of the kept spirals (metrics/spirals-kept.ts) runs; the rest waits for the next minute. */
export const DERIVED_REFRESH_BUDGET_SECONDS = 45;

/** Attempts per webhook delivery: the first plus four retries. */
const DELIVERY_ATTEMPTS = 5;

/** pg-boss counts retry delays in whole seconds: TOOLGATE_WEBHOOK_BACKOFF_MS is rounded up. */
const deliveryBackoffSeconds = () => Math.max(1, Math.ceil(env().TOOLGATE_WEBHOOK_BACKOFF_MS / 1000));

/** Creates (or updates) the queues; harmless to run on every start of every instance. */
async function ensureQueues(boss: PgBoss) {
  const queues: PgBoss.Queue[] = [
    {
      name: QUEUES.delivery,
      policy: "standard",
      retryLimit: DELIVERY_ATTEMPTS - 1,
      retryDelay: deliveryBackoffSeconds(),
      retryBackoff: true,
      expireInSeconds: 60,
    },
    // singleton: at most one evaluation (one sweep) active at a time across all instances
    { name: QUEUES.evaluate, policy: "singleton", retryLimit: 0, expireInSeconds: 300 },
    { name: QUEUES.retention, policy: "singleton", retryLimit: 1, retryDelay: 60, expireInSeconds: RETENTION_SWEEP_BUDGET_SECONDS + 60 },
    // singleton: one refresh at a time; a run takes at most its budget (work.ts), the next minute's run goes on
    { name: QUEUES.derived, policy: "singleton", retryLimit: 0, expireInSeconds: DERIVED_REFRESH_BUDGET_SECONDS + 60 },
    { name: QUEUES.coarseRollups, policy: "singleton", retryLimit: 0, expireInSeconds: DERIVED_REFRESH_BUDGET_SECONDS + 60 },
    { name: QUEUES.keptSpirals, policy: "singleton", retryLimit: 0, expireInSeconds: DERIVED_REFRESH_BUDGET_SECONDS + 60 },
  ];
  // pg-boss's create_queue makes a table partition: two instances starting at once on a new
  // database deadlock there, so they take turns (a session lock on a connection of its own)
  const client = await pool().connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('toolgate:job-queues'))`);
    for (const queue of queues) {
      if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
      else await boss.createQueue(queue.name, queue);
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('toolgate:job-queues'))`).catch(() => {});
    client.release();
  }
}

/**
 * A started pg-boss on the app's pool. `worker` (default false) turns on pg-boss's
 * maintenance (expiring stuck jobs, archiving) and its cron clock; without it the instance
 * only enqueues.
 */
export async function startBoss({ worker = false }: { worker?: boolean } = {}) {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool().query(text, values) },
    schema: BOSS_SCHEMA,
    supervise: worker,
    schedule: worker,
    migrate: true,
    // a delivery that died with its process (active, never finished) is retried after it expires
    maintenanceIntervalSeconds: 30,
  });
  boss.on("error", (error) => console.error(`[jobs] ${error.message}`));
  await boss.start();
  await ensureQueues(boss);
  return boss;
}

const holder = globalThis as { toolgateBoss?: Promise<PgBoss> };

/** This process's pg-boss for enqueueing (started on first use). */
export function jobs(): Promise<PgBoss> {
  holder.toolgateBoss ??= startBoss().catch((error) => {
    holder.toolgateBoss = undefined;
    throw error;
  });
  return holder.toolgateBoss;
}

/** Runs pg-boss's SQL on a caller's transaction: the job exists exactly when the transaction commits. */
export type SqlExecutor = PgBoss.Db;

/** A stable uuid from parts, for job ids: sending the same (incident, endpoint) twice inserts one job. */
export function stableUuid(...parts: string[]) {
  const h = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
