import { describe, expect, it } from "vitest";
import { API_KEY_ANSWERS } from "../../contracts/api-answers";
import type { ProcedureMeta } from "../trpc/init";
import { appRouter } from "./root";

// Every procedure an API key can call answers by its schema in contracts/api-answers.ts (which
// contracts/api-answers.test.ts checks against the docs): the server refuses to send an answer
// that lacks a field of it.
describe("the API-key procedures", () => {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>;

  it.each(Object.entries(API_KEY_ANSWERS))("%s answers by its .output() schema", (name, schema) => {
    expect(procedures[name]?._def.output).toBe(schema);
  });

  it("are every procedure that takes an API key, and no other", () => {
    const meta = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>;
    const takingKeys = Object.keys(meta).filter((name) => meta[name]!._def.meta?.apiKeyScope !== undefined);
    expect(takingKeys.sort()).toEqual(Object.keys(API_KEY_ANSWERS).sort());
  });
});
