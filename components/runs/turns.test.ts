import { describe, expect, it } from "vitest";
import { groupTurns, parallelLabel } from "./turns";

const calls = (...turns: (number | null)[]) => turns.map((turn, i) => ({ id: `c${i}`, turn }));
const shape = (groups: ReturnType<typeof groupTurns<{ id: string; turn: number | null }>>) => groups.map((g) => g.calls.map((c) => c.index));

describe("groupTurns", () => {
  it("puts consecutive calls of one turn in one group, with their places in the run", () => {
    expect(shape(groupTurns(calls(0, 1, 1, 1, 2)))).toEqual([[0], [1, 2, 3], [4]]);
    expect(groupTurns(calls(0, 1, 1))[1]!.turn).toBe(1);
  });
  it("never groups calls without a turn, nor calls of one turn that the run order separates", () => {
    expect(shape(groupTurns(calls(null, null, 3)))).toEqual([[0], [1], [2]]);
    expect(shape(groupTurns(calls(1, 2, 1)))).toEqual([[0], [1], [2]]);
  });
  it("labels a group by its size", () => {
    expect(parallelLabel(3)).toBe("parallel: 3 calls");
  });
});
