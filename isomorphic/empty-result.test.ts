import { describe, expect, it } from "vitest";
import { EMPTY_RESULT_CASES } from "./empty-result-cases";
import { isEmptyResult } from "./outcome";

describe("empty results (isEmptyResult)", () => {
  it.each(EMPTY_RESULT_CASES)("ok with summary %j is empty: %s (%s)", (summary, empty) => {
    expect(isEmptyResult({ status: "ok", summary })).toBe(empty);
  });

  it("judges only ok results that reported a summary", () => {
    expect(isEmptyResult({ status: "ok" })).toBe(false); // content not reported: not judged
    expect(isEmptyResult({ status: "ok", summary: null })).toBe(false);
    expect(isEmptyResult({ status: "error", summary: "" })).toBe(false); // a failure, counted by its kind
    expect(isEmptyResult({ status: "not_found", summary: "[]" })).toBe(false);
    expect(isEmptyResult({ status: null, summary: "" })).toBe(false);
  });
});
