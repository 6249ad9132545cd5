import { describe, expect, it } from "vitest";
import { agoText } from "./format";
import { customRangeProblem, dashboardRange, includesNow } from "./params";

const now = new Date("2026-11-30T14:20:00Z");

describe("dashboardRange", () => {
  it("labels a custom range once, in the viewer's zone", () => {
    const params = { from: "2026-11-01T00:00:00Z", to: "2026-11-02T12:00:00Z" };
    expect(dashboardRange(params, "UTC", now).label).toBe("2026-11-01 00:00 – 2026-11-02 12:00 UTC");
    expect(dashboardRange(params, "Europe/Berlin", now).label).toBe("2026-11-01 01:00 – 2026-11-02 13:00 GMT+1");
    expect(dashboardRange({ range: "24h" }, "Europe/Berlin", now).label).toBe("Last 24 hours");
  });

  it("knows whether the range reaches into the current hour", () => {
    expect(includesNow(dashboardRange({ range: "7d" }, "UTC", now), now.getTime())).toBe(true);
    expect(includesNow(dashboardRange({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, "UTC", now), now.getTime())).toBe(false);
  });
});

describe("customRangeProblem", () => {
  it("says what is wrong with a typed range", () => {
    expect(customRangeProblem(NaN, 1)).toMatch(/start and an end/);
    expect(customRangeProblem(5, 5)).toMatch(/start must be before the end/);
    expect(customRangeProblem(0, 401 * 86_400_000)).toMatch(/at most 400 days/);
    expect(customRangeProblem(0, 86_400_000)).toBeNull();
  });
});

describe("agoText", () => {
  it("counts in tens of seconds, then minutes", () => {
    expect(agoText(3)).toBe("just now");
    expect(agoText(23)).toBe("20 s ago");
    expect(agoText(59.9)).toBe("50 s ago");
    expect(agoText(185)).toBe("3 min ago");
  });
});
