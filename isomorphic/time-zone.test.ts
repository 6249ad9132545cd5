import { describe, expect, it } from "vitest";
import {
  bucketLabel,
  formatDateTime,
  formatDateTimeZoned,
  fromDateTimeInput,
  readTimeZoneCookie,
  timeZoneCookieValue,
  toDateTimeInput,
  UTC,
} from "./time-zone";

const ms = (iso: string) => Date.parse(iso);

describe("the time zone setting", () => {
  it("reads what it writes, and falls back to UTC for anything else", () => {
    const berlin = { mode: "local" as const, zone: "Europe/Berlin" };
    expect(readTimeZoneCookie(timeZoneCookieValue(berlin))).toEqual(berlin);
    expect(readTimeZoneCookie(timeZoneCookieValue(UTC))).toEqual(UTC);
    expect(readTimeZoneCookie(undefined)).toEqual(UTC);
    expect(readTimeZoneCookie("local:Not/AZone")).toEqual(UTC);
    expect(readTimeZoneCookie("local:")).toEqual(UTC);
    // a cookie of another kind, whatever follows its prefix
    expect(readTimeZoneCookie("other:Europe/Berlin")).toEqual(UTC);
    expect(timeZoneCookieValue(UTC)).toBe("utc");
    expect(timeZoneCookieValue(berlin)).toBe("local:Europe%2FBerlin");
  });
});

describe("formatting in a zone", () => {
  it("writes the wall time of the zone, with its name when asked", () => {
    expect(formatDateTime("2026-11-30T14:03:12Z", "UTC")).toBe("2026-11-30 14:03");
    expect(formatDateTime("2026-11-30T14:03:12Z", "Europe/Berlin", "second")).toBe("2026-11-30 15:03:12");
    expect(formatDateTime("2026-11-30T23:30:00Z", "Asia/Kolkata")).toBe("2026-12-01 05:00");
    expect(formatDateTimeZoned("2026-07-01T12:00:00Z", "Europe/Berlin")).toBe("2026-07-01 14:00 GMT+2");
    expect(formatDateTimeZoned("2026-07-01T12:00:00Z", "UTC")).toBe("2026-07-01 12:00 UTC");
    expect(formatDateTimeZoned("2026-07-01T12:00:05Z", "America/New_York", "second")).toBe("2026-07-01 08:00:05 EDT");
    expect(formatDateTimeZoned(null, "UTC")).toBe("–");
    expect(formatDateTimeZoned("not a date", "Europe/Berlin")).toBe("–");
    expect(formatDateTime("not a date", "UTC")).toBe("–");
  });

  it("labels hours in the zone and days by their UTC date", () => {
    expect(bucketLabel(ms("2026-11-30T14:00:00Z"), "hour")).toBe("Nov 30 14:00");
    expect(bucketLabel(ms("2026-11-30T23:00:00Z"), "hour", "Europe/Berlin")).toBe("Dec 1 00:00");
    expect(bucketLabel(ms("2026-11-30T00:00:00Z"), "day", "America/New_York")).toBe("Nov 30");
  });

  it("turns a datetime-local value into the moment it means in the zone and back", () => {
    expect(fromDateTimeInput("2026-11-30T15:00", "Europe/Berlin")).toBe(ms("2026-11-30T14:00:00Z"));
    expect(fromDateTimeInput("2026-07-01T15:00", "Europe/Berlin")).toBe(ms("2026-07-01T13:00:00Z"));
    expect(fromDateTimeInput("2026-11-30T15:00", "UTC")).toBe(ms("2026-11-30T15:00:00Z"));
    // across the spring-forward night
    expect(fromDateTimeInput("2026-03-29T04:00", "Europe/Berlin")).toBe(ms("2026-03-29T02:00:00Z"));
    expect(toDateTimeInput(ms("2026-11-30T14:00:00Z"), "Europe/Berlin")).toBe("2026-11-30T15:00");
    expect(fromDateTimeInput("yesterday", "UTC")).toBeNaN();
  });

  it("reads seconds when the input has them, and nothing around the value", () => {
    expect(fromDateTimeInput("2026-11-30T15:00:30", "Europe/Berlin")).toBe(ms("2026-11-30T14:00:30Z"));
    expect(fromDateTimeInput("x2026-11-30T15:00", "UTC")).toBeNaN();
    expect(fromDateTimeInput("2026-11-30T15:00x", "UTC")).toBeNaN();
    expect(fromDateTimeInput("2026-11-30T15:00:3", "UTC")).toBeNaN();
  });
});
