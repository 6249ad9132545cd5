import { describe, expect, it, vi } from "vitest";
import { resolveRange } from "../../../contracts/range";
import { prisma } from "../../db/client";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { loadDemoData } from "../demo/load-demo";
import { modelParallelCalls, toolParallelCalls } from "../parallel/parallel-calls";
import { spiralSummary } from "../metrics/spirals";
import { sweepProject } from "../retention/sweep";
import { confusableTools } from "../tools/confusable";
import { toolDoctor } from "../tools/patterns";
import { analytics } from "../analytics";
import { refreshDerivedAnswers } from "./answers";

// Stored answers of the pages' derived reads (server/services/derived/answers.ts) through the pages'
// procedures: equal to the live read, stale after a new call, refreshed by the worker's job, per project.

const preset = () => {
  const r = resolveRange({ range: "7d" });
  return { api: { from: r.from, to: r.to }, dates: { from: new Date(r.from), to: new Date(r.to) } };
};
/** A run of getloan calls a second apart, ten minutes ago: each refused ("invalid") or with its result status. */
const run = (runId: string, outcomes: ("invalid" | "error" | "ok")[]) =>
  outcomes.map((how, step) =>
    makeEvent({
      id: `${runId}-${step}`,
      runId,
      step,
      turn: step,
      timestamp: new Date(Date.now() - 600_000 + step * 1000).toISOString(),
      arguments: how === "invalid" ? { loannumber: 12 } : { loannumber: "4471" },
      ...(how === "invalid" ? {} : { result: { status: how } }),
    }),
  );
const stored = (projectId: string) => prisma().derivedAnswer.findMany({ where: { projectId }, orderBy: [{ kind: "asc" }, { key: "asc" }] });
/** Makes a project's stored answers older than the grace for new calls (as two minutes later). */
const age = (projectId: string, seconds: number) =>
  prisma().derivedAnswer.updateMany({ where: { projectId }, data: { computedAt: new Date(Date.now() - seconds * 1000) } });

