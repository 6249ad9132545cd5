// Retry spirals (issue 33.5): a run in which the model keeps failing at the same step. Pure: it
// takes a run's calls in run order and answers the spirals in it; where the calls come from and
// where the spirals are shown are the callers' business.
import { executionOutcome } from "../../isomorphic/outcome";

/** A call as the detector reads it, in run order (step, then timestamp). */
export type SpiralCall = {
  id: string;
  tool: string;
  /** which model response of the run wrote it (docs/events.md, "Parallel calls"); null or absent: not known */
  turn?: number | null;
  valid: boolean | null;
  resultStatus: string | null;
  costUsd?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
};

export type Spiral = {
  tool: string;
  /** the failed attempts, in order: one per attempt, the first call of a turn's parallel calls of the tool */
  attempts: string[];
  /** the call that ended it by succeeding, or null when the run gave up (or goes on failing) */
  endedBy: string | null;
  costUsd: number;
  tokens: number;
};

/** The spiral length from which a run counts as spiralling, unless the caller asks for another. */
const DEFAULT_SPIRAL_LENGTH = 3;

/** An attempt failed: the gate refused it, or it ran and failed (tool error, not found, timeout, refused by policy). */
export function attemptFailed(call: Pick<SpiralCall, "valid" | "resultStatus">): boolean {
  const outcome = executionOutcome(call);
  return outcome === null || (outcome !== "ok" && outcome !== "no_result");
}

/**
 * A run's calls as attempts: consecutive calls of one tool in one turn (parallel calls, written by
 * one model response before it saw any of their results) are one attempt; every other call is one.
 */
function attemptSteps<C extends SpiralCall>(calls: readonly C[]): C[][] {
  const steps: C[][] = [];
  for (const call of calls) {
    const step = steps.at(-1);
    const last = step?.at(-1);
    if (step && last && call.turn != null && last.turn === call.turn && last.tool === call.tool) step.push(call);
    else steps.push([call]);
  }
  return steps;
}

/** A spiral's failed attempts (each one call, or a turn's parallel calls of the tool) and the call that ended it, or null. */
type Streak<C extends SpiralCall> = { steps: C[][]; endedBy: C | null };

/**
 * The spirals of one run: `minLength` or more consecutive failed attempts at the same tool (other
 * tools' calls in between break it, as the model moved on). A turn's parallel calls of the tool are
 * one attempt, failed when all of them failed (one that succeeded ends the streak); what its failed
 * calls burned counts. Calls must be in run order.
 */
function spiralStreaks<C extends SpiralCall>(calls: readonly C[], minLength: number): Streak<C>[] {
  if (!Number.isInteger(minLength) || minLength < 2) throw new RangeError(`minLength must be an integer of 2 or more, got ${minLength}`);
  const streaks: Streak<C>[] = [];
  let streak: C[][] = [];
  const close = (endedBy: C | null) => {
    if (streak.length >= minLength) streaks.push({ steps: streak, endedBy });
    streak = [];
  };
  for (const step of attemptSteps(calls)) {
    const sameTool = streak.length > 0 && streak[0]![0]!.tool === step[0]!.tool;
    const succeeded = step.find((call) => !attemptFailed(call));
    if (!succeeded) {
      if (!sameTool) close(null);
      streak.push(step);
    } else close(sameTool ? succeeded : null);
  }
  close(null);
  return streaks;
}

/** What calls burned: their money, and their tokens in and out. */
const costOf = (calls: readonly SpiralCall[]) => calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0);
const tokensOf = (calls: readonly SpiralCall[]) => calls.reduce((sum, c) => sum + (c.inputTokens ?? 0) + (c.outputTokens ?? 0), 0);

