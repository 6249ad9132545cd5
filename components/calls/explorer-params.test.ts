import { describe, expect, it } from "vitest";
import { activeFilters, csvQuery, listQuery, needsCleaning, readExplorerParams } from "./explorer-params";

const now = new Date("2026-11-30T10:20:00Z");

describe("readExplorerParams", () => {
  it("defaults to the last 7 days and no other filter", () => {
    const view = readExplorerParams({}, now);
    expect(view.params).toEqual({});
    expect(view.filter).toEqual({ from: "2026-11-23T11:00:00.000Z", to: "2026-11-30T11:00:00.000Z" });
    expect(view.range.key).toBe("7d");
    expect(view.problems).toEqual([]);
  });

  it("reads every filter, and all time has no bounds", () => {
    const view = readExplorerParams(
      {
        range: "all",
        tool: "getloan",
        model: "acme-large",
        modelVersion: "2026-11",
        valid: "invalid",
        category: "wrong_type",
        runId: "run 1/2",
        q: "Error 422",
        disagree: "1",
        cursor: "abc",
      },
      now,
    );
    expect(view.filter).toEqual({
      tool: "getloan",
      model: "acme-large",
      modelVersion: "2026-11",
      valid: "invalid",
      category: "wrong_type",
      runId: "run 1/2",
      q: "Error 422",
      disagree: true,
    });
    expect(view.cursor).toBe("abc");
    expect(view.range).toEqual({ key: "all", label: "All time" });
  });

  it("lets a preset win over from/to, and takes from/to alone as a custom range", () => {
    expect(readExplorerParams({ range: "24h", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, now).params).toEqual({ range: "24h" });
    const custom = readExplorerParams({ range: "custom", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, now);
    expect(custom.params).toEqual({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" });
    expect(custom.filter).toEqual({ from: "2026-11-01T00:00:00.000Z", to: "2026-11-02T00:00:00.000Z" });
  });

  it("reads the list's order: newest first unless order=oldest", () => {
    expect(readExplorerParams({}, now).order).toBe("newest");
    const oldest = readExplorerParams({ order: "oldest", tool: "getloan" }, now);
    expect(oldest.order).toBe("oldest");
    expect(oldest.params).toEqual({ tool: "getloan", order: "oldest" });
    const typo = readExplorerParams({ order: "sideways" }, now);
    expect(typo.order).toBe("newest");
    expect(typo.problems).toEqual(["Ignored order=sideways: use order=oldest, or leave it out for the newest first."]);
    expect(needsCleaning({ order: "newest" }, readExplorerParams({ order: "newest" }, now).params)).toBe(true);
  });

  it("says what it ignored and how to fix it", () => {
    const view = readExplorerParams({ valid: "maybe", category: "typo", from: "yesterday" }, now);
    expect(view.filter.valid).toBeUndefined();
    expect(view.filter.category).toBeUndefined();
    expect(view.problems).toEqual([
      expect.stringContaining("Ignored from/to: give both as ISO 8601"),
      "Ignored valid=maybe: use valid=valid, valid=invalid or valid=unchecked.",
      expect.stringContaining("Ignored category=typo: not a failure category. Use one of malformed_arguments"),
    ]);
  });

  it("ignores a name filter longer than any event's name, with the API's own words, and keeps the rest", () => {
    const view = readExplorerParams({ tool: "t".repeat(201), model: "acme-large", q: "q".repeat(201) }, now);
    expect(view.filter).toMatchObject({ model: "acme-large" });
    expect(view.filter.tool).toBeUndefined();
    expect(view.filter.q).toBeUndefined();
    expect(view.problems).toEqual([
      "Ignored tool: tool is at most 200 characters (no event carries a longer one, so nothing could match); you sent 201.",
      "Ignored q: the search text is at most 200 characters; you sent 201: search for a shorter part of the message or arguments.",
    ]);
    expect(readExplorerParams({ tool: "t".repeat(200) }, now).filter.tool).toHaveLength(200);
  });
});

describe("needsCleaning", () => {
  it("is true for the empty fields of a submitted GET form, and false for a clean URL", () => {
    const raw = { range: "7d", tool: "", model: "", valid: "invalid", q: "" };
    const view = readExplorerParams(raw, now);
    expect(view.params).toEqual({ range: "7d", valid: "invalid" });
    expect(needsCleaning(raw, view.params)).toBe(true);
    expect(needsCleaning(view.params, view.params)).toBe(false);
    expect(needsCleaning({ ...view.params, utm: "x" }, view.params)).toBe(false);
    expect(needsCleaning({ tool: " getloan " }, readExplorerParams({ tool: " getloan " }, now).params)).toBe(true);
  });
});

describe("links", () => {
  it("gives the CSV route the same filter with an explicit range", () => {
    const view = readExplorerParams({ range: "24h", runId: "r1", disagree: "1" }, now);
    expect(csvQuery(view.filter)).toBe("?from=2026-11-29T11%3A00%3A00.000Z&to=2026-11-30T11%3A00%3A00.000Z&runId=r1&disagree=1");
  });
  it("offers each active filter for removal, dropping the page cursor", () => {
    const chips = activeFilters({ range: "7d", tool: "getloan", category: "wrong_type", cursor: "c" });
    expect(chips.map((c) => c.label)).toEqual(["tool: getloan", "category: Wrong type"]);
    expect(chips[0]!.without).toEqual({ range: "7d", category: "wrong_type" });
  });
  it("names the verdict filter as it filters: valid calls only, never the unchecked ones", () => {
    const label = (valid: string) => activeFilters({ valid }).map((c) => c.label);
    expect(["valid", "invalid", "unchecked"].map(label)).toEqual([["valid only"], ["invalid only"], ["unchecked only"]]);
  });
});

describe("listQuery", () => {
  it("keeps the explorer's own parameters of the list a call was opened from, and drops the rest", () => {
    expect(listQuery("?range=30d&tool=getloan&valid=invalid&cursor=abc")).toBe("?range=30d&tool=getloan&valid=invalid&cursor=abc");
    expect(listQuery("tool=getloan&next=https%3A%2F%2Fevil.example&tool=other")).toBe("?tool=getloan");
    expect(listQuery(undefined)).toBe("");
    expect(listQuery("")).toBe("");
  });
});
