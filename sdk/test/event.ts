import type { ToolgateEvent } from "../src/event";

/** Event number `i` of one run, for the reporter's tests: arguments `{ i }` unless given. */
export const testEvent = (i: number, args: Record<string, unknown> = { i }): ToolgateEvent => ({
  id: `e${i}`,
  runId: "r",
  step: i,
  timestamp: "2026-11-30T09:15:00Z",
  model: { name: "m" },
  tool: "t",
  arguments: args,
});
