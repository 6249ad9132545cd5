import { beforeAll, describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { MIN_PARALLEL_GROUPS } from "../../domain/parallel-calls";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute)).toISOString();
const range = { from: at(0), to: at(59) };
const model = { provider: "acme", name: "acme-large", version: "2026-10" };

/** One model response of a run: its calls share the turn, each with its own step. */
function turn(runId: string, turnNumber: number, minute: number, calls: Record<string, unknown>[]) {
  return calls.map((c, i) => makeEvent({ runId, step: turnNumber * 10 + i, turn: turnNumber, timestamp: at(minute), model, ...c }));
}
const ok = { arguments: { loannumber: "4471" }, result: { status: "ok", summary: "balance 1200" } };
const invalid = { arguments: { loannumber: 4471 } }; // a number where a string is expected: refused by the schema
const failedResult = { arguments: { loannumber: "4471" }, result: { status: "error", summary: "database unavailable" } };

describe("parallel calls through ingest.batch (turn)", () => {
  let p: Awaited<ReturnType<typeof makeProject>>;
  let owner: Awaited<ReturnType<Awaited<ReturnType<typeof makeProject>>["asOwner"]>>;
  beforeAll(async () => {
    p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    owner = await p.asOwner();
    const events = [
      // 12 turns of two getloan calls: 4 where one is refused while the other answers, 2 where one
      // fails to run while the other answers, 6 where both answer
      ...Array.from({ length: 12 }, (_, i) => turn(`par-${i}`, 1, i, [ok, i < 4 ? invalid : i < 6 ? failedResult : ok])).flat(),
      // a turn of getloan with another tool: counts for getloan's calls too
      ...turn("mixed-tools", 0, 20, [ok, { tool: "listopenloans", arguments: { status: "open" }, result: { status: "ok", summary: "[]" } }]),
      // 5 calls alone in their turn, and 3 whose source reported no turn (never read)
      ...Array.from({ length: 5 }, (_, i) => turn(`single-${i}`, 0, 30 + i, [ok])).flat(),
      ...Array.from({ length: 3 }, (_, i) => makeEvent({ timestamp: at(40 + i), model })),
    ];
    const answer = await api.ingest.batch({ events });
    expect(answer).toMatchObject({ accepted: events.length, rejected: [] });
  });

  it("stores the turn, and the run page gets it with every call", async () => {
    const run = await owner.calls.run({ project: p.project.slug, runId: "par-0" });
    expect(run!.calls.map((c) => [c.step, c.turn, c.valid])).toEqual([
      [10, 1, true],
      [11, 1, false],
    ]);
  });

  it("a tool's figures: calls made in parallel, turns where one failed while another succeeded; no call id known", async () => {
    const figures = await owner.parallel.tool({ project: p.project.slug, range, tool: "getloan" });
    // getloan calls with a turn: 24 in pairs + 1 beside listopenloans + 5 alone (the 3 without a turn are not read)
    expect(figures).toMatchObject({ calls: 30, inParallel: 25, groups: 13, mixed: 6, idKnown: 0, truncated: false });
    expect(figures.shares).toEqual({ inParallel: 25 / 30, mixed: 6 / 13, idKept: null });
    const other = await owner.parallel.tool({ project: p.project.slug, range, tool: "listopenloans" });
    expect(other).toMatchObject({ calls: 1, inParallel: 1, groups: 1, mixed: 0 });
    expect(other.shares.mixed).toBeNull(); // one group is fewer than MIN_PARALLEL_GROUPS
    expect(MIN_PARALLEL_GROUPS).toBeGreaterThan(1);
  });

  it("per model version, in the order asked; a version without calls has none", async () => {
    const [version, none] = await owner.parallel.models({
      project: p.project.slug,
      range,
      versions: [
        { model: "acme-large", version: "2026-10" },
        { model: "acme-large", version: "" },
      ],
    });
    expect(version).toMatchObject({ model: "acme-large", version: "2026-10", calls: 31, inParallel: 26, groups: 13, mixed: 6 });
    expect(none).toMatchObject({ version: null, calls: 0, groups: 0 });
    expect(none!.shares).toEqual({ inParallel: null, mixed: null, idKept: null });
  });

  it("reads several versions at once, a version without a name among them, each with its own calls", async () => {
    const q = await makeProject();
    const api = withKey((await q.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const unnamed = { provider: "globex", name: "globex-pro" };
    const events = [
      // acme-large 2026-10: two turns of two calls, one of them mixed
      ...turn("v-0", 0, 1, [ok, ok]),
      ...turn("v-1", 0, 2, [ok, invalid]),
      // globex-pro without a version: three turns of two, one alone
      ...[3, 4, 5].flatMap((m) => turn(`n-${m}`, 0, m, [ok, ok]).map((e) => ({ ...e, model: unnamed }))),
      ...turn("n-alone", 0, 6, [ok]).map((e) => ({ ...e, model: unnamed })),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: events.length, rejected: [] });
    const answer = await (
      await q.asOwner()
    ).parallel.models({
      project: q.project.slug,
      range,
      versions: [
        { model: "globex-pro", version: "" },
        { model: "acme-large", version: "2026-11" },
        { model: "acme-large", version: "2026-10" },
      ],
    });
    expect(answer.map((v) => [v.model, v.version, v.calls, v.inParallel, v.groups, v.mixed])).toEqual([
      ["globex-pro", null, 7, 6, 3, 0],
      ["acme-large", "2026-11", 0, 0, 0, 0],
      ["acme-large", "2026-10", 4, 4, 2, 1],
    ]);
  });

  it("reads only the range", async () => {
    const figures = await owner.parallel.tool({ project: p.project.slug, range: { from: at(0), to: at(4) }, tool: "getloan" });
    expect(figures).toMatchObject({ calls: 8, groups: 4, mixed: 4 });
  });
});
