import { describe, it, expect } from "vitest";
import { compareVersions } from "./version-comparison";

describe("compareVersions", () => {
  it("gives a verdict per key", () => {
    const result = compareVersions(
      [
        { key: "improved", invalid: 200, total: 1000 },
        { key: "regressed", invalid: 60, total: 1000 },
        { key: "same", invalid: 50, total: 500 },
        { key: "tiny", invalid: 2, total: 3 },
        { key: "gone", invalid: 5, total: 50 },
      ],
      [
        { key: "improved", invalid: 60, total: 1000 },
        { key: "regressed", invalid: 200, total: 1000 },
        { key: "same", invalid: 52, total: 500 },
        { key: "tiny", invalid: 6, total: 100 },
        { key: "new", invalid: 1, total: 10 },
      ],
    );
    const byKey = Object.fromEntries(result.map((r) => [r.key, r]));
    expect(byKey.improved).toMatchObject({ verdict: "better", a: { rate: 0.2, n: 1000 }, b: { rate: 0.06, n: 1000 } });
    expect(byKey.improved!.diff).toBeCloseTo(-0.14, 10);
    expect(byKey.improved!.pValue).toBeLessThan(0.001);
    expect(byKey.regressed!.verdict).toBe("worse");
    expect(byKey.same!.verdict).toBe("no clear difference");
    expect(byKey.tiny!.verdict).toBe("insufficient data");
    expect(byKey.gone).toMatchObject({ verdict: "insufficient data", b: { rate: null, n: 0 }, diff: null, pValue: null });
    expect(byKey.new).toMatchObject({ verdict: "insufficient data", a: { rate: null, n: 0 }, diff: null, pValue: null });
    expect(result.map((r) => r.key)).toEqual(["improved", "regressed", "same", "tiny", "gone", "new"]);
  });

  it("adds up the rows of one key (several days, several versions of a model) before comparing", () => {
    const [row] = compareVersions(
      [
        { key: "t", invalid: 30, total: 500 },
        { key: "t", invalid: 70, total: 500 },
      ],
      [
        { key: "t", invalid: 10, total: 600 },
        { key: "t", invalid: 20, total: 400 },
      ],
    );
    expect(row).toMatchObject({ key: "t", a: { rate: 0.1, n: 1000 }, b: { rate: 0.03, n: 1000 }, verdict: "better" });
  });

  it("orders equal totals by key whatever the input order", () => {
    const rows = (keys: string[]) => keys.map((key) => ({ key, invalid: 1, total: 10 }));
    expect(compareVersions(rows(["c", "a", "b"]), rows(["b", "c", "a"])).map((r) => r.key)).toEqual(["a", "b", "c"]);
    expect(compareVersions(rows(["b", "a"]), []).map((r) => r.key)).toEqual(["a", "b"]);
  });

  it("passes alpha and minN to the test", () => {
    // 50/500 against 70/500: z ≈ 1.95, p ≈ 0.052, not significant at 0.05, significant at 0.1
    const a = [{ key: "t", invalid: 50, total: 500 }];
    const b = [{ key: "t", invalid: 70, total: 500 }];
    expect(compareVersions(a, b)[0]!.verdict).toBe("no clear difference");
    expect(compareVersions(a, b, { alpha: 0.1 })[0]!.verdict).toBe("worse");
    expect(compareVersions(a, b, { alpha: 0.1, minN: 501 })[0]!.verdict).toBe("insufficient data");
  });
});
