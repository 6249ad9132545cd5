import { describe, expect, it } from "vitest";
import {
  answerUsable,
  keepsWithoutMark,
  MAX_ANSWER_AGE_MS,
  needsRefresh,
  REFRESH_LOOKAHEAD_MS,
  STALE_GRACE_MS,
  usableWhateverTheMark,
} from "./derived-freshness";

const from = new Date("2026-12-01T00:00:00Z");
const to = new Date("2026-12-08T00:00:00Z");
const computedAt = new Date("2026-12-07T23:00:00Z");
const stored = { rangeFrom: from, rangeTo: to, computedAt, through: "6195:700" };
const after = (ms: number) => new Date(computedAt.getTime() + ms);
const same = { from, to, through: "6195:700" };
const changed = { from, to, through: "6196:700" };

describe("answerUsable", () => {
  it("uses an answer of unchanged calls until MAX_ANSWER_AGE_MS", () => {
    expect(answerUsable(stored, same, after(0))).toBe(true);
    expect(answerUsable(stored, same, after(MAX_ANSWER_AGE_MS))).toBe(true);
    expect(answerUsable(stored, same, after(MAX_ANSWER_AGE_MS + 1))).toBe(false);
  });
  it("uses an answer behind new calls only within the grace", () => {
    expect(answerUsable(stored, changed, after(STALE_GRACE_MS))).toBe(true);
    expect(answerUsable(stored, changed, after(STALE_GRACE_MS + 1))).toBe(false);
  });
  it("never uses an answer of another range (a preset's range moves on each hour)", () => {
    expect(answerUsable(stored, { ...same, to: new Date(to.getTime() + 3_600_000) }, after(0))).toBe(false);
    expect(answerUsable(stored, { ...same, from: new Date(from.getTime() + 3_600_000) }, after(0))).toBe(false);
  });
  it("trusts an answer stamped later than now (another instance's clock) only with the same calls", () => {
    expect(answerUsable(stored, same, after(-5000))).toBe(true);
    expect(answerUsable(stored, changed, after(-5000))).toBe(false);
  });
});

describe("needsRefresh", () => {
  it("refreshes behind new calls once older than the grace less the worker's interval, and before the maximum age", () => {
    expect(needsRefresh(stored, changed, after(STALE_GRACE_MS - REFRESH_LOOKAHEAD_MS))).toBe(false);
    expect(needsRefresh(stored, changed, after(STALE_GRACE_MS - REFRESH_LOOKAHEAD_MS + 1))).toBe(true);
    expect(needsRefresh(stored, same, after(STALE_GRACE_MS))).toBe(false);
    expect(needsRefresh(stored, same, after(MAX_ANSWER_AGE_MS - REFRESH_LOOKAHEAD_MS + 1))).toBe(true);
  });
});

describe("keepsWithoutMark", () => {
  it("leaves exactly the answers that no mark could make needsRefresh", () => {
    for (const ms of [0, STALE_GRACE_MS - REFRESH_LOOKAHEAD_MS, STALE_GRACE_MS - REFRESH_LOOKAHEAD_MS + 1, STALE_GRACE_MS]) {
      const keeps = keepsWithoutMark(stored, { from, to }, after(ms));
      expect(keeps).toBe(!needsRefresh(stored, changed, after(ms)));
      if (keeps) expect(needsRefresh(stored, same, after(ms))).toBe(false);
    }
    expect(keepsWithoutMark(stored, { from, to: new Date(to.getTime() + 3_600_000) }, after(0))).toBe(false);
  });
});

describe("usableWhateverTheMark", () => {
  it("is answerUsable for an answer within the grace, whatever the mark, and false beyond it", () => {
    for (const ms of [0, STALE_GRACE_MS]) {
      expect(usableWhateverTheMark(stored, { from, to }, after(ms))).toBe(true);
      expect(answerUsable(stored, changed, after(ms))).toBe(true);
    }
    expect(usableWhateverTheMark(stored, { from, to }, after(STALE_GRACE_MS + 1))).toBe(false);
    expect(usableWhateverTheMark(stored, { from, to }, after(-1))).toBe(false);
    expect(usableWhateverTheMark(stored, { from, to: new Date(to.getTime() + 3_600_000) }, after(0))).toBe(false);
  });
});
