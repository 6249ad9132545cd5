import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";

// Pairing with parallel calls (docs/pairing.md, "Parallel calls"): a call the model wrote in the
// same response (turn) as an invalid call was written before the model saw the error, so it is
// never that call's correction; the next same-tool call of a later turn is. Each case is sent
// through ingest.batch in every arrival order (one call per batch) and as one batch, each order
// into a run of its own, and must end with the same links and rollups that agree with the calls.

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

const at = (second: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, second)).toISOString();
const bad = { arguments: { loannumber: 447 } }; // a number where getloan wants a string
const good = { arguments: { loannumber: "4471" } };

type Call = { name: string; step?: number; turn?: number; second: number; tool?: string; valid: boolean };
type Case = {
  name: string;
  calls: Call[];
  /** name of an invalid call → name of its expected correction (null: none) */
  corrections: Record<string, string | null>;
  /** name of an invalid call → attempts until success on its call page (checked for the one-batch arrival) */
  attempts?: Record<string, number | null>;
};

const CASES: Case[] = [
  {
    name: "a sibling of the same turn is not a correction",
    calls: [
      { name: "a1", step: 1, turn: 0, second: 1, valid: false },
      { name: "a2", step: 2, turn: 0, second: 2, valid: true },
    ],
    corrections: { a1: null },
    attempts: { a1: null },
  },
  {
    name: "the same tool in the next turn is the correction, not the sibling before it",
    calls: [
      { name: "a1", step: 1, turn: 0, second: 1, valid: false },
      { name: "a2", step: 2, turn: 0, second: 2, valid: true },
      { name: "a3", step: 3, turn: 1, second: 3, valid: true },
    ],
    corrections: { a1: "a3" },
    attempts: { a1: 2 },
  },
  {
    name: "two invalid siblings are both corrected by the next turn's call",
    calls: [
      { name: "a1", step: 1, turn: 0, second: 1, valid: false },
      { name: "a2", step: 2, turn: 0, second: 2, valid: false },
      { name: "a3", step: 3, turn: 1, second: 3, valid: true },
    ],
    corrections: { a1: "a3", a2: "a3" },
    attempts: { a1: 2, a2: 2 },
  },
  {
    name: "OpenTelemetry's shape: siblings share their model call's step, another tool in between",
    calls: [
      { name: "a1", step: 0, turn: 0, second: 1, valid: false },
      { name: "b", step: 0, turn: 0, second: 2, tool: "listopenloans", valid: true },
      { name: "a2", step: 0, turn: 0, second: 3, valid: false },
      { name: "a3", step: 1, turn: 1, second: 4, valid: true },
    ],
    corrections: { a1: "a3", a2: "a3" },
  },
  {
    name: "a chain across turns: invalid siblings, an invalid retry, then a valid one",
    calls: [
      { name: "a1", step: 1, turn: 0, second: 1, valid: false },
      { name: "a2", step: 2, turn: 0, second: 2, valid: false },
      { name: "a3", step: 3, turn: 1, second: 3, valid: false },
      { name: "a4", step: 4, turn: 2, second: 4, valid: true },
    ],
    corrections: { a1: "a3", a2: "a3", a3: "a4" },
    attempts: { a1: 3, a2: 3, a3: 3 },
  },
  {
    name: "without a turn on either side, the next call of the tool, as before",
    calls: [
      { name: "a1", step: 1, second: 1, valid: false },
      { name: "a2", step: 2, turn: 0, second: 2, valid: true },
      { name: "b1", step: 3, turn: 1, second: 3, tool: "listopenloans", valid: false },
      { name: "b2", step: 4, second: 4, tool: "listopenloans", valid: true },
    ],
    corrections: { a1: "a2", b1: "b2" },
  },
  {
    name: "unstepped calls: turns still decide, in time order",
    calls: [
      { name: "a1", turn: 0, second: 1, valid: false },
      { name: "a2", turn: 0, second: 2, valid: true },
      { name: "a3", turn: 1, second: 3, valid: true },
    ],
    corrections: { a1: "a3" },
  },
];

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe("pairing parallel calls (turn)", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const p = await makeProject();
      const api = withKey((await p.key()).key);
      await api.tools.register({ tools: LOAN_TOOLS });
      const owner = await p.asOwner();
      const names = c.calls.map((call) => call.name);
      // every order of one call per batch, and all calls in one batch
      const arrivals = [[names], ...permutations(names).map((order) => order.map((name) => [name]))];
      for (const [a, batches] of arrivals.entries()) {
        const runId = `run-${a}`;
        const id = (name: string) => `${name}-${a}`;
        const events = new Map(
          c.calls.map((call) => [
            call.name,
            makeEvent({
              id: id(call.name),
              runId,
              step: call.step,
              ...(call.turn !== undefined ? { turn: call.turn } : {}),
              timestamp: at(call.second),
              tool: call.tool ?? "getloan",
              ...(call.tool === "listopenloans" ? { arguments: { status: call.valid ? "open" : 7 } } : call.valid ? good : bad),
            }),
          ]),
        );
        for (const batch of batches) {
          const answer = await api.ingest.batch({ events: batch.map((name) => events.get(name)!) });
          expect(answer.rejected).toEqual([]);
        }
        const { rows } = await sql.query<{ id: string; valid: boolean; correction_id: string | null }>(
          "SELECT id, valid, correction_id FROM tool_calls WHERE project_id = $1 AND run_id = $2",
          [p.project.id, runId],
        );
        const nameOf = (stored: string | null) => (stored === null ? null : stored.slice(0, stored.lastIndexOf("-")));
        const links = Object.fromEntries(rows.filter((r) => r.valid === false).map((r) => [nameOf(r.id), nameOf(r.correction_id)]));
        expect(links, `arrival ${JSON.stringify(batches)}`).toEqual(c.corrections);

        if (a === 0 && c.attempts) {
          for (const [name, expected] of Object.entries(c.attempts)) {
            const detail = await owner.calls.byId({ project: p.project.slug, id: id(name) });
            expect(detail.attemptsUntilSuccess, name).toBe(expected);
          }
        }
      }
      expect(await rollupsDifferFromRaw(sql, p.project.id)).toEqual({});
    });
  }
});
