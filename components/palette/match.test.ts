import { describe, expect, it } from "vitest";
import { entryScore, matchScore, mayBeId, rankEntries, type Entry } from "./match";

const tool = (label: string, keywords?: string[]): Entry => ({ key: `tool:${label}`, kind: "tool", label, keywords });
const labels = (entries: Entry[]) => entries.map((e) => e.label);

describe("matchScore", () => {
  it("ranks the kinds of match: whole name > start > word start > inside > letters in order > misspelt", () => {
    const scores = [
      matchScore("getloan", "getloan"),
      matchScore("get", "getloan"),
      matchScore("loan", "get_loan_status"),
      matchScore("oan", "getloan"),
      matchScore("gln", "getloan"),
      matchScore("getlaon", "getloan"),
    ];
    expect(scores.every((s) => s !== null)).toBe(true);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!, `match ${i} below match ${i - 1}`).toBeLessThan(scores[i - 1]!);
  });

  it("sets case and separators aside", () => {
    for (const typed of ["GetLoan", "get_loan", "get-loan", "get loan"]) expect(matchScore(typed, "getloan"), typed).toBe(matchScore("getloan", "getloan"));
    expect(matchScore("loan", "getLoan")).toBe(matchScore("loan", "get_loan")); // camelCase words start too
  });

  it("does not match what is not there, nor a short misspelling", () => {
    expect(matchScore("xyz", "getloan")).toBeNull();
    expect(matchScore("lgo", "getloan")).toBeNull(); // letters out of order
    expect(matchScore("gtx", "getloan")).toBeNull(); // too short to be a misspelling
  });

  it("prefers the shorter name among equal matches, and the tighter fuzzy match", () => {
    expect(matchScore("get", "getloan")!).toBeGreaterThan(matchScore("get", "getloanstatus")!);
    expect(matchScore("gl", "getloan")!).toBeLessThan(matchScore("gl", "glance")!);
    expect(matchScore("gn", "gan")!).toBeGreaterThan(matchScore("gn", "gxxxxn")!);
  });

  it("an empty query matches everything alike", () => {
    expect(matchScore("  ", "anything")).toBe(0);
  });
});

describe("rankEntries", () => {
  const entries = [tool("searchloans"), tool("getloan"), tool("get_customer"), tool("loan_history"), tool("acme-large 2026-11", ["acme-large", "2026-11"])];

  it("puts the best match first whatever the order given", () => {
    expect(labels(rankEntries("loan", entries))).toEqual(["loan_history", "getloan", "searchloans"]);
    expect(labels(rankEntries("getlaon", entries))).toEqual(["getloan"]);
    expect(labels(rankEntries("gc", entries))).toEqual(["get_customer"]);
  });

  it("matches keywords a little below the same match on a label", () => {
    expect(labels(rankEntries("2026", entries))).toEqual(["acme-large 2026-11"]);
    const onLabel = entryScore("acme", { key: "a", kind: "page", label: "acme" })!;
    const onKeyword = entryScore("acme", { key: "b", kind: "page", label: "other", keywords: ["acme"] })!;
    expect(onKeyword).toBeLessThan(onLabel);
    expect(onKeyword).toBeGreaterThan(matchScore("acme", "acmeX")!); // but above a mere start of a label
  });

  it("keeps the given order among equals and with an empty query, up to the limit", () => {
    const same = [tool("b"), tool("a")];
    expect(labels(rankEntries("", same))).toEqual(["b", "a"]);
    expect(labels(rankEntries("", entries, 2))).toEqual(["searchloans", "getloan"]);
    expect(labels(rankEntries("l", [tool("al"), tool("bl")]))).toEqual(["al", "bl"]);
  });
});

describe("mayBeId", () => {
  it("asks the server about one word of 3 to 256 characters", () => {
    expect(mayBeId("call-1")).toBe(true);
    expect(mayBeId(" 7f3a ")).toBe(true);
    expect(mayBeId("ab")).toBe(false);
    expect(mayBeId("two words")).toBe(false);
    expect(mayBeId("x".repeat(257))).toBe(false);
  });
});
