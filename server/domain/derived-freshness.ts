// When a page may use a stored answer of a derived read instead of computing it (the one place
// that decides; server/services/derived/answers.ts reads and writes them, docs/dashboards.md).

/** A stored answer may be this much behind the calls (new calls since it was computed): a page says "as of". */
export const STALE_GRACE_MS = 2 * 60_000;
/**
 * However unchanged the range's counts, an answer older than this is not used: the mark sees new
 * calls, results and verdicts, not everything a read depends on (a tool registered, a turn an
 * OpenTelemetry export filled in later).
 */
export const MAX_ANSWER_AGE_MS = 15 * 60_000;
/** The worker's refresh runs once a minute: it refreshes what would be unusable by its next run. */
export const REFRESH_LOOKAHEAD_MS = 60_000;
/** Answers no page view used for this long are deleted by the worker instead of refreshed. */
export const UNREAD_FOR_MS = 24 * 60 * 60_000;

export type StoredAnswerState = { rangeFrom: Date; rangeTo: Date; computedAt: Date; through: string };
export type WantedAnswer = { from: Date; to: Date; through: string };

/**
 * Whether a stored answer may stand for the read asked at `now`: of the same range, and either
 * computed from calls that still look the same (the same mark) within MAX_ANSWER_AGE_MS, or at
 * most STALE_GRACE_MS old whatever arrived since (under steady ingestion the mark changes all the
 * time; the worker's refresh keeps answers younger than that).
 */
export function answerUsable(stored: StoredAnswerState, wanted: WantedAnswer, now: Date): boolean {
  if (stored.rangeFrom.getTime() !== wanted.from.getTime() || stored.rangeTo.getTime() !== wanted.to.getTime()) return false;
  const age = now.getTime() - stored.computedAt.getTime();
  if (age < 0) return stored.through === wanted.through;
  if (age <= STALE_GRACE_MS) return true;
  return stored.through === wanted.through && age <= MAX_ANSWER_AGE_MS;
}

/** Whether the worker should compute an answer again now: it would not be usable at its next run. */
export const needsRefresh = (stored: StoredAnswerState, wanted: WantedAnswer, now: Date) =>
  !answerUsable(stored, wanted, new Date(now.getTime() + REFRESH_LOOKAHEAD_MS));
