import { describe, expect, it } from "vitest";
import { decodeParam, idCandidates } from "./route-id";

describe("idCandidates", () => {
  it("tries the id as given first, then percent-decoded", () => {
    expect(idCandidates("call%2F1%20%3F")).toEqual(["call%2F1%20%3F", "call/1 ?"]);
    // an id that holds "%25" literally is found as given before its decoded form
    expect(idCandidates("a%2525")).toEqual(["a%2525", "a%25"]);
  });
  it("tries an id once when decoding does not change it, or cannot", () => {
    expect(idCandidates("demo-1-step-2")).toEqual(["demo-1-step-2"]);
    expect(idCandidates("100%")).toEqual(["100%"]);
    expect(decodeParam("%E0%A4%A")).toBe("%E0%A4%A");
  });
});
