import { describe, expect, it } from "vitest";
import { recoveryRate, recoveryTitle, sumRecovery } from "./recovery";

describe("recovery", () => {
  it("is the share of the tried-again invalid calls whose next attempt was valid", () => {
    expect(recoveryRate({ followed: 8, recovered: 6 })).toBe(0.75);
    expect(recoveryRate({ followed: 5, recovered: 0 })).toBe(0);
  });

  it("is unknown (null), not 0 or 100 %, when nothing was tried again", () => {
    expect(recoveryRate({ followed: 0, recovered: 0 })).toBeNull();
    expect(recoveryTitle({ followed: 0, recovered: 0 })).toMatch(/nothing to measure/);
  });

  it("sums rows before dividing", () => {
    const total = sumRecovery([
      { followed: 1, recovered: 1 },
      { followed: 9, recovered: 0 },
    ]);
    expect(total).toEqual({ followed: 10, recovered: 1 });
    expect(recoveryRate(total)).toBe(0.1);
    expect(recoveryTitle(total)).toBe("1 of 10 next attempts were valid");
  });
});