/** The spirals of one run (spiralStreaks), as the pages count them. */
export function findSpirals(calls: readonly SpiralCall[], minLength = DEFAULT_SPIRAL_LENGTH): Spiral[] {
  return spiralStreaks(calls, minLength).map(({ steps, endedBy }) => {
    const burned = steps.flat();
    return {
      tool: burned[0]!.tool,
      attempts: steps.map((step) => step[0]!.id),
      endedBy: endedBy?.id ?? null,
      costUsd: costOf(burned),
      tokens: tokensOf(burned),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Spirals from a bounded read: the failed attempts of a range and their neighbours in the run

/** A failed attempt as the bounded read gives it: the call, where it sits, and its neighbours in run order. */
export type FailedAttempt = SpiralCall & {
  runId: string;
  model: string;
  modelVersion: string | null;
  /** its time, ms */
  at: number;
  /** the call right after it in its run (any tool), or null at the run's end */
  next: SpiralCall | null;
};

/** A spiral with where it happened: its run, the model version of its first attempt, the times of its attempts (ms). */
export type LocatedSpiral = Spiral & { runId: string; model: string; modelVersion: string | null; times: number[] };

/** Stands between two attempts that are not neighbours in their run: closes any streak, ends none. */
const GAP: SpiralCall = { id: "", tool: "", valid: true, resultStatus: "ok" };

/**
 * The spirals among failed attempts read on their own (not whole runs): `attempts` grouped by run,
 * each run's in run order. Two attempts are consecutive only when the second is the call right
 * after the first in the run; otherwise the call after the first one ends its streak when it succeeded (it is the
 * `endedBy`), and a gap breaks it when it is a failure that was not read (another tool's under a
 * tool scope, or one outside the range). So a spiral that crosses the range's edge counts its
 * attempts inside the range only.
 */
export function spiralsOfAttempts(attempts: readonly FailedAttempt[], minLength = DEFAULT_SPIRAL_LENGTH): LocatedSpiral[] {
  const byId = new Map(attempts.map((a) => [a.id, a]));
  const spirals: LocatedSpiral[] = [];
  const after = (a: FailedAttempt) => (a.next && !attemptFailed(a.next) ? a.next : GAP);
  let i = 0;
  while (i < attempts.length) {
    const runId = attempts[i]!.runId;
    const sequence: SpiralCall[] = [];
    let last: FailedAttempt | null = null;
    for (; i < attempts.length && attempts[i]!.runId === runId; i++) {
      const attempt = attempts[i]!;
      if (last && last.next?.id !== attempt.id) sequence.push(after(last));
      sequence.push(attempt);
      last = attempt;
    }
    sequence.push(after(last!));
    for (const spiral of findSpirals(sequence, minLength)) {
      const first = byId.get(spiral.attempts[0]!)!;
      spirals.push({ ...spiral, runId, model: first.model, modelVersion: first.modelVersion, times: spiral.attempts.map((id) => byId.get(id)!.at) });
    }
  }
  return spirals;
}

// ---------------------------------------------------------------------------------------------
// Spirals kept per run: computed from the whole run once, clipped to a range and scope when read

/** A call of a whole run, as the worker reads it to keep the run's spirals. */
export type RunCall = SpiralCall & { model: string; modelVersion: string | null; at: number };

/** One attempt of a kept spiral (server/services/metrics/spirals-kept.ts). */
export type KeptAttempt = {
  runId: string;
  tool: string;
  /** the spiral, by the id of its first attempt */
  spiral: string;
  /** the attempt's place in its spiral, from 0, and how many attempts the whole spiral has */
  position: number;
  length: number;
  /** the attempt's first call: its id, time (ms) and model */
  id: string;
  at: number;
  model: string;
  modelVersion: string | null;
  /** what the attempt's calls burned */
  costUsd: number;
  tokens: number;
  /** the call that ended the whole spiral, or null */
  endedBy: string | null;
};

/** The smallest spiral a read may ask for, and so the spirals a run keeps: every one a read could clip to. */
const KEPT_SPIRAL_LENGTH = 2;

/** A run's spirals as kept: one row per attempt. `calls` are the whole run's, in run order. */
export function keptAttemptsOfRun(runId: string, calls: readonly RunCall[]): KeptAttempt[] {
  return spiralStreaks(calls, KEPT_SPIRAL_LENGTH).flatMap(({ steps, endedBy }) =>
    steps.map((step, position) => ({
      runId,
      tool: step[0]!.tool,
      spiral: steps[0]![0]!.id,
      position,
      length: steps.length,
      id: step[0]!.id,
      at: step[0]!.at,
      model: step[0]!.model,
      modelVersion: step[0]!.modelVersion,
      costUsd: costOf(step),
      tokens: tokensOf(step),
      endedBy: endedBy?.id ?? null,
    })),
  );
}

/**
 * The spirals of `minLength` or more attempts among kept attempts read for a range and scope (those
 * whose time and model are in it), ordered by run, spiral and position: as the bounded read
 * (spiralsOfAttempts) finds them, an attempt left out splits its spiral, and a piece keeps the
 * spiral's end only when it reaches it.
 */
export function spiralsOfKeptAttempts(attempts: readonly KeptAttempt[], minLength = DEFAULT_SPIRAL_LENGTH): LocatedSpiral[] {
  const spirals: LocatedSpiral[] = [];
  let piece: KeptAttempt[] = [];
  const close = () => {
    const first = piece[0];
    const last = piece.at(-1);
    if (first && last && piece.length >= minLength)
      spirals.push({
        tool: first.tool,
        attempts: piece.map((a) => a.id),
        endedBy: last.position === last.length - 1 ? last.endedBy : null,
        costUsd: piece.reduce((sum, a) => sum + a.costUsd, 0),
        tokens: piece.reduce((sum, a) => sum + a.tokens, 0),
        runId: first.runId,
        model: first.model,
        modelVersion: first.modelVersion,
        times: piece.map((a) => a.at),
      });
    piece = [];
  };
  for (const attempt of attempts) {
    const last = piece.at(-1);
    if (last && (last.runId !== attempt.runId || last.spiral !== attempt.spiral || last.position + 1 !== attempt.position)) close();
    piece.push(attempt);
  }
  close();
  return spirals;
}

/** How many spirals have at least `minLength` attempts in [from, to) (ms): what a spiral alert counts in its window. */
export const spiralsInWindow = (spirals: readonly Pick<LocatedSpiral, "times">[], from: number, to: number, minLength: number): number =>
  spirals.filter((s) => s.times.filter((t) => t >= from && t < to).length >= minLength).length;

/** The spirals of one tool and model version: how many, their attempts, the longest, and what they burned. */
export type SpiralGroup = {
  tool: string;
  model: string;
  modelVersion: string | null;
  spirals: number;
  attempts: number;
  longest: number;
  costUsd: number;
  tokens: number;
};

/**
 * What the pages show of spirals: per tool and model version (most spirals first), the totals,
 * and the `top` longest spirals (longest first, then the most expensive, then the latest).
 */
export function summarizeSpirals(spirals: readonly LocatedSpiral[], top = 10) {
  const groups = new Map<string, SpiralGroup>();
  const total = { spirals: 0, attempts: 0, costUsd: 0, tokens: 0 };
  for (const s of spirals) {
    const key = JSON.stringify([s.tool, s.model, s.modelVersion]);
    const g = groups.get(key) ?? { tool: s.tool, model: s.model, modelVersion: s.modelVersion, spirals: 0, attempts: 0, longest: 0, costUsd: 0, tokens: 0 };
    g.spirals++;
    g.attempts += s.attempts.length;
    g.longest = Math.max(g.longest, s.attempts.length);
    g.costUsd += s.costUsd;
    g.tokens += s.tokens;
    groups.set(key, g);
    total.spirals++;
    total.attempts += s.attempts.length;
    total.costUsd += s.costUsd;
    total.tokens += s.tokens;
  }
  const longest = [...spirals]
    .sort((a, b) => b.attempts.length - a.attempts.length || b.costUsd - a.costUsd || Math.max(...b.times) - Math.max(...a.times))
    .slice(0, top);
  const byCount = [...groups.values()].sort(
    (a, b) => b.spirals - a.spirals || b.attempts - a.attempts || a.tool.localeCompare(b.tool) || a.model.localeCompare(b.model),
  );
  return { total, groups: byCount, longest };
}
