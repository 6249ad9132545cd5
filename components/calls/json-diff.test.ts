import { describe, expect, it } from "vitest";
import { changedCount, diffArguments } from "./json-diff";
import { existingPrefix, formatPath, joinPath, parsedArguments, parsePath } from "../../contracts/json-path";

describe("diffArguments", () => {
  it("marks a changed value and keeps the unchanged ones as context", () => {
    expect(diffArguments({ loannumber: "447", includehistory: true }, { loannumber: "4471", includehistory: true })).toEqual([
      { op: "changed", path: "loannumber", before: "447", after: "4471" },
      { op: "same", path: "includehistory", before: true, after: true },
    ]);
  });

  it("lists removed keys in the order of the failed call, then added ones", () => {
    expect(diffArguments({ loannumber: "4471", customername: "Ada" }, { loannumber: "4471", includehistory: false })).toEqual([
      { op: "same", path: "loannumber", before: "4471", after: "4471" },
      { op: "removed", path: "customername", before: "Ada" },
      { op: "added", path: "includehistory", after: false },
    ]);
  });

  it("walks nested objects and arrays with the validator's path notation", () => {
    const before = { customerid: "C104233", slot: { date: "2026-12-01", time: "2pm" }, include: ["loans", "history"] };
    const after = { customerid: "C104233", slot: { date: "2026-12-01", time: "14:00" }, include: ["loans"] };
    expect(diffArguments(before, after)).toEqual([
      { op: "same", path: "customerid", before: "C104233", after: "C104233" },
      { op: "same", path: "slot.date", before: "2026-12-01", after: "2026-12-01" },
      { op: "changed", path: "slot.time", before: "2pm", after: "14:00" },
      { op: "same", path: "include[0]", before: "loans", after: "loans" },
      { op: "removed", path: "include[1]", before: "history" },
    ]);
  });

  it("expands an added or removed subtree into its leaves", () => {
    expect(diffArguments({ a: 1 }, { a: 1, slot: { date: "d", tags: ["x"] } })).toEqual([
      { op: "same", path: "a", before: 1, after: 1 },
      { op: "added", path: "slot.date", after: "d" },
      { op: "added", path: "slot.tags[0]", after: "x" },
    ]);
    expect(diffArguments({ slot: { date: "d" } }, {})).toEqual([{ op: "removed", path: "slot.date", before: "d" }]);
  });

  it("treats a change of JSON type as one changed value", () => {
    expect(
      diffArguments({ loannumber: 4471, tags: "fees", slot: "2026-12-01 14:00" }, { loannumber: "4471", tags: ["fees"], slot: { date: "2026-12-01" } }),
    ).toEqual([
      { op: "changed", path: "loannumber", before: 4471, after: "4471" },
      { op: "changed", path: "tags", before: "fees", after: ["fees"] },
      { op: "changed", path: "slot", before: "2026-12-01 14:00", after: { date: "2026-12-01" } },
    ]);
  });

  it("keeps empty objects and arrays as values of their own", () => {
    expect(diffArguments({ include: [], filters: {} }, { include: [], filters: { status: "open" } })).toEqual([
      { op: "same", path: "include", before: [], after: [] },
      { op: "added", path: "filters.status", after: "open" },
    ]);
    expect(diffArguments({}, {})).toEqual([{ op: "same", path: "", before: {}, after: {} }]);
  });

  it("quotes keys that are not plain names", () => {
    expect(diffArguments({ "first name": "Ada", "2": 1 }, { "first name": "Ada Lovelace", "2": 1 })).toEqual([
      { op: "same", path: '["2"]', before: 1, after: 1 },
      { op: "changed", path: '["first name"]', before: "Ada", after: "Ada Lovelace" },
    ]);
  });

  it("compares malformed (raw text) arguments as one value against the corrected object", () => {
    const raw = '{"loannumber": "4471"';
    expect(diffArguments(raw, { loannumber: "4471" })).toEqual([{ op: "changed", path: "", before: raw, after: { loannumber: "4471" } }]);
    expect(diffArguments(raw, raw)).toEqual([{ op: "same", path: "", before: raw, after: raw }]);
    expect(diffArguments({ a: 1 }, "{a: 1}")).toEqual([{ op: "changed", path: "", before: { a: 1 }, after: "{a: 1}" }]);
  });

  it("parses raw strings that hold valid JSON before comparing", () => {
    expect(diffArguments('{"status": "pending"}', { status: "open" })).toEqual([{ op: "changed", path: "status", before: "pending", after: "open" }]);
  });

  it("ignores key order, and counts what changed", () => {
    const lines = diffArguments({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 });
    expect(lines.map((l) => l.op)).toEqual(["same", "same", "same"]);
    expect(changedCount(lines)).toBe(0);
    expect(changedCount(diffArguments({ a: 1 }, { a: 2, b: 3 }))).toBe(2);
  });

  it("compares top-level primitives and arrays at the root path", () => {
    expect(diffArguments(null, { a: 1 })).toEqual([{ op: "changed", path: "", before: null, after: { a: 1 } }]);
    expect(diffArguments([1, 2], [1, 3])).toEqual([
      { op: "same", path: "[0]", before: 1, after: 1 },
      { op: "changed", path: "[1]", before: 2, after: 3 },
    ]);
  });
});

describe("json paths", () => {
  it("round-trips the validator's notation", () => {
    for (const path of ["", "loannumber", "filters.status", "items[2].qty", 'slot["time zone"]', '["2"].x', "a-b.c_d[0][1]"]) {
      const segments = parsePath(path);
      expect(segments, path).not.toBeNull();
      expect(formatPath(segments!)).toBe(path);
    }
    expect(parsePath("items[2].qty")).toEqual(["items", 2, "qty"]);
    expect(parsePath('["2"]')).toEqual(["2"]);
    expect(joinPath("", 0)).toBe("[0]");
  });

  it("refuses text that is not a path", () => {
    for (const path of [".a", "a..b", "a[x]", "a[", "1abc"]) expect(parsePath(path), path).toBeNull();
  });

  it("finds where a missing argument belongs", () => {
    const args = { customerid: "C1", slot: { date: "d" }, tags: ["a"] };
    expect(existingPrefix(args, ["slot", "time"])).toEqual(["slot"]);
    expect(existingPrefix(args, ["tags", 0])).toEqual(["tags", 0]);
    expect(existingPrefix(args, ["tags", 3])).toEqual(["tags"]);
    expect(existingPrefix(args, ["nothing"])).toEqual([]);
  });

  it("parses arguments sent as JSON text and keeps other text raw", () => {
    expect(parsedArguments('{"a": 1}')).toEqual({ kind: "json", value: { a: 1 } });
    expect(parsedArguments("{a: 1}")).toEqual({ kind: "raw", text: "{a: 1}" });
    expect(parsedArguments({ a: 1 })).toEqual({ kind: "json", value: { a: 1 } });
  });
});
