import { describe, expect, it } from "vitest";
import { parallelCells, type ParallelFigures } from "./figures";

const figures = (over: Partial<ParallelFigures> = {}): ParallelFigures => ({
  calls: 40,
  inParallel: 30,
  groups: 12,
  mixed: 3,
  idKnown: 20,
  idKept: 19,
  truncated: false,
  minGroups: 10,
  asOf: null,
  shares: { inParallel: 0.75, mixed: 0.25, idKept: 0.95 },
  ...over,
});

describe("parallelCells", () => {
  it("writes each share with what it is a share of", () => {
    expect(parallelCells(figures())).toEqual({
      inParallel: { value: "75.0%", detail: "30 of 40 calls with a turn" },
      mixed: { value: "25.0%", detail: "3 of 12 parallel turns" },
      idKept: { value: "95.0%", detail: "19 of 20 answers named their call" },
    });
  });
  it("says insufficient data below the groups needed, and not known where no source told", () => {
    const few = parallelCells(figures({ groups: 3, shares: { inParallel: 0.75, mixed: null, idKept: null } }));
    expect(few.mixed).toEqual({ value: "insufficient data", detail: "3 parallel turns, 10 needed" });
    expect(few.idKept.value).toBe("insufficient data");
    const unknown = parallelCells(figures({ idKnown: 0, idKept: 0, shares: { inParallel: 0.75, mixed: 0.25, idKept: null } }));
    expect(unknown.idKept).toEqual({ value: "not known", detail: "0 answers told: only OpenTelemetry tool messages say" });
    expect(parallelCells(figures({ calls: 0, inParallel: 0, shares: { inParallel: null, mixed: null, idKept: null } })).inParallel).toEqual({
      value: "–",
      detail: "no call reported its turn",
    });
  });
});
