import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";

// tools.validate answers "the verdict ingestion would store": both go through verdictFor.

async function setup(register: boolean) {
  const p = await makeProject();
  const { key } = await p.key();
  const api = withKey(key);
  if (register) await api.tools.register({ tools: LOAN_TOOLS });
  return { ...p, api, owner: await p.asOwner() };
}

const CALLS = [
  { tool: "getloan", arguments: { loannumber: "4471" } },
  { tool: "getloan", arguments: { loannumber: 4471 } },
  { tool: "getloan", arguments: {} },
  { tool: "get_loan", arguments: { loannumber: "4471" } },
  { tool: "getloan", arguments: "{not json" },
];

describe("tools.validate gives the verdict ingestion stores", () => {
  for (const register of [true, false]) {
    it(register ? "with registered schemas" : "for a project without schemas (stored unchecked, not unknown_tool)", async () => {
      const p = await setup(register);
      for (const call of CALLS) {
        const event = makeEvent(call);
        await p.api.ingest.batch({ events: [event] });
        const stored = await p.owner.calls.byId({ project: p.project.slug, id: event.id });
        const verdict = await p.api.tools.validate(call);
        expect({ valid: verdict.valid, category: ("category" in verdict && verdict.category) || null }).toEqual({
          valid: stored.valid,
          category: stored.category,
        });
        if (verdict.valid === false) expect(verdict.message).toBe(stored.message);
        if (!register) expect(verdict.message).toMatch(/no tool schemas yet.*tools\.register/);
      }
    });
  }
});
