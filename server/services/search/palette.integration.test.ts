import { describe, expect, it } from "vitest";
import { codeOf, makeProject, withKey } from "../../../test/fixtures";
import { makeEvent } from "../../../test/events";

// The command palette's id lookup on a real PostgreSQL: exact ids first, prefixes, runs once each
// however many calls they have, nothing of another project, and a clear refusal of an empty id.

describe("palette.lookup and palette.index", () => {
  it("finds calls and runs by their id or its start, within the project only", async () => {
    const a = await makeProject();
    const b = await makeProject();
    const timestamp = new Date(Date.now() - 60_000).toISOString(); // within the index's 30 days
    const events = [
      makeEvent({ timestamp, id: "pal-7f3a", runId: "run-pal-1", step: 0 }),
      makeEvent({ timestamp, id: "pal-7f3a-retry", runId: "run-pal-1", step: 1 }),
      makeEvent({ timestamp, id: "pal-7f3b", runId: "run-pal-2", tool: "listopenloans" }),
      makeEvent({ timestamp, id: "pal-zz", runId: "run-pal-10" }),
    ];
    expect((await withKey((await a.key()).key).ingest.batch({ events })).accepted).toBe(4);
    await withKey((await b.key()).key).ingest.batch({ events: [makeEvent({ timestamp, id: "pal-7f3a-of-b", runId: "run-pal-b" })] });
    const viewer = await a.member("viewer");
    const lookup = (text: string) => viewer.palette.lookup({ project: a.project.slug, text });

    const exact = await lookup("pal-7f3a");
    expect(exact.calls.map((c) => c.id)).toEqual(["pal-7f3a", "pal-7f3a-retry"]); // the exact id first, never b's
    expect(exact.calls[0]).toMatchObject({ runId: "run-pal-1", tool: "getloan" });
    expect((await lookup("pal-7f")).calls.map((c) => c.id)).toEqual(["pal-7f3a", "pal-7f3a-retry", "pal-7f3b"]);

    const runs = await lookup("run-pal-1");
    expect(runs.runs.map((r) => [r.runId, r.calls])).toEqual([
      ["run-pal-1", 2],
      ["run-pal-10", 1],
    ]);
    expect((await lookup("run-pal")).runs.map((r) => r.runId)).toEqual(["run-pal-1", "run-pal-10", "run-pal-2"]);

    const none = await lookup("pal-7f3a-of-b");
    expect(none).toEqual({ calls: [], runs: [], incidents: [] });
    expect(await codeOf(lookup("   "))).toBe("BAD_REQUEST");
    expect(await codeOf(lookup("demo-\u0000"))).toBe("BAD_REQUEST"); // PostgreSQL cannot compare text with a NUL: a 500 before
    expect(await codeOf(b.asOwner().then((other) => other.palette.lookup({ project: a.project.slug, text: "pal" })))).toBe("FORBIDDEN");

    const index = await viewer.palette.index({ project: a.project.slug });
    expect(index.tools.map((t) => t.name).sort()).toEqual(["getloan", "listopenloans"]);
    expect(index.modelVersions).toEqual([{ model: "acme-large", version: "2026-10", calls: 4 }]);
  });
});
