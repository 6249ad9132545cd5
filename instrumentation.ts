/**
 * Next.js calls this once per server process: unless TOOLGATE_WORKER=off (a web-only
 * instance), start background work here: webhook deliveries, the every-minute alert
 * evaluation (unless TOOLGATE_ALERT_EVALUATOR=off) and the retention sweep.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.TOOLGATE_WORKER === "off" || !process.env.DATABASE_URL) return;
  const { startBackgroundWork } = await import("./server/services/jobs/work");
  await startBackgroundWork().catch((e: Error) => console.error(`[jobs] background work did not start: ${e.message}`));
}
