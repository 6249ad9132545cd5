import { describe, expect, it } from "vitest";
import type { Entry } from "./match";
import { grouped, idEntries, indexEntries, mergeEntries, noIdMessage, recentEntries, sayNoId } from "./entries";

describe("the palette's entries", () => {
  const index = {
    tools: [{ name: "getloan", calls: 3 }],
    modelVersions: [{ model: "acme-large", version: "2026-11", calls: 1 }],
    incidents: [
      {
        id: "9d1f0b6e-0000-4000-8000-000000000001",
        rule: "Invalid rate over 5%",
        state: "firing",
        firedAt: "2026-12-01T10:00:00Z",
        scope: { tool: "getloan" },
      },
    ],
    rules: [{ id: "r1", name: "Invalid rate over 5%", enabled: true }],
  };
  const known = indexEntries("demo", index, "UTC");

  it("links each kind to its page", () => {
    const href = (key: string) => known.find((e) => e.key === key)?.href;
    expect(href("page:/tools")).toBe("/p/demo/tools");
    expect(href("tool:getloan")).toBe("/p/demo/tools/getloan");
    expect(href("model:acme-large@2026-11")).toBe("/p/demo/calls?model=acme-large&modelVersion=2026-11");
    expect(href("incident:9d1f0b6e-0000-4000-8000-000000000001")).toBe("/p/demo/alerts/9d1f0b6e-0000-4000-8000-000000000001");
    expect(href("rule:r1")).toBe("/p/demo/alerts/rules/r1");
    expect(known.find((e) => e.key === "action:shortcuts")?.action).toBe("shortcuts");
  });

  it("lists the calls and runs found by id first, then the other matches, without repeats", () => {
    const found = idEntries(
      "demo",
      {
        calls: [{ id: "c 1", runId: "r1", tool: "getloan", timestamp: "2026-12-01T10:00:00Z", valid: null }],
        runs: [{ runId: "r1", calls: 2, last: "2026-12-01T10:00:00Z" }],
        incidents: [],
      },
      "UTC",
    );
    expect(found.map((e) => e.href)).toEqual(["/p/demo/calls/c%201", "/p/demo/runs/r1"]);
    const [call, run] = found as [Entry, Entry];
    expect(call.detail).toContain("unchecked");
    const merged = mergeEntries(found, [run, known[0]!]);
    expect(merged.map((e) => e.key)).toEqual(["call:c 1", "run:r1", "page:"]);
    expect(grouped(merged).map((g) => g.heading)).toEqual(["Calls", "Runs", "Pages"]);
    expect([sayNoId("zz-no-such", 0), sayNoId("call-9", 3), sayNoId("listopen", 3)]).toEqual([true, true, false]);
    expect(noIdMessage(" zz9 ")).toBe('No call, run or incident with an id that is or starts with "zz9" in this project.');
  });

  it("groups in the order of each kind's best entry, a few of each when browsing", () => {
    const help = known.find((e) => e.kind === "action")!;
    const groups = grouped([help, ...known], 2);
    expect(groups.map((g) => g.heading)).toEqual(["Help", "Pages", "Tools", "Model versions", "Incidents", "Alert rules"]);
    expect(groups.every((g) => g.entries.length <= 2)).toBe(true);
  });

  it("names a recent incident by its rule from the index", () => {
    const recent = recentEntries(
      [
        { kind: "incident", label: "Incident", href: "/p/demo/alerts/9d1f0b6e-0000-4000-8000-000000000001" },
        { kind: "call", label: "Call c9", href: "/p/demo/calls/c9" },
      ],
      known,
    );
    expect(recent.map((r) => [r.label, r.key])).toEqual([
      ["Invalid rate over 5%", "recent:/p/demo/alerts/9d1f0b6e-0000-4000-8000-000000000001"],
      ["Call c9", "recent:/p/demo/calls/c9"],
    ]);
  });
});
