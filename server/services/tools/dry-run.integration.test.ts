import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { pool } from "../../db/client";
import { dryRunPage, prepareDryRun } from "./dry-run";

// A dry run must not hurt the process that serves everyone: memory that does not grow with the
// size of the stored arguments, and an event loop that keeps answering while it classifies.

const range = { from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z" };

/** A project with `count` calls of tool `t`, each with arguments of about `bytes` characters, and a read key. */
async function projectWithCalls(count: number, argumentsSql: string) {
  const { api } = await seeded(count, argumentsSql);
  return api;
}

async function seeded(count: number, argumentsSql: string) {
  const p = await makeProject();
  await pool().query(
    `INSERT INTO tool_calls (project_id, id, run_id, step, timestamp, model_name, tool, arguments, valid, checked_valid)
     SELECT $1, 'c' || i, 'r' || (i % 50), i, TIMESTAMPTZ '2026-11-20T00:00:00Z' + i * interval '1 second', 'm', 't', ${argumentsSql}, true, true
       FROM generate_series(1, $2) i`,
    [p.project.id, count],
  );
  return { api: withKey((await p.key("ci", "read")).key), projectId: p.project.id };
}

const text = (chars: number) => `jsonb_build_object('text', repeat(md5(i::text), ${chars / 32}))`;
const schema = { type: "object", properties: { text: { type: "string", maxLength: 10 } }, required: ["text"] };
const maxRssMb = () => process.resourceUsage().maxRSS / 1024;

describe("dry run", () => {
  it("keeps memory flat with argument size: calls of 1 MB arguments are counted as skipped, never loaded", async () => {
    const small = await projectWithCalls(60, text(1024));
    const large = await projectWithCalls(60, text(1024 * 1024));
    // the small ones first: whatever they need is in the baseline
    const smallRuns = await Promise.all([1, 2, 3].map(() => small.tools.dryRun({ tool: "t", parameters: schema, range })));
    expect(smallRuns[0]).toMatchObject({ scanned: 60, broken: 60, skipped: 0, complete: true });
    const before = maxRssMb();
    const largeRuns = await Promise.all([1, 2, 3].map(() => large.tools.dryRun({ tool: "t", parameters: schema, range })));
    const grown = maxRssMb() - before;
    expect(largeRuns[0]).toMatchObject({ scanned: 0, skipped: 60, complete: true });
    expect(largeRuns[0]!.summary).toMatch(/60 calls skipped: their arguments are over 256 KiB/);
    // three concurrent dry runs over 60 MB of arguments each: loaded, that is hundreds of MB
    console.log(`[dry-run memory] max RSS grew by ${Math.round(grown)} MB`);
    expect(grown, `max RSS grew by ${Math.round(grown)} MB`).toBeLessThan(64);
  }, 120_000);

  it("cuts a page before 4 MiB of arguments and carries on from there", async () => {
    const { api, projectId } = await seeded(50, text(200 * 1024));
    const prepared = await prepareDryRun(projectId, "t", { parameters: schema });
    const r = { from: new Date(range.from), to: new Date(range.to) };
    const first = await dryRunPage(projectId, "t", prepared, r, null);
    expect(first.tally.scanned).toBe(20); // 20 × 200 KiB (and a bit) fit in 4 MiB, 21 do not
    expect(first.next).not.toBeNull();
    const whole = await api.tools.dryRun({ tool: "t", parameters: schema, range });
    expect(whole).toMatchObject({ scanned: 50, skipped: 0, broken: 50, complete: true });
  });

  it("keeps the event loop answering while it classifies", async () => {
    // 2,000 calls, each an array of 600 objects checked item by item: a page's classification takes a while
    const api = await projectWithCalls(
      2000,
      `jsonb_build_object('items', (SELECT jsonb_agg(jsonb_build_object('a', j, 'b', 'value ' || j)) FROM generate_series(1, 600) j))`,
    );
    const items = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: { type: "object", properties: { a: { type: "integer", minimum: 0 }, b: { type: "string", pattern: "^value [0-9]+$" } }, required: ["a", "b"] },
        },
      },
      required: ["items"],
    };
    // The longest stretch the event loop spent on other work between two turns of a 1 ms timer,
    // in CPU time of this process: on a loaded machine wall-clock lag also counts time the
    // process was not scheduled at all, CPU time counts only the work that blocked the loop.
    let maxBlockMs = 0;
    let running = true;
    const probe = (async () => {
      while (running) {
        const before = process.cpuUsage();
        await new Promise((r) => setTimeout(r, 1));
        const used = process.cpuUsage(before);
        maxBlockMs = Math.max(maxBlockMs, (used.user + used.system) / 1000);
      }
    })();
    const result = await api.tools.dryRun({ tool: "t", parameters: items, range });
    running = false;
    await probe;
    expect(result).toMatchObject({ scanned: 2000, stillValid: 2000, complete: true });
    // unchanged, one page of 2,000 calls was classified in one go (over a second of CPU here); now in slices
    console.log(`[dry-run event loop] longest block ${Math.round(maxBlockMs)} ms of CPU`);
    expect(maxBlockMs, `the event loop was blocked for up to ${Math.round(maxBlockMs)} ms of CPU`).toBeLessThan(250);
  }, 120_000);
});
