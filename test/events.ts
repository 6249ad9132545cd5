import { randomUUID } from "node:crypto";

/** The loan-servicing tools (getloan, listopenloans) as JSON Schemas; defined with the demo data. */
export { LESSON_TOOLS } from "../server/services/demo/demo-data";

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
