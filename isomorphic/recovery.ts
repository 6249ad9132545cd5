// "Recovered", defined once for every page that shows it (the tool page's patterns and messages,
// the errors page): an invalid call recovered when the model tried again (its correction, the
// stored link of docs/pairing.md) and that next attempt was valid. The rate counts only the
// invalid calls that were tried again, so a run that is still going is not held against it.
import { formatCount } from "../contracts/format-number";

/** Invalid calls the model tried again (`followed`), and of those the ones whose next attempt was valid (`recovered`). */
export type RecoveryCounts = { followed: number; recovered: number };

/** recovered / followed; null when no invalid call was tried again (nothing to measure). */
export function recoveryRate({ followed, recovered }: RecoveryCounts): number | null {
  return followed > 0 ? recovered / followed : null;
}

/** The sum of several rows' counts. */
export function sumRecovery(rows: readonly RecoveryCounts[]): RecoveryCounts {
  return rows.reduce((sum, r) => ({ followed: sum.followed + r.followed, recovered: sum.recovered + r.recovered }), { followed: 0, recovered: 0 });
}

/** The definition in words, for the pages' footnotes and column titles. */
export const RECOVERED_MEANING = "Recovered: of the invalid calls the model tried again in the same run, the share whose next attempt was valid.";

/** A column title's tooltip for one row. */
export const recoveryTitle = ({ followed, recovered }: RecoveryCounts) =>
  followed ? `${formatCount(recovered)} of ${formatCount(followed)} next attempts were valid` : "not tried again: nothing to measure";
