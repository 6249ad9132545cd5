import { describe, expect, it } from "vitest";
import { confusablePairs, type Transition } from "./confusable-tools";
import { OVERLAP_CHANGE } from "../../isomorphic/definition-lint";

const tools = ["getloan", "getcustomer", "searchpayments", "getloans"];
const step = (runId: string, tool: string, args: string[], next: string, nextArgs: string[], failed = true): Transition => ({
  runId,
  id: `${runId}-0`,
  tool,
  failed,
  arguments: args,
  nextId: `${runId}-1`,
  next,
  nextArguments: nextArgs,
});
const none = { transitions: [] as Transition[], afterSuccess: [], counts: [], unknownNames: [] };

describe("confusablePairs", () => {
  it("finds a switch after a refused call to another tool with a shared argument name, with its runs and advice", () => {
    const transitions = ["r1", "r2", "r3"].map((r) => step(r, "getcustomer", ["customerid"], "getloan", ["customerid"]));
    const [pair, ...rest] = confusablePairs({ ...none, tools, transitions, counts: [{ tool: "getcustomer", failed: 10, succeeded: 90 }] });
    expect(rest).toEqual([]);
    expect(pair).toMatchObject({
      tools: ["getcustomer", "getloan"],
      switches: 3,
      score: 3,
      directions: [{ from: "getcustomer", to: "getloan", switches: 3, sharedArguments: ["customerid"], switchRate: 0.3, afterSuccessRate: 0 }],
    });
    expect(pair!.runs.map((r) => r.runId)).toEqual(["r1", "r2", "r3"]);
    expect(pair!.advice).toContain("After a refused or failed call to `getcustomer`, models switched to `getloan` with `customerid` (3 runs)");
  });

  it("leaves out switches without a shared argument name, under MIN_SWITCHES, to unregistered tools, and after successful calls", () => {
    expect(confusablePairs({ ...none, tools, transitions: ["a", "b"].map((r) => step(r, "getcustomer", ["customerid"], "getloan", ["loannumber"])) })).toEqual(
      [],
    );
    expect(confusablePairs({ ...none, tools, transitions: [step("a", "getcustomer", ["customerid"], "getloan", ["customerid"])] })).toEqual([]);
    expect(
      confusablePairs({ ...none, tools, transitions: ["a", "b"].map((r) => step(r, "getcustomer", ["customerid"], "findcustomer", ["customerid"])) }),
    ).toEqual([]);
    expect(
      confusablePairs({ ...none, tools, transitions: ["a", "b"].map((r) => step(r, "getcustomer", ["customerid"], "getloan", ["customerid"], false)) }),
    ).toEqual([]);
  });

  it("does not call a workflow a mix-up: B follows a successful A with the same argument about as often", () => {
    const transitions = ["a", "b", "c"].map((r) => step(r, "getloan", ["loannumber"], "searchpayments", ["loannumber"]));
    const counts = [{ tool: "getloan", failed: 10, succeeded: 100 }];
    expect(confusablePairs({ ...none, tools, transitions, counts, afterSuccess: [{ tool: "getloan", next: "searchpayments", calls: 40 }] })).toEqual([]);
    // 3 of 10 failures switched, 4 of 100 successes moved on: a mix-up
    expect(confusablePairs({ ...none, tools, transitions, counts, afterSuccess: [{ tool: "getloan", next: "searchpayments", calls: 4 }] })).toHaveLength(1);
  });

  it("pairs the two tools an unknown name is about as close to (the name matcher's likelyTool, then again without the first)", () => {
    const pairs = confusablePairs({
      ...none,
      tools,
      unknownNames: [
        { name: "get_loan", calls: 4 },
        { name: "getcustomers", calls: 9 },
        { name: "xyz", calls: 2 },
      ],
    });
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ tools: ["getloan", "getloans"], ambiguousNames: [{ name: "get_loan", calls: 4 }], score: 4, switches: 0 });
    expect(pairs[0]!.advice).toContain("`get_loan` is as close to `getloan` as to `getloans`");
  });

  describe("overlapping descriptions (the definition lint's description_duplicate)", () => {
    const descriptions = [
      { name: "getloan", description: "Returns the loan record with its balance, rate and due date for a loan number." },
      { name: "getloans", description: "Returns the loan records with its balance, rate and due date for a loan number." },
      { name: "getcustomer", description: "Looks up a customer by id: name, address, segment and the accounts they hold." },
      { name: "searchpayments", description: "Lists the payments made against a loan between two dates, newest first." },
    ];

    it("makes a pair of two registered tools whose descriptions nearly repeat each other, with the overlap, the shared words and the lint's change", () => {
      const [pair, ...rest] = confusablePairs({ ...none, tools, descriptions });
      expect(rest).toEqual([]);
      expect(pair).toMatchObject({ tools: ["getloan", "getloans"], switches: 0, score: 0, runs: [], ambiguousNames: [] });
      expect(pair!.descriptionOverlap!.score).toBeGreaterThanOrEqual(0.8);
      expect(pair!.descriptionOverlap!.sharedWords).toEqual(expect.arrayContaining(["balance", "rate", "due", "date"]));
      expect(pair!.descriptionOverlap!.sharedWords).not.toContain("record");
      expect(pair!.advice).toContain("The descriptions of `getloan` and `getloans` share");
      expect(pair!.advice).toContain(OVERLAP_CHANGE);
    });

    it("finds none between different descriptions, short ones, or a tool that is not registered", () => {
      expect(confusablePairs({ ...none, tools, descriptions: descriptions.filter((d) => d.name !== "getloans") })).toEqual([]);
      const short = [
        { name: "getloan", description: "Get a loan." },
        { name: "getloans", description: "Get a loan." },
      ];
      expect(confusablePairs({ ...none, tools, descriptions: short })).toEqual([]);
      expect(confusablePairs({ ...none, tools: ["getloan", "getcustomer"], descriptions })).toEqual([]);
    });

    it("merges with the runs' evidence of the same pair, and ranks a pair with runs before one with only overlapping descriptions", () => {
      const transitions = ["r1", "r2"].map((r) => step(r, "getcustomer", ["customerid"], "getloan", ["customerid"]));
      const pairs = confusablePairs({ ...none, tools, descriptions, transitions, unknownNames: [{ name: "get_loan", calls: 1 }] });
      expect(pairs.map((p) => p.tools)).toEqual([
        ["getcustomer", "getloan"],
        ["getloan", "getloans"],
      ]);
      expect(pairs[1]).toMatchObject({ score: 1, ambiguousNames: [{ name: "get_loan", calls: 1 }] });
      expect(pairs[1]!.descriptionOverlap).not.toBeNull();
      expect(pairs[1]!.advice).toMatch(/`get_loan` is as close .* The descriptions of `getloan` and `getloans` share/);
      expect(pairs[0]!.descriptionOverlap).toBeNull();
    });
  });
});
