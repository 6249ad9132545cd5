import { describe, expect, it } from "vitest";
import { distinctivePart, flagsFor, isOpaque, overallRecovery } from "./error-messages";

describe("distinctivePart", () => {
  it("takes the longest literal stretch of the template that the example contains", () => {
    expect(distinctivePart("Error: '<value>' must be <n> to <n> characters, you sent <n>.", "Error: 'loannumber' must be 4 to 8 characters, you sent 3.")).toBe(
      "characters, you sent",
    );
    expect(
      distinctivePart(
        "Error: '<value>' is required by <value> and was not sent. Add '<value>'.",
        "Error: 'from' is required by searchpayments and was not sent. Add 'from'.",
      ),
    ).toBe("and was not sent. Add");
  });
  it("falls back to the example when the template has nothing distinctive", () => {
    expect(distinctivePart("Error <n>", "Error 422")).toBe("Error 422");
    expect(distinctivePart("Bad request", "Bad request")).toBe("Bad request");
  });
  it("has nothing to search for calls without a message, and keeps to the search box's limit", () => {
    expect(distinctivePart("(no message)", "(no message)")).toBeNull();
    expect(distinctivePart("x", "y".repeat(300))).toHaveLength(200);
  });
});

describe("isOpaque", () => {
  it("flags codes and bare words, not messages that name the problem", () => {
    for (const t of ["Error <n>", "Bad request", "invalid", "HTTP <n> Unprocessable Entity", "ERR_<n>", "Missing required field"])
      expect(isOpaque(t), t).toBe(true);
    for (const t of [
      "Error: '<value>' must be <n> to <n> characters, you sent <n>.",
      "Error: refunds above <n> need approval from a person. Ask the customer to wait for a callback.",
      "Error: no tool named '<value>'.",
    ])
      expect(isOpaque(t), t).toBe(false);
  });
});

describe("flagsFor", () => {
  const row = (template: string, followed: number, recovered: number) => ({
    template,
    count: followed,
    followed,
    recovered,
    recoveryRate: followed ? recovered / followed : null,
    examples: [],
  });
  it("marks a recovery rate clearly below the overall one, given enough retries", () => {
    const rows = [row("Error <n>", 40, 18), row("Error: '<value>' must be one of <value>, you sent '<value>'.", 100, 82), row("rare", 3, 0)];
    const overall = overallRecovery(rows)!;
    expect(overall).toBeCloseTo(100 / 143);
    expect(flagsFor(rows[0]!, overall)).toEqual({ lowRecovery: true, opaque: true });
    expect(flagsFor(rows[1]!, overall)).toEqual({ lowRecovery: false, opaque: false });
    expect(flagsFor(rows[2]!, overall).lowRecovery).toBe(false); // 3 retries: too few to judge
  });
  it("does not blame the wording for a small sample's bad luck", () => {
    // 79% overall: 9 of 14 (64%) is within two standard errors; 24 of 44 (55%) is not
    expect(flagsFor(row("Error: '<value>' is required by <value>.", 14, 9), 0.79).lowRecovery).toBe(false);
    expect(flagsFor(row("Error <n>", 44, 24), 0.79).lowRecovery).toBe(true);
    expect(flagsFor(row("Error: '<value>' must be one of <value>.", 400, 300), 0.79).lowRecovery).toBe(false); // 75%: within the margin
    expect(flagsFor(row("Error: '<value>' must be one of <value>.", 100, 0), 1).lowRecovery).toBe(true);
    expect(overallRecovery([row("x", 0, 0)])).toBeNull();
  });
});
