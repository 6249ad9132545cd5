import { randomUUID } from "node:crypto";

/** The lesson's tools (tool-calling-lesson.txt) as JSON Schemas, for tests and demo data. */
export const LESSON_TOOLS = [
  {
    name: "getloan",
    description: "Returns the status, due date, outstanding amount and any fee for one personal loan. Use when you have a loan number.",
    parameters: {
      type: "object",
      properties: {
        loannumber: { type: "string", minLength: 4, maxLength: 8, pattern: "^[0-9]+$", description: "The 4 to 8 digit loan number" },
        includehistory: { type: "boolean", default: false },
      },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
  {
    name: "listopenloans",
    description: "Lists loan numbers by status.",
    parameters: {
      type: "object",
      properties: { status: { type: "string", enum: ["open", "closed", "overdue"] } },
      required: ["status"],
      additionalProperties: false,
    },
  },
];

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
