// When a page may use a stored answer of a derived read instead of computing it (the one place
// that decides; server/services/derived/answers.ts reads and writes them; docs/rollups.md,
// "Stored answers of derived reads").

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
  if (usableWhateverTheMark(stored, wanted, now)) return true;
  const age = now.getTime() - stored.computedAt.getTime();
  return sameRange(stored, wanted) && stored.through === wanted.through && age <= MAX_ANSWER_AGE_MS;
}

const sameRange = (stored: StoredAnswerState, range: { from: Date; to: Date }) =>
  stored.rangeFrom.getTime() === range.from.getTime() && stored.rangeTo.getTime() === range.to.getTime();

/**
 * The part of `answerUsable` that needs no mark: an answer of the range at most STALE_GRACE_MS old
 * (a page then skips reading the range's mark; most views of a read page find one so, the worker
 * refreshing it once a minute).
 */
export function usableWhateverTheMark(stored: StoredAnswerState, range: { from: Date; to: Date }, now: Date): boolean {
  const age = now.getTime() - stored.computedAt.getTime();
  return sameRange(stored, range) && age >= 0 && age <= STALE_GRACE_MS;
}

const atNextRefresh = (now: Date) => new Date(now.getTime() + REFRESH_LOOKAHEAD_MS);

/** Whether the worker should compute an answer again now: it would not be usable at its next run. */
export const needsRefresh = (stored: StoredAnswerState, wanted: WantedAnswer, now: Date) => !answerUsable(stored, wanted, atNextRefresh(now));

/** Whether the worker can leave an answer without reading its range's mark: young enough to stand at its next run whatever arrived. */
export const keepsWithoutMark = (stored: StoredAnswerState, range: { from: Date; to: Date }, now: Date) =>
  usableWhateverTheMark(stored, range, atNextRefresh(now));
