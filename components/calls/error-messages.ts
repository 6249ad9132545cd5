// The error-messages page's judgements, pure: which messages teach the model too little,
// and what text finds a template's calls in the explorer (a substring search).

import { recoveryRate, sumRecovery } from "../../isomorphic/recovery";

export const NO_MESSAGE = "(no message)";

const PLACEHOLDER = /'<value>'|"<value>"|`<value>`|<value>|<n>|<date>|<id>/g;
const EDGE_PUNCTUATION = /^[\s'"`(:,;.\-–]+|[\s'"`(:,;\-–]+$/g;

/**
 * A part of the message that finds this template's calls with a "contains" search: the
 * longest literal stretch of the template (between its placeholders) when it is long
 * enough to be distinctive and appears in the example, else the example itself.
 */
export function distinctivePart(template: string, example: string, max = 200): string | null {
  if (!example || example === NO_MESSAGE) return null;
  const literal = template
    .split(PLACEHOLDER)
    .map((s) => s.replace(EDGE_PUNCTUATION, ""))
    .sort((a, b) => b.length - a.length)[0];
  if (literal && literal.length >= 12 && example.includes(literal)) return literal.slice(0, max);
  return example.slice(0, max);
}

/**
 * A message that gives the model nothing to act on: only a code or a bare word, no
 * argument name, no rule, no fix ("Error 422", "Bad request", "invalid").
 */
export function isOpaque(template: string): boolean {
  const words = template.replace(PLACEHOLDER, " ").match(/[A-Za-z]{2,}/g) ?? [];
  return words.length <= 4 && !/[<'"`]/.test(template.replace(/<n>/g, ""));
}

export type TemplateRow = { template: string; count: number; followed: number; recovered: number; recoveryRate: number | null; examples: string[] };

/** Recovered / followed over all rows (isomorphic/recovery.ts); null without any followed call. */
export function overallRecovery(rows: readonly TemplateRow[]): number | null {
  return recoveryRate(sumRecovery(rows));
}

/** Minimum retries before a rate is judged, and how far below the overall rate counts as low. */
const MIN_FOLLOWED = 10;
const LOW_MARGIN = 0.1;

/**
 * Why a message deserves a rewrite: a recovery rate clearly below the rest (at least
 * LOW_MARGIN lower, and two standard errors below the overall rate for its number of
 * retries, so that a small sample's bad luck is not blamed on the wording), an opaque
 * text, or both.
 */
export function flagsFor(row: TemplateRow, overall: number | null): { lowRecovery: boolean; opaque: boolean } {
  let lowRecovery = false;
  if (row.recoveryRate !== null && overall !== null && row.followed >= MIN_FOLLOWED) {
    const gap = overall - row.recoveryRate;
    const standardError = Math.sqrt((overall * (1 - overall)) / row.followed);
    lowRecovery = gap >= LOW_MARGIN && (standardError === 0 || gap / standardError >= 2);
  }
  return { lowRecovery, opaque: row.template !== NO_MESSAGE && isOpaque(row.template) };
}
