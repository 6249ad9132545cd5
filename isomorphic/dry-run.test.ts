import { describe, expect, it } from "vitest";
import { addCall, callsRead, DRY_RUN_EXAMPLES, emptyTally, mergeTallies, outcomeOf, summarizeDryRun } from "./dry-run";

const call = (id: string, before: boolean, after: boolean, category?: string, afterCategory = category) => ({
  id,
  before: { valid: before, category: before ? null : category },
  after: { valid: after, category: after ? null : afterCategory },
});

describe("dry-run tally", () => {
  it("sorts each call by its verdict before and after", () => {
    expect([outcomeOf(true, true), outcomeOf(true, false), outcomeOf(false, true), outcomeOf(false, false)]).toEqual([
      "still_valid",
      "broken",
      "fixed",
      "still_invalid",
    ]);
    const t = emptyTally();
    addCall(t, call("a", false, true, "wrong_type"));
    addCall(t, call("b", true, false, undefined, "out_of_range"));
    addCall(t, call("c", false, false, "wrong_type", "out_of_range"));
    addCall(t, call("d", true, true));
    expect(t).toMatchObject({ scanned: 4, fixed: 1, broken: 1, stillInvalid: 1, stillValid: 1, recategorised: 1, examples: { fixed: ["a"], broken: ["b"] } });
    expect(t.byCategory).toEqual([
      { category: "wrong_type", fixed: 1, broken: 0, stillInvalid: 0, examples: { fixed: ["a"], broken: [] } },
      { category: "out_of_range", fixed: 0, broken: 1, stillInvalid: 1, examples: { fixed: [], broken: ["b"] } },
    ]);
  });

  it("merges pages into the same tally as one pass, keeping the first examples", () => {
    const calls = Array.from({ length: 40 }, (_, i) => call(`c${i}`, i % 3 === 0, i % 2 === 0, i % 5 ? "wrong_type" : "missing_argument", "out_of_range"));
    const whole = calls.reduce(addCall, emptyTally());
    const pages = [calls.slice(0, 7), calls.slice(7, 30), calls.slice(30)].map((page) => page.reduce(addCall, emptyTally()));
    expect(pages.reduce(mergeTallies, emptyTally())).toEqual(whole);
    expect(whole.examples.fixed).toHaveLength(DRY_RUN_EXAMPLES);
    expect(pages[0]!.scanned).toBe(7); // merging does not change its inputs
  });

  it("says in one sentence whether the change breaks calls", () => {
    expect(summarizeDryRun(emptyTally())).toBe("No calls of this tool in the range: nothing to replay.");
    const t = [call("a", true, false, undefined, "out_of_range"), ...Array.from({ length: 1200 }, (_, i) => call(`v${i}`, true, true))].reduce(
      addCall,
      emptyTally(),
    );
    expect(summarizeDryRun(t)).toBe(
      "1,201 calls replayed, 0 invalid calls would become valid, 1 valid calls would be refused — this change breaks calls models already make.",
    );
  });

  it("counts skipped calls through merges and says so in the summary", () => {
    const page = (skipped: number) => ({ ...[call("a", true, true)].reduce(addCall, emptyTally()), skipped });
    const merged = mergeTallies(page(2), page(3));
    expect(merged).toMatchObject({ scanned: 2, skipped: 5 });
    expect(callsRead(merged)).toBe(7);
    expect(summarizeDryRun(merged)).toBe(
      "2 calls replayed, 0 invalid calls would become valid, 0 valid calls would be refused. 5 calls skipped: their arguments are over 256 KiB, too large to replay here.",
    );
    expect(summarizeDryRun({ ...emptyTally(), skipped: 4 })).toBe(
      "No call of this tool in the range could be replayed. 4 calls skipped: their arguments are over 256 KiB, too large to replay here.",
    );
  });
});

describe("dry run categories", () => {
  it("a call invalid before and after counts as recategorised only when its category changes, a missing category included", () => {
    const still = (before: string | null, after: string | null) =>
      addCall(emptyTally(), { id: "c", before: { valid: false, category: before }, after: { valid: false, category: after } });
    expect(still("wrong_type", "wrong_type").recategorised).toBe(0);
    expect(still("wrong_type", null).recategorised).toBe(1);
    expect(still(null, "wrong_type").recategorised).toBe(1);
    expect(still(null, null)).toMatchObject({ recategorised: 0, byCategory: [{ category: "", stillInvalid: 1 }] });
    const fixed = addCall(emptyTally(), { id: "f", before: { valid: false }, after: { valid: true } });
    expect(fixed.byCategory).toEqual([{ category: "", fixed: 1, broken: 0, stillInvalid: 0, examples: { fixed: ["f"], broken: [] } }]);
  });
});
