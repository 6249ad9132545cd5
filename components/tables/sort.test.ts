import { describe, expect, it } from "vitest";
import { ariaSort, readSort, sortParams, sortRows, type SortColumns } from "./sort";

type Row = { name: string; calls: number; rate: number | null };
const columns: SortColumns<"name" | "calls" | "rate"> = { name: "asc", calls: "desc", rate: "desc" };
const rows: Row[] = [
  { name: "getloan", calls: 10, rate: 0.2 },
  { name: "sendmessage", calls: 30, rate: null },
  { name: "Apply", calls: 20, rate: 0.05 },
  { name: "tool10", calls: 20, rate: 0.2 },
  { name: "tool9", calls: 5, rate: 0.01 },
];
const by = { name: (r: Row) => r.name, calls: (r: Row) => r.calls, rate: (r: Row) => r.rate };

describe("readSort", () => {
  it("reads a known column and direction from the URL", () => {
    expect(readSort({ sort: "rate", dir: "asc" }, columns, "calls")).toEqual({ key: "rate", dir: "asc" });
    expect(readSort({ sort: "name" }, columns, "calls")).toEqual({ key: "name", dir: "asc" });
  });
  it("falls back for no, an unknown or an inherited column", () => {
    expect(readSort({}, columns, "calls")).toEqual({ key: "calls", dir: "desc" });
    expect(readSort({ sort: "cost", dir: "asc" }, columns, "calls")).toEqual({ key: "calls", dir: "asc" });
    expect(readSort({ sort: "toString", dir: "up" }, columns, "calls")).toEqual({ key: "calls", dir: "desc" });
  });
});

describe("sortParams and ariaSort", () => {
  it("flips the sorted column and starts another in its first direction", () => {
    expect(sortParams({ key: "calls", dir: "desc" }, "calls", columns)).toEqual({ sort: "calls", dir: "asc" });
    expect(sortParams({ key: "calls", dir: "asc" }, "calls", columns)).toEqual({ sort: "calls", dir: "desc" });
    expect(sortParams({ key: "calls", dir: "desc" }, "name", columns)).toEqual({ sort: "name", dir: "asc" });
  });
  it("marks only the sorted column", () => {
    expect(ariaSort({ key: "calls", dir: "desc" }, "calls")).toBe("descending");
    expect(ariaSort({ key: "calls", dir: "asc" }, "calls")).toBe("ascending");
    expect(ariaSort({ key: "calls", dir: "asc" }, "name")).toBeUndefined();
  });
});

describe("sortRows", () => {
  it("sorts numbers either way, ties in their given order", () => {
    expect(sortRows(rows, { key: "calls", dir: "desc" }, by).map((r) => r.name)).toEqual(["sendmessage", "Apply", "tool10", "getloan", "tool9"]);
    expect(sortRows(rows, { key: "calls", dir: "asc" }, by).map((r) => r.name)).toEqual(["tool9", "getloan", "Apply", "tool10", "sendmessage"]);
  });
  it("sorts names without regard to case, digits as numbers", () => {
    expect(sortRows(rows, { key: "name", dir: "asc" }, by).map((r) => r.name)).toEqual(["Apply", "getloan", "sendmessage", "tool9", "tool10"]);
  });
  it("puts rows without a value last in both directions", () => {
    expect(sortRows(rows, { key: "rate", dir: "desc" }, by).map((r) => r.name)).toEqual(["getloan", "tool10", "Apply", "tool9", "sendmessage"]);
    expect(
      sortRows(rows, { key: "rate", dir: "asc" }, by)
        .map((r) => r.name)
        .at(-1),
    ).toBe("sendmessage");
  });
  it("leaves the input alone", () => {
    const copy = [...rows];
    sortRows(rows, { key: "name", dir: "desc" }, by);
    expect(rows).toEqual(copy);
  });
});
