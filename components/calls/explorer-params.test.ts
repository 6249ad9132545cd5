import { describe, expect, it } from "vitest";
import {
  activeFilters,
  csvQuery,
  EXPLORER_PARAMS,
  explorerUrl,
  listQuery,
  needsCleaning,
  readExplorerParams,
  type ExplorerParam,
  type RawParams,
} from "./explorer-params";

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
    expect(listQuery("?range=30d&tool=getloan&valid=invalid&cursor=abc")).toEqual({ range: "30d", tool: "getloan", valid: "invalid", cursor: "abc" });
    expect(listQuery("tool=getloan&next=https%3A%2F%2Fevil.example&tool=other")).toEqual({ tool: "getloan" });
    expect(listQuery(undefined)).toEqual({});
    expect(listQuery("")).toEqual({});
  });
});

describe("explorerUrl", () => {
  /** A value of each parameter that the explorer takes as it is; a parameter added to EXPLORER_PARAMS does not typecheck here until it has one. */
  const SAMPLE: Record<ExplorerParam, string> = {
    range: "30d",
    from: "2026-11-01T00:00:00Z",
    to: "2026-11-02T00:00:00Z",
    tool: "get loan/v2",
    model: "acme-large",
    modelVersion: "2026-11",
    runId: "run 1/2?&#",
    q: "Error 422: amount & term",
    valid: "unchecked",
    category: "wrong_type",
    outcome: "failed",
    disagree: "1",
    order: "oldest",
    cursor: "abc",
  };
  /** The link as the explorer page gets it: its path checked, its query as Next.js passes searchParams. */
  const readBack = (href: string) => {
    const url = new URL(href, "http://toolgate.test");
    expect(url.pathname).toBe("/p/acme/calls");
    const raw: RawParams = {};
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key);
      raw[key] = values.length === 1 ? values[0] : values;
    }
    return readExplorerParams(raw, now);
  };

  it.each(EXPLORER_PARAMS)("writes %s as the explorer reads it back", (param) => {
    const query = param === "from" || param === "to" ? { from: SAMPLE.from, to: SAMPLE.to } : { [param]: SAMPLE[param] };
    const view = readBack(explorerUrl("acme", query));
    expect(view.problems).toEqual([]);
    expect(view.params).toEqual(query);
  });

  it("writes a link with every parameter that reads back to the same filter and the same link", () => {
    const { range, ...custom } = SAMPLE; // a preset wins over from/to: one link with each
    for (const query of [custom, { range, ...custom, from: undefined, to: undefined }]) {
      const href = explorerUrl("acme", query);
      const view = readBack(href);
      expect(view.problems, href).toEqual([]);
      expect(explorerUrl("acme", view.params)).toBe(href);
      expect(view.filter).toMatchObject({
        tool: SAMPLE.tool,
        model: SAMPLE.model,
        modelVersion: SAMPLE.modelVersion,
        runId: SAMPLE.runId,
        q: SAMPLE.q,
        valid: SAMPLE.valid,
        category: SAMPLE.category,
        outcome: SAMPLE.outcome,
        disagree: true,
      });
      expect([view.order, view.cursor]).toEqual([SAMPLE.order, SAMPLE.cursor]);
    }
    expect(readBack(explorerUrl("acme", custom)).range.key).toBe("custom");
  });

  it("leaves out empty and undefined values and keeps the order given", () => {
    expect(explorerUrl("acme")).toBe("/p/acme/calls");
    expect(explorerUrl("acme", { tool: "", model: undefined })).toBe("/p/acme/calls");
    expect(explorerUrl("acme", { valid: "invalid", range: "all", tool: "getloan" })).toBe("/p/acme/calls?valid=invalid&range=all&tool=getloan");
    // @ts-expect-error a misspelt parameter (the explorer reads modelVersion) does not typecheck
    expect(explorerUrl("acme", { modelversion: "2026-11" })).toBe("/p/acme/calls?modelversion=2026-11");
  });
});
