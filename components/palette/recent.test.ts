import { describe, expect, it } from "vitest";
import { addRecent, describePath, parseRecent, RECENT_MAX } from "./recent";

describe("describePath", () => {
  it("names the project's pages, tools, calls, runs, incidents and rules", () => {
    expect(describePath("demo", "/p/demo")).toEqual({ kind: "page", label: "Overview", href: "/p/demo" });
    expect(describePath("demo", "/p/demo/settings/keys")).toEqual({ kind: "page", label: "API keys", href: "/p/demo/settings/keys" });
    expect(describePath("demo", "/p/demo/tools/get%20loan")).toMatchObject({ kind: "tool", label: "get loan" });
    expect(describePath("demo", "/p/demo/calls/c%2F1")).toMatchObject({ kind: "call", label: "Call c/1" });
    expect(describePath("demo", "/p/demo/runs/r-9")).toMatchObject({ kind: "run", label: "Run r-9" });
    expect(describePath("demo", "/p/demo/alerts/5b0c")).toMatchObject({ kind: "incident" });
    expect(describePath("demo", "/p/demo/alerts/rules/5b0c")).toMatchObject({ kind: "rule" });
  });
  it("leaves out other projects and unknown paths, and keeps a badly encoded id as it is", () => {
    expect(describePath("demo", "/p/demo-2/tools")).toBeNull();
    expect(describePath("demo", "/p/demo/nowhere")).toBeNull();
    expect(describePath("demo", "/p/demo/calls/%E0%A4%A")).toMatchObject({ label: "Call %E0%A4%A" });
  });
});

describe("addRecent and parseRecent", () => {
  it("puts the visit first, once, and keeps the newest few", () => {
    let list = parseRecent(null);
    for (let i = 0; i < RECENT_MAX + 2; i++) list = addRecent(list, { kind: "run", label: `Run ${i}`, href: `/p/x/runs/${i}` });
    list = addRecent(list, { kind: "run", label: "Run 3", href: "/p/x/runs/3" });
    expect(list.map((r) => r.label)).toEqual(["Run 3", "Run 7", "Run 6", "Run 5", "Run 4", "Run 2"]);
  });
  it("ignores what is not a list of visits", () => {
    expect(parseRecent("not json")).toEqual([]);
    expect(parseRecent('{"a":1}')).toEqual([]);
    expect(parseRecent('[{"label":"x"},{"kind":"page","label":"Tools","href":"/p/x/tools"}]')).toEqual([{ kind: "page", label: "Tools", href: "/p/x/tools" }]);
  });
});
