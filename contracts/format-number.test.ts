import { describe, expect, it } from "vitest";
import { formatChange, formatCount, formatDuration, formatNumber, formatPercent, formatPp, formatPValue, formatUsd, MISSING } from "./format-number";

const missing = [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

describe("every formatter", () => {
  it("writes a missing number as an en dash", () => {
    expect(MISSING).toBe("–");
    for (const v of missing)
      for (const f of [formatCount, formatNumber, formatPercent, formatPp, formatChange, formatPValue, formatUsd, formatDuration]) expect(f(v)).toBe("–");
  });
});

describe("formatCount", () => {
  it("groups thousands and rounds to a whole number", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1)).toBe("1");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(1_234_567_890)).toBe("1,234,567,890");
    expect(formatCount(2.5)).toBe("3");
    expect(formatCount(0.4)).toBe("0");
  });
  it("writes a negative count with the minus sign, and never −0", () => {
    expect(formatCount(-1234)).toBe("−1,234");
    expect(formatCount(-0.2)).toBe("0");
    expect(formatCount(-0)).toBe("0");
  });
});

describe("formatNumber", () => {
  it("keeps exactly the digits asked for, two by default", () => {
    expect(formatNumber(1.0638)).toBe("1.06");
    expect(formatNumber(1)).toBe("1.00");
    expect(formatNumber(6.375, { digits: 1 })).toBe("6.4");
    expect(formatNumber(1234.5)).toBe("1,234.50");
    expect(formatNumber(0)).toBe("0.00");
    expect(formatNumber(-2.5)).toBe("−2.50");
    expect(formatNumber(-0.001)).toBe("0.00");
  });
});

describe("formatPercent", () => {
  it("writes a rate with one decimal by default, always that many", () => {
    expect(formatPercent(0)).toBe("0.0%");
    expect(formatPercent(0.0638)).toBe("6.4%");
    expect(formatPercent(0.01)).toBe("1.0%");
    expect(formatPercent(1)).toBe("100.0%");
    expect(formatPercent(0.5, { digits: 0 })).toBe("50%");
    expect(formatPercent(0.14285, { digits: 2 })).toBe("14.29%");
    expect(formatPercent(0.05, { digits: 2 })).toBe("5.00%");
  });
  it("never shows a rate that is not 0 as 0, nor one that is not 1 as 100%", () => {
    expect(formatPercent(0.0004)).toBe("<0.1%");
    expect(formatPercent(0.00049)).toBe("<0.1%");
    expect(formatPercent(0.0005)).toBe("0.1%");
    expect(formatPercent(0.004, { digits: 0 })).toBe("<1%");
    expect(formatPercent(0.00001, { digits: 2 })).toBe("<0.01%");
    expect(formatPercent(0.9996)).toBe(">99.9%");
    expect(formatPercent(0.996, { digits: 0 })).toBe(">99%");
    expect(formatPercent(1.0001)).toBe(">100.0%");
    expect(formatPercent(0.999)).toBe("99.9%");
  });
  it("groups large percentages and signs negative ones with the minus sign", () => {
    expect(formatPercent(15)).toBe("1,500.0%");
    expect(formatPercent(-0.25)).toBe("−25.0%");
    expect(formatPercent(-0.0001)).toBe(">−0.1%");
  });
});

describe("formatPp and formatChange", () => {
  it("sign a difference, ± where it rounds to nothing", () => {
    expect(formatPp(0.012)).toBe("+1.2 pp");
    expect(formatPp(-0.004)).toBe("−0.4 pp");
    expect(formatPp(0.0001)).toBe("±0.0 pp");
    expect(formatPp(-0.0001)).toBe("±0.0 pp");
    expect(formatPp(0.05, { digits: 0 })).toBe("+5 pp");
    expect(formatChange(0.12)).toBe("+12%");
    expect(formatChange(-0.034)).toBe("−3%");
    expect(formatChange(0.004)).toBe("±0%");
    expect(formatChange(25)).toBe("+2,500%");
  });
});

describe("formatPValue", () => {
  it("writes three decimals, and < 0.001 below them", () => {
    expect(formatPValue(0.0423)).toBe("0.042");
    expect(formatPValue(0.001)).toBe("0.001");
    expect(formatPValue(0.0009)).toBe("< 0.001");
    expect(formatPValue(0)).toBe("< 0.001");
    expect(formatPValue(1)).toBe("1.000");
  });
});

describe("formatUsd", () => {
  it("keeps cents, four decimals below a dollar, and two significant digits of tiny amounts", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(1)).toBe("$1.00");
    expect(formatUsd(0.125)).toBe("$0.1250");
    expect(formatUsd(0.0123)).toBe("$0.0123");
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(0.0001)).toBe("$0.0001");
    expect(formatUsd(0.00001234)).toBe("$0.000012");
    expect(formatUsd(-2)).toBe("−$2.00");
  });
});

describe("formatDuration", () => {
  it("writes milliseconds below a second, a tenth below 10 ms", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(0.01)).toBe("<0.1 ms");
    expect(formatDuration(0.4)).toBe("0.4 ms");
    expect(formatDuration(7)).toBe("7 ms");
    expect(formatDuration(9.96)).toBe("10 ms");
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(999.4)).toBe("999 ms");
  });
  it("writes seconds with a tenth below 10 s, whole ones to a minute", () => {
    expect(formatDuration(999.6)).toBe("1.0 s");
    expect(formatDuration(1000)).toBe("1.0 s");
    expect(formatDuration(1250)).toBe("1.3 s");
    expect(formatDuration(9960)).toBe("10 s");
    expect(formatDuration(45_000)).toBe("45 s");
    expect(formatDuration(59_600)).toBe("1 min");
  });
  it("writes two units from a minute up, the second left out when 0", () => {
    expect(formatDuration(60_000)).toBe("1 min");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(3_599_600)).toBe("1 h");
    expect(formatDuration(3_600_000)).toBe("1 h");
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000 + 20_000)).toBe("3 h 5 min");
    expect(formatDuration(86_399_000)).toBe("1 d");
    expect(formatDuration(86_400_000)).toBe("1 d");
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000)).toBe("2 d 4 h");
    expect(formatDuration(40 * 86_400_000)).toBe("40 d");
  });
  it("signs a negative duration with the minus sign", () => {
    expect(formatDuration(-1500)).toBe("−1.5 s");
  });
});
