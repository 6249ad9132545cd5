// How the command palette ranks what it can jump to against what was typed. Pure.
// Case and separators aside ("get loan", "get_loan", "getLoan" all find getloan), by the kind of
// match: the whole name, its start, the start of a word in it, anywhere in it, its letters in
// order (fuzzy), and last a misspelling by the one "did you mean" rule (isomorphic/tool-names.ts).

import { likelyTool, nameKey } from "../../isomorphic/tool-names";

export type EntryKind = "page" | "tool" | "model" | "incident" | "rule" | "call" | "run" | "action";

export type Entry = {
  /** unique among the entries: the kind and the target */
  key: string;
  kind: EntryKind;
  label: string;
  /** a second line: counts, state, scope */
  detail?: string;
  /** also matched, below the label (ids, scope, other names) */
  keywords?: readonly string[];
  href?: string;
  /** a palette action instead of a link */
  action?: "shortcuts";
};

const EXACT = 1000;
const PREFIX = 800;
const WORD_PREFIX = 600;
const SUBSTRING = 400;
const FUZZY = 200;
const MISSPELT = 100;
/** a keyword's match counts a little less than the same match on the label */
const KEYWORD_FACTOR = 0.9;

/** Word starts of a name: after a separator, and where a lower-case letter or digit meets an upper-case one (getLoan → get, Loan). */
function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    const prev = text.charAt(i - 1);
    if (/[\s_\-./:@]/.test(c)) continue;
    if (i === 0 || /[\s_\-./:@(]/.test(prev) || (/[a-z0-9]/.test(prev) && /[A-Z]/.test(c))) starts.push(i);
  }
  return starts;
}

/**
 * How well `query` matches `text`, higher is better; null when it does not. Within a kind of
 * match, earlier and tighter matches of shorter texts score higher.
 */
export function matchScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  const lower = text.toLowerCase();
  const qKey = nameKey(q);
  const key = nameKey(text);
  if (!qKey) return lower.includes(q) ? SUBSTRING : null;
  const shorter = -Math.min(key.length, 99) / 100; // a tie-break under one point
  if (key === qKey) return EXACT + shorter;
  if (lower.startsWith(q) || key.startsWith(qKey)) return PREFIX + shorter;
  if (wordStarts(text).some((i) => lower.startsWith(q, i) || nameKey(text.slice(i)).startsWith(qKey))) return WORD_PREFIX + shorter;
  const at = key.indexOf(qKey);
  if (at >= 0) return SUBSTRING - Math.min(at, 99) + shorter;
  const gaps = subsequenceGaps(qKey, key);
  if (gaps !== null) return FUZZY - Math.min(gaps, 99) + shorter;
  if (qKey.length >= 4 && likelyTool(q, [text])) return MISSPELT + shorter;
  return null;
}

/** Characters skipped between the query's letters found in order in `text` (greedy from the left), or null when not all are there. */
function subsequenceGaps(query: string, text: string): number | null {
  let gaps = 0;
  let at = text.indexOf(query.charAt(0));
  if (at < 0) return null;
  for (let i = 1; i < query.length; i++) {
    const next = text.indexOf(query.charAt(i), at + 1);
    if (next < 0) return null;
    gaps += next - at - 1;
    at = next;
  }
  return gaps;
}

/** The entry's best score over its label and keywords, or null. */
export function entryScore(query: string, entry: Entry): number | null {
  let best = matchScore(query, entry.label);
  for (const keyword of entry.keywords ?? []) {
    const s = matchScore(query, keyword);
    if (s !== null && (best === null || s * KEYWORD_FACTOR > best)) best = s * KEYWORD_FACTOR;
  }
  return best;
}

/**
 * The entries matching `query`, best first (ties: the order given, which puts pages before
 * tools before model versions …), at most `limit`. An empty query keeps the order given.
 */
export function rankEntries(query: string, entries: readonly Entry[], limit = 50): Entry[] {
  if (!query.trim()) return entries.slice(0, limit);
  return entries
    .map((entry, index) => ({ entry, index, score: entryScore(query, entry) }))
    .filter((r): r is { entry: Entry; index: number; score: number } => r.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((r) => r.entry);
}

/** Whether the text may be an id (or the start of one) worth asking the server about: one word of 3 to 256 characters. */
export const mayBeId = (text: string) => {
  const t = text.trim();
  return t.length >= 3 && t.length <= 256 && !/\s/.test(t);
};
