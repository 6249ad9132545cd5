import { describe, expect, it } from "vitest";
import { likelyTool, rankToolNames } from "./tool-names";

describe("a known name inside template debris", () => {
  it("is found as a whole word, the longest first, at any of its occurrences", () => {
    expect(likelyTool("lsof<|call|>", ["ls", "lsof"])).toBe("lsof");
    // the first "ls" is part of "lsx"; the second stands alone
    expect(likelyTool("lsx ls<|end|>", ["ls"])).toBe("ls");
    expect(rankToolNames("lsx ls<|end|>", ["zz", "ls"])[0]).toBe("ls");
    // a letter, digit, _ or - next to it makes it another word
    for (const sent of ["_ls<|end|>", "ls-x<|end|>", "1ls<|end|>", "lsé<|end|>"]) expect(likelyTool(sent, ["ls", "unrelated"])).toBeUndefined();
    // one-letter names are no guess, nor a name as long as what was sent
    expect(likelyTool("q<|end|>", ["q", "unrelated"])).toBeUndefined();
  });
});

describe("the nearest name", () => {
  it("ranks by distance with case and separators aside, ties by name", () => {
    expect(rankToolNames("Get-Loan", ["getloans", "get_loan", "zeta", "beta"])).toEqual(["get_loan", "getloans", "beta", "zeta"]);
    expect(rankToolNames("x", ["b", "a"])).toEqual(["a", "b"]);
  });

  it("takes up to a third of the name's length in edits (at least two), the first by name among equals", () => {
    // "cancelorder" (11): three edits are still a typo, four are not
    expect(likelyTool("cancelxxxer", ["cancel_order"])).toBe("cancel_order");
    expect(likelyTool("cancxxxxder", ["cancel_order"])).toBeUndefined();
    // short names: two edits
    expect(likelyTool("abcd", ["abxy"])).toBe("abxy");
    expect(likelyTool("abcd", ["axyz"])).toBeUndefined();
    expect(likelyTool("tolx", ["toly", "tolz"])).toBe("toly");
    expect(likelyTool("tolx", ["tolz", "toly"])).toBe("toly");
    // never as many edits as the shorter name has letters
    expect(likelyTool("ab", ["xy"])).toBeUndefined();
    expect(likelyTool("abc", ["x"])).toBeUndefined();
    expect(likelyTool("anything", [])).toBeUndefined();
  });
});

describe("tool names: what the mutation run left", () => {
  it("the first of two names of equal length inside the debris wins; a shorter one found later does not replace a longer one, a longer one does", () => {
    expect(likelyTool("ab cd<|x|>", ["ab", "cd"])).toBe("ab");
    expect(likelyTool("lsof ls<|x|>", ["lsof", "ls"])).toBe("lsof");
    // and a longer one found later does
    expect(likelyTool("ls lsof<|x|>", ["ls", "lsof"])).toBe("lsof");
  });

  it("a name inside the debris ranks before one that matches it with separators aside", () => {
    expect(rankToolNames("ls x", ["lsx", "ls"])).toEqual(["ls", "lsx"]);
  });

  it("as many edits as the shorter name has letters is no typo, whichever name is shorter", () => {
    expect(likelyTool("ab", ["abcd"])).toBeUndefined();
  });
});
