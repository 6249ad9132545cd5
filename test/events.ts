import { randomUUID } from "node:crypto";

/** The loan-servicing tools (getloan, listopenloans) as JSON Schemas; defined with the demo data. */
export { LOAN_TOOLS } from "../server/services/demo/demo-data";

let counter = 0;
/** A valid getloan event with unique ids; override any field. */
export function makeEvent(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    id: `call-${randomUUID()}`,
    runId: `run-${randomUUID()}`,
    step: 0,
    timestamp: new Date(Date.UTC(2026, 10, 30, 9, 0, counter % 60)).toISOString(),
    model: { provider: "acme", name: "acme-large", version: "2026-10" },
    tool: "getloan",
    arguments: { loannumber: "4471" },
    ...overrides,
  };
}

/** An alert rule that the burst below fires: getloan's invalid rate above 20% over 15 minutes, at least 10 calls. */
export const GETLOAN_INVALID_RULE = {
  name: "getloan invalid",
  metric: "invalid_rate",
  condition: "threshold",
  threshold: 0.2,
  windowMinutes: 15,
  minCalls: 10,
  scope: { tool: "getloan" },
} as const;

/** 20 valid and 20 invalid getloan calls in the ten minutes before `now`: an invalid rate of 50%. */
export function invalidBurst(now = new Date()) {
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
  return [
    ...Array.from({ length: 20 }, (_, i) => makeEvent({ timestamp: minutesAgo(10 - i * 0.2) })),
    ...Array.from({ length: 20 }, (_, i) => makeEvent({ timestamp: minutesAgo(9 - i * 0.2), arguments: { loannumber: "12" } })),
  ];
}
