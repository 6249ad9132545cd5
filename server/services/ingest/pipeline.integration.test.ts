import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, expect, inject, it } from "vitest";
import { makeProject } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { registryResolver } from "../../domain/verdicts";
import { loadToolVersions, registerTools } from "../tools/registry";
import { ingest, type Part } from "./pipeline";

// The pipeline's contract with a source (pipeline.ts), driven directly: the order of its hooks,
// the gate's per-event outcomes per part, what beforeWrite sets on the checked calls being
// stored, and the runs it names being paired again. ingest.batch and OTLP are its sources; their
// own tests cover what they make of it.

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

const at = (second: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, second)).toISOString();

async function stored(projectId: string, id: string) {
  const { rows } = await sql.query<{ step: number | null; turn: number | null; correction_id: string | null }>(
    "SELECT step, turn, correction_id FROM tool_calls WHERE project_id = $1 AND id = $2",
    [projectId, id],
  );
  return rows[0];
}

it("runs a source's parts through the gate, its hooks, the write and pairing, and answers each event's outcome", async () => {
  const { project } = await makeProject();
  await registerTools(project.id, LOAN_TOOLS);
  const registry = registryResolver(await loadToolVersions(project.id));
  const runId = `run-${randomUUID()}`;
  const invalid = makeEvent({ runId, step: undefined, timestamp: at(1), arguments: { loannumber: 447 } });
  const valid = makeEvent({ runId, step: undefined, timestamp: at(2) });
  const seen: string[] = [];
  const early: Part = { events: [invalid, { id: 5 }, invalid], registry };

  const answer = await ingest(project.id, {
    lockKeys: [`run/${runId}`],
    before: async () => (seen.push("before"), early),
    during: async (_client, before) => (seen.push(`during ${before === early}`), [before!, { events: [invalid, valid], registry }]),
    beforeWrite: async (_client, _part, calls) => {
      seen.push(`beforeWrite ${calls.map((c) => c.event.id).join(",")}`);
      for (const { event } of calls) event.step = event.turn = event.id === invalid.id ? 1 : 2;
      return [];
    },
    afterWrite: async (_client, written) => (seen.push("afterWrite"), written.inserted),
    answer: async (_client, outcomes) => (
      seen.push("answer"),
      outcomes.map(({ accepted, duplicates, rejected, side }) => ({ accepted, duplicates, rejected, side }))
    ),
  });

  expect(seen).toEqual(["before", "during true", `beforeWrite ${invalid.id}`, "afterWrite", `beforeWrite ${invalid.id},${valid.id}`, "afterWrite", "answer"]);
  expect(answer).toEqual([
    // the event without a valid shape is rejected by its index; the repeated id is a duplicate
    { accepted: 1, duplicates: 1, rejected: [expect.objectContaining({ index: 1, path: expect.stringMatching(/^events\[1\]/) })], side: [invalid.id] },
    // the call stored by the first part is a duplicate in the second
    { accepted: 1, duplicates: 1, rejected: [], side: [valid.id] },
  ]);
  // stored with what beforeWrite set, and paired: the valid call of a later turn corrects the invalid one
  expect(await stored(project.id, invalid.id)).toEqual({ step: 1, turn: 1, correction_id: valid.id });
  expect(await stored(project.id, valid.id)).toEqual({ step: 2, turn: 2, correction_id: null });

  // a source that moves a stored call without a new one: paired again only when it names the run
  const moveInvalidAfterValid = (pairAgain: boolean) =>
    ingest(project.id, {
      lockKeys: [`run/${runId}`],
      during: async () => [{ events: [], registry }],
      beforeWrite: async (client) => {
        await client.query("UPDATE tool_calls SET step = 3, turn = 3 WHERE project_id = $1 AND id = $2", [project.id, invalid.id]);
        return pairAgain ? [runId] : [];
      },
      answer: async () => undefined,
    });
  await moveInvalidAfterValid(false);
  expect((await stored(project.id, invalid.id))?.correction_id).toBe(valid.id);
  await moveInvalidAfterValid(true);
  expect(await stored(project.id, invalid.id)).toEqual({ step: 3, turn: 3, correction_id: null });
  expect(await rollupsDifferFromRaw(sql, project.id)).toEqual({});
});
