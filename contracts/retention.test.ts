import { describe, expect, it } from "vitest";
import { retentionInput } from "./accounts";

// One rule for the API (projects.setRetention), the CLI (`projects retention --calls-days`) and the settings form.
describe("retentionInput", () => {
  it("takes whole days as a number or as the digits a form or command line sends", () => {
    expect(retentionInput.parse({ callsDays: 30, rollupsDays: "400" })).toEqual({ callsDays: 30, rollupsDays: 400 });
    expect(retentionInput.parse({ callsDays: "1", rollupsDays: 3650 })).toEqual({ callsDays: 1, rollupsDays: 3650 });
  });

  it.each([true, false, null, [5], ["5"], {}, "0x10", "1e2", " 5", "5 ", "", "+5", "-0", "5.0", 5.5, "5.5", Number.NaN, Infinity])(
    "refuses %j with a message that says what a number of days is",
    (value) => {
      const result = retentionInput.safeParse({ callsDays: value, rollupsDays: 400 });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(/^raw calls: /);
    },
  );

  it("refuses days out of range and rollups kept for less time than calls", () => {
    expect(retentionInput.safeParse({ callsDays: 0, rollupsDays: 400 }).error?.issues[0]?.message).toMatch(/at least 1 day/);
    expect(retentionInput.safeParse({ callsDays: 30, rollupsDays: "3651" }).error?.issues[0]?.message).toMatch(/at most 3650/);
    expect(retentionInput.safeParse({ callsDays: 30, rollupsDays: 10 }).error?.issues[0]?.message).toMatch(/at least as long as raw calls/);
  });
});
