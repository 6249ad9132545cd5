import { describe, expect, it } from "vitest";
import { withCurrent } from "./options";

describe("a filter's options", () => {
  it("sorts the values, without blanks or repeats", () => {
    expect(withCurrent(["search", "get_loan", null, "", "search", undefined, "Apply"], undefined)).toEqual(["Apply", "get_loan", "search"]);
  });

  it("keeps the current value, first, when the list lacks it", () => {
    expect(withCurrent(["b", "a"], "zz")).toEqual(["zz", "a", "b"]);
    expect(withCurrent([], "get_loan")).toEqual(["get_loan"]);
  });

  it("does not repeat a current value the list has", () => {
    expect(withCurrent(["b", "a", "b"], "b")).toEqual(["a", "b"]);
    expect(withCurrent(["a"], "")).toEqual(["a"]);
  });
});
