// The run view's turns (docs/events.md, "Parallel calls"): the calls one model response requested
// together share a turn, and the run page shows them as one group ("parallel: 3 calls").

export type TurnGroup<T> = {
  /** the turn the calls share; null for a call whose source reported none (a group of one) */
  turn: number | null;
  /** the group's calls with their place in the run (0-based) */
  calls: { call: T; index: number }[];
};

/**
 * Calls in run order → groups of consecutive calls of the same turn. Calls of one turn that are
 * not next to each other in run order (steps of another turn between them) stay apart, so that
 * the timeline never reorders what the run order says.
 */
export function groupTurns<T extends { turn: number | null }>(calls: readonly T[]): TurnGroup<T>[] {
  const groups: TurnGroup<T>[] = [];
  calls.forEach((call, index) => {
    const last = groups.at(-1);
    if (last && call.turn !== null && last.turn === call.turn) last.calls.push({ call, index });
    else groups.push({ turn: call.turn, calls: [{ call, index }] });
  });
  return groups;
}

/** The label of a group of several calls: "parallel: 3 calls". */
export const parallelLabel = (calls: number) => `parallel: ${calls} calls`;