describe("stored answers of derived reads", () => {
  it("equal the live reads on the demo data, and a page view after the first uses them", async () => {
    const demo = await makeProject();
    await loadDemoData(demo.project, { now: new Date(), days: 6, runsPerDay: 60 });
    const owner = await demo.asOwner();
    const { api, dates } = preset();
    const input = { project: demo.project.slug, range: api };
    const versions = [
      { model: "acme-large", version: "2026-11" },
      { model: "acme-mini", version: "2026-10" },
    ];
    const first = {
      confusable: await owner.tools.projectConfusable(input),
      spirals: await owner.metrics.spirals(input),
      tool: await owner.parallel.tool({ ...input, tool: "getloan" }),
      models: await owner.parallel.models({ ...input, versions }),
      doctor: await owner.tools.patterns({ ...input, tool: "getloan" }),
    };
    // the first view computed them (no "as of") and stored them
    expect([first.confusable.asOf, first.spirals.asOf, first.tool.asOf, first.models[0]!.asOf, first.doctor.asOf]).toEqual([null, null, null, null, null]);
    expect((await stored(demo.project.id)).map((r) => r.kind)).toEqual(["confusable", "doctor", "parallel-models", "parallel-tool", "spirals"]);
    const second = {
      confusable: await owner.tools.projectConfusable(input),
      spirals: await owner.metrics.spirals(input),
      tool: await owner.parallel.tool({ ...input, tool: "getloan" }),
      models: await owner.parallel.models({ ...input, versions }),
      doctor: await owner.tools.patterns({ ...input, tool: "getloan" }),
    };
    const asOf = (await stored(demo.project.id))[0]!.computedAt.toISOString();
    expect(second.confusable.asOf).toBe(asOf);
    expect(second.spirals.asOf).toEqual(expect.any(String));
    // what the stored answers say is what the live reads say (through JSON, as the page gets either)
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    const project = demo.project.id;
    const raw = {
      confusable: await confusableTools(project, dates),
      spirals: await spiralSummary(project, dates, {}, 3),
      tool: await toolParallelCalls(project, "getloan", dates),
      doctor: await toolDoctor(project, "getloan", dates),
    };
    // the live answers are plain JSON already (no dates): a stored answer has the types the page expects
    for (const answer of Object.values(raw)) expect(json(answer)).toEqual(answer);
    const live = {
      confusable: json(raw.confusable),
      spirals: json(raw.spirals),
      tool: json(raw.tool),
      doctor: json(raw.doctor),
      models: json(
        await modelParallelCalls(
          project,
          [
            { model: "acme-large", version: "2026-11" },
            { model: "acme-mini", version: "2026-10" },
          ],
          dates,
        ),
      ),
    };
    expect(first.confusable.pairs.length).toBeGreaterThan(0);
    expect(first.spirals.total.spirals).toBeGreaterThan(0);
    expect(first.tool.calls).toBeGreaterThan(0);
    const { asOf: _c, ...confusable } = second.confusable;
    const { asOf: _s, ...spirals } = second.spirals;
    const { asOf: _t, ...tool } = second.tool;
    expect(confusable).toEqual(live.confusable);
    expect(spirals).toEqual(live.spirals);
    expect(tool).toEqual(live.tool);
    const { asOf: _d, ...doctor } = second.doctor;
    expect(second.doctor.asOf).toEqual(expect.any(String));
    expect(doctor).toEqual(live.doctor);
    expect(first.doctor.patterns.length).toBeGreaterThan(0);
    expect(second.models.map(({ asOf: _m, ...v }) => v)).toEqual(live.models);
    // the tool page's pairs are the stored answer's pairs with the tool
    const withGetloan = await owner.tools.confusablePairs({ ...input, tool: "getloan" });
    expect(withGetloan.asOf).toBe(asOf);
    expect(withGetloan.pairs).toEqual(first.confusable.pairs.filter((p) => p.tools.includes("getloan")));
  });

  it("a new call makes an answer stale past the grace, the next view computes it again; the worker refreshes; no other project's answer is read", async () => {
    const a = await makeProject();
    const b = await makeProject();
    const ingestA = withKey((await a.key()).key);
    const ingestB = withKey((await b.key()).key);
    await ingestA.tools.register({ tools: LOAN_TOOLS });
    await ingestB.tools.register({ tools: LOAN_TOOLS });
    await ingestA.ingest.batch({ events: run("a-1", ["invalid", "error", "invalid", "ok"]) });
    await ingestB.ingest.batch({ events: [...run("b-1", ["invalid", "error", "invalid", "ok"]), ...run("b-2", ["error", "error", "error", "error"])] });
    const { api } = preset();
    const spiralsOf = async (p: typeof a) => (await p.asOwner()).metrics.spirals({ project: p.project.slug, range: api });

    expect((await spiralsOf(a)).total.spirals).toBe(1);
    expect((await spiralsOf(b)).total.spirals).toBe(2);
    // both stored, each of its own project: a's read says a's figures, whatever b stored under the same key
    const [storedA] = await stored(a.project.id);
    const [storedB] = await stored(b.project.id);
    expect(storedA!.key).toBe(storedB!.key);
    const fromStore = await spiralsOf(a);
    expect(fromStore.asOf).not.toBeNull();
    expect(fromStore.total.spirals).toBe(1);

    // a new spiral in a's range: within the grace the stored answer stands ("as of"), past it the view computes again
    await ingestA.ingest.batch({ events: run("a-2", ["error", "invalid", "error", "ok"]) });
    expect(await spiralsOf(a)).toMatchObject({ total: { spirals: 1 }, asOf: expect.any(String) });
    await age(a.project.id, 150);
    const recomputed = await spiralsOf(a);
    expect(recomputed).toMatchObject({ total: { spirals: 2 }, asOf: null });
    // an old answer of unchanged calls is used until MAX_ANSWER_AGE (b: nothing new)
    await age(b.project.id, 150);
    expect(await spiralsOf(b)).toMatchObject({ total: { spirals: 2 }, asOf: expect.any(String) });

    // the worker's refresh: a's answer stale by a new call and past the grace is computed again, b's (unchanged) is left
    await ingestA.ingest.batch({ events: run("a-3", ["invalid", "invalid", "invalid", "ok"]) });
    await age(a.project.id, 90);
    const bBefore = (await stored(b.project.id))[0]!.computedAt;
    await refreshDerivedAnswers(new Date(), 60_000);
    const [refreshedA] = await stored(a.project.id);
    expect(Date.now() - refreshedA!.computedAt.getTime()).toBeLessThan(30_000);
    expect((await stored(b.project.id))[0]!.computedAt).toEqual(bBefore);
    const afterRefresh = await spiralsOf(a);
    expect(afterRefresh).toMatchObject({ total: { spirals: 3 }, asOf: refreshedA!.computedAt.toISOString() });

    // a custom range is read live and not stored
    const custom = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() };
    const owner = await a.asOwner();
    expect(await owner.metrics.spirals({ project: a.project.slug, range: custom })).toMatchObject({ total: { spirals: 3 }, asOf: null });
    expect(await stored(a.project.id)).toHaveLength(1);

    // another project's member cannot read a's answers through a's slug
    await expect((await b.asOwner()).metrics.spirals({ project: a.project.slug, range: api })).rejects.toThrow();
  });

  it("the worker's refresh reads a project's range mark once for all its answers of a preset, and none for young answers", async () => {
    const p = await makeProject();
    const ingest = withKey((await p.key()).key);
    await ingest.tools.register({ tools: LOAN_TOOLS });
    await ingest.ingest.batch({ events: run("m-1", ["invalid", "error", "invalid", "ok"]) });
    const owner = await p.asOwner();
    const input = { project: p.project.slug, range: preset().api };
    await owner.metrics.spirals(input);
    await owner.tools.projectConfusable(input);
    await owner.tools.patterns({ ...input, tool: "getloan" });
    expect(await stored(p.project.id)).toHaveLength(3);
    const totals = vi.spyOn(analytics, "totals");
    try {
      const marksOfProject = () => totals.mock.calls.filter(([projectId]) => projectId === p.project.id).length;
      const computedAt = async () => (await stored(p.project.id)).map((r) => r.computedAt.getTime());
      // just computed: they stand at the next run whatever arrives, so no mark is read
      const before = await computedAt();
      await refreshDerivedAnswers(new Date(), 60_000);
      expect(marksOfProject()).toBe(0);
      // past the grace, nothing new: one mark for the three answers, and none computed again
      await age(p.project.id, 150);
      const aged = await computedAt();
      expect(aged).not.toEqual(before);
      await refreshDerivedAnswers(new Date(), 60_000);
      expect(marksOfProject()).toBe(1);
      expect(await computedAt()).toEqual(aged);
    } finally {
      totals.mockRestore();
    }
  });

  it("go when a new tool version is registered", async () => {
    const p = await makeProject();
    const ingest = withKey((await p.key()).key);
    await ingest.tools.register({ tools: LOAN_TOOLS });
    await ingest.ingest.batch({ events: run("t-1", ["invalid", "error", "invalid", "ok"]) });
    const owner = await p.asOwner();
    const doctor = () => owner.tools.patterns({ project: p.project.slug, tool: "getloan", range: preset().api });
    await doctor();
    expect((await doctor()).asOf).not.toBeNull();
    // the same definitions again: nothing new, the answer stays
    await ingest.tools.register({ tools: LOAN_TOOLS });
    expect(await stored(p.project.id)).toHaveLength(1);
    const renamed = LOAN_TOOLS.map((t) => ({ ...t, parameters: { ...t.parameters, description: "v2" } }));
    await ingest.tools.register({ tools: renamed });
    expect(await stored(p.project.id)).toHaveLength(0);
    expect((await doctor()).asOf).toBeNull();
  });

  it("go with the project, and when the retention sweep deletes its calls", async () => {
    const p = await makeProject();
    const ingest = withKey((await p.key()).key);
    await ingest.tools.register({ tools: LOAN_TOOLS });
    await ingest.ingest.batch({ events: run("r-1", ["invalid", "error", "invalid", "ok"]) });
    await (await p.asOwner()).metrics.spirals({ project: p.project.slug, range: preset().api });
    expect(await stored(p.project.id)).toHaveLength(1);
    // ten days later with one day of retention: the calls go, and the answers with them
    await prisma().project.update({ where: { id: p.project.id }, data: { callRetentionDays: 1 } });
    expect((await sweepProject(p.project.id, new Date(Date.now() + 10 * 86_400_000))).calls).toBeGreaterThan(0);
    expect(await stored(p.project.id)).toHaveLength(0);
    await (await p.asOwner()).metrics.spirals({ project: p.project.slug, range: preset().api });
    await prisma().project.delete({ where: { id: p.project.id } });
    expect(await stored(p.project.id)).toHaveLength(0);
  });
});
