// Pairs an invalid call with the call that corrected it (DESIGN.md, "The event"):
// `correctsId` when given, otherwise the next call in the same run, in step then time order,
// that names the same tool.

export interface CallRef {
  id: string;
  runId: string;
  tool: string;
  step: number | null;
  timestamp: Date;
  correctsId: string | null;
  /** null: no verdict known. */
  valid: boolean | null;
}

type Orderable = Pick<CallRef, "id" | "step" | "timestamp">;

function byTimeThenId(a: Orderable, b: Orderable): number {
  return a.timestamp.getTime() - b.timestamp.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The order of one run's calls: by step, then timestamp, then id. Calls without a step
 * are merged into that sequence by timestamp (then id), so that a mix of stepped and
 * unstepped calls still has one total order. Returns a new array.
 */
export function orderRunCalls<T extends Orderable>(calls: readonly T[]): T[] {
  const stepped = calls.filter((c) => c.step !== null).sort((a, b) => (a.step as number) - (b.step as number) || byTimeThenId(a, b));
  const unstepped = calls.filter((c) => c.step === null).sort(byTimeThenId);

  const ordered: T[] = [];
  let i = 0;
  let j = 0;
  while (i < stepped.length || j < unstepped.length) {
    const s = stepped[i];
    const u = unstepped[j];
    if (s && (!u || byTimeThenId(s, u) <= 0)) {
      ordered.push(s);
      i++;
    } else if (u) {
      ordered.push(u);
      j++;
    }
  }
  return ordered;
}

/** The correction of `invalid` among `ordered`, which must already be in run order. */
function correctionIn<T extends CallRef>(invalid: CallRef, ordered: readonly T[]): T | null {
  const explicit = ordered.find((c) => c.id !== invalid.id && c.correctsId === invalid.id);
  if (explicit) return explicit;
  const at = ordered.findIndex((c) => c.id === invalid.id);
  if (at < 0) return null;
  return ordered.slice(at + 1).find((c) => c.runId === invalid.runId && c.tool === invalid.tool) ?? null;
}

/**
 * The call that corrected `invalid`, or null. A candidate with `correctsId === invalid.id`
 * wins (the earliest in run order if several); otherwise the next call of the same run
 * after `invalid` that names the same tool, exactly as written.
 */
export function findCorrection<T extends CallRef>(invalid: CallRef, candidates: readonly T[]): T | null {
  const explicit = orderRunCalls(candidates.filter((c) => c.id !== invalid.id && c.correctsId === invalid.id));
  if (explicit[0]) return explicit[0];
  const run = candidates.filter((c) => c.runId === invalid.runId && c.id !== invalid.id);
  return correctionIn(invalid, orderRunCalls<CallRef>([...run, invalid])) as T | null;
}

/**
 * How many attempts the run needed to get this call right: the chain of corrections
 * (findCorrection, repeatedly) from its first attempt up to and including the first valid
 * call. The first attempt is found by walking back from `invalid` through earlier calls
 * whose correction is the current one and that were not valid (a failed or unknown verdict).
 * Calls with an unknown verdict count as attempts but never as the success.
 * Returns null when the chain never reaches a valid call.
 */
export function attemptsUntilSuccess(invalid: CallRef, runCalls: readonly CallRef[]): number | null {
  const calls = runCalls.filter((c) => c.runId === invalid.runId && c.id !== invalid.id);
  const ordered = orderRunCalls([...calls, invalid]);
  const correctionOf = new Map(ordered.map((c) => [c.id, correctionIn(c, ordered)]));

  const seen = new Set<string>([invalid.id]);
  let attempts = 1;
  // Backwards: the latest earlier non-valid call whose correction is the current call.
  for (let current: CallRef = invalid; ;) {
    const position = ordered.indexOf(current);
    const previous = ordered
      .slice(0, position)
      .reverse()
      .find((c) => c.valid !== true && !seen.has(c.id) && correctionOf.get(c.id)?.id === current.id);
    if (!previous) break;
    seen.add(previous.id);
    attempts++;
    current = previous;
  }
  // Forwards to the first valid call.
  if (invalid.valid === true) return attempts;
  for (let next = correctionOf.get(invalid.id) ?? null; next; next = correctionOf.get(next.id) ?? null) {
    if (seen.has(next.id)) return null; // a correctsId cycle
    seen.add(next.id);
    attempts++;
    if (next.valid === true) return attempts;
  }
  return null;
}
