import { describe, expect, it } from "vitest";
import { impactWindows } from "./schema-change";

const at = (iso: string) => new Date(iso);
const seen = (...isos: string[]) => isos.map((iso) => ({ firstSeenAt: at(iso) }));

describe("impactWindows", () => {
  it("measures equal windows either side of the newest version, from the next whole hour", () => {
    // v2 seen at 10:20 → marker 11:00; 5 whole hours since; v1 a day earlier
    const windows = impactWindows(seen("2026-11-09T10:20:00Z", "2026-11-10T10:20:00Z"), at("2026-11-10T16:30:00Z"));
    expect(windows).toMatchObject({
      inRange: true,
      marker: at("2026-11-10T11:00:00Z"),
      before: { from: at("2026-11-10T06:00:00Z"), to: at("2026-11-10T11:00:00Z") },
      after: { from: at("2026-11-10T11:00:00Z"), to: at("2026-11-10T16:00:00Z") },
    });
    // a version seen on the hour is its own marker
    expect(impactWindows(seen("2026-11-01T00:00:00Z", "2026-11-10T11:00:00Z"), at("2026-11-10T12:00:00Z"))?.marker).toEqual(at("2026-11-10T11:00:00Z"));
  });

  it("never reaches back before the previous version, and at most 14 days each way", () => {
    const close = impactWindows(seen("2026-11-10T08:00:00Z", "2026-11-10T11:00:00Z"), at("2026-11-20T00:00:00Z"));
    expect(close?.before).toEqual({ from: at("2026-11-10T08:00:00Z"), to: at("2026-11-10T11:00:00Z") });
    expect(close?.after.to).toEqual(at("2026-11-10T14:00:00Z"));
    const long = impactWindows(seen("2026-01-01T00:00:00Z", "2026-11-01T00:00:00Z"), at("2026-12-31T00:00:00Z"));
    expect(long?.before.from).toEqual(at("2026-10-18T00:00:00Z"));
    expect(long?.after.to).toEqual(at("2026-11-15T00:00:00Z"));
  });

  it("is null for one version, or a newest version less than a whole hour old", () => {
    expect(impactWindows(seen("2026-11-10T10:00:00Z"), at("2026-11-11T00:00:00Z"))).toBeNull();
    expect(impactWindows([], at("2026-11-11T00:00:00Z"))).toBeNull();
    expect(impactWindows(seen("2026-11-01T00:00:00Z", "2026-11-10T10:00:00Z"), at("2026-11-10T10:59:59Z"))).toBeNull();
    expect(impactWindows(seen("2026-11-01T00:00:00Z", "2026-11-10T10:00:00Z"), at("2026-11-10T11:00:00Z"))?.after.to).toEqual(at("2026-11-10T11:00:00Z"));
  });

  it("orders the versions itself", () => {
    const windows = impactWindows(seen("2026-11-10T10:00:00Z", "2026-11-01T00:00:00Z", "2026-11-09T10:00:00Z"), at("2026-11-10T12:00:00Z"));
    expect(windows?.marker).toEqual(at("2026-11-10T10:00:00Z"));
    expect(windows?.before.from).toEqual(at("2026-11-10T08:00:00Z"));
  });

  it("inside a selected range: the newest change within it, windows clipped to the range", () => {
    const versions = seen("2026-11-01T00:00:00Z", "2026-11-10T11:00:00Z", "2026-11-20T00:00:00Z");
    // 7 days from Nov 8 12:00: v2's change (Nov 10 11:00) is inside, v3's is after it
    const within = { from: at("2026-11-08T12:00:00Z"), to: at("2026-11-15T12:00:00Z") };
    const windows = impactWindows(versions, at("2026-11-30T00:00:00Z"), within);
    expect(windows).toMatchObject({
      inRange: true,
      newer: versions[1],
      older: versions[0],
      marker: at("2026-11-10T11:00:00Z"),
      // before: from the range's first whole hour on; after: as long, inside the range
      before: { from: at("2026-11-08T12:00:00Z"), to: at("2026-11-10T11:00:00Z") },
      after: { from: at("2026-11-10T11:00:00Z"), to: at("2026-11-12T10:00:00Z") },
    });
    // the after window stops at the next version when that comes sooner
    const soon = impactWindows(seen("2026-11-01T00:00:00Z", "2026-11-10T11:00:00Z", "2026-11-10T14:00:00Z"), at("2026-11-30T00:00:00Z"), {
      from: at("2026-11-01T00:00:00Z"),
      to: at("2026-11-10T12:30:00Z"),
    });
    expect(soon).toMatchObject({ inRange: true, marker: at("2026-11-10T11:00:00Z") });
    expect(soon!.after.to).toEqual(at("2026-11-10T12:00:00Z"));
  });

  it("without a change inside the range: the newest change, marked as outside it", () => {
    const versions = seen("2026-11-01T00:00:00Z", "2026-11-10T11:00:00Z");
    const windows = impactWindows(versions, at("2026-11-30T00:00:00Z"), { from: at("2026-11-20T00:00:00Z"), to: at("2026-11-27T00:00:00Z") });
    expect(windows).toMatchObject({ inRange: false, newer: versions[1], marker: at("2026-11-10T11:00:00Z") });
    expect(windows!.before.from).toEqual(at("2026-11-01T00:00:00Z"));
  });
});

describe("impactWindows within a range, at its bounds", () => {
  const versions = () => seen("2026-11-01T00:00:00Z", "2026-11-10T11:00:00Z");
  const now = at("2026-11-30T00:00:00Z");

  it("the first version inside the range is no change: the newest change is used, marked outside", () => {
    const windows = impactWindows(versions(), now, { from: at("2026-10-25T00:00:00Z"), to: at("2026-11-05T00:00:00Z") });
    expect(windows).toMatchObject({ inRange: false, marker: at("2026-11-10T11:00:00Z") });
  });

  it("a change at the range's first instant is inside it, one at its end is not", () => {
    // inside, so its before window must be inside the range too: no whole hour of it, no windows
    // (rather than the change's windows reaching back before the range)
    expect(impactWindows(versions(), now, { from: at("2026-11-10T11:00:00Z"), to: at("2026-11-17T11:00:00Z") })).toBeNull();
    expect(impactWindows(versions(), now, { from: at("2026-11-03T11:00:00Z"), to: at("2026-11-10T11:00:00Z") })?.inRange).toBe(false);
  });
});
