/** Next.js calls this once per server process: start the alert evaluator (every minute). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.TOOLGATE_ALERT_EVALUATOR === "off" || !process.env.DATABASE_URL) return;
  const { startAlertEvaluator } = await import("./server/services/alerts/evaluator");
  startAlertEvaluator();
}
