// Groups error messages returned to the model by their shape, so that
// "Error: 'loannumber' must be 4 to 8 characters, you sent 3." and
// "Error: 'status' must be 4 to 8 characters, you sent 12." count as one message.
//
// Every quoted value is replaced, argument names included: a template is about the wording
// of the message, and the argument is already a dimension of its own (the call's path).

import { recoveryRate } from "../../isomorphic/recovery";

const REPLACEMENTS: [RegExp, string][] = [
  // Quoted text first, so that digits, dates and ids inside quotes vanish with the quote.
  // A single quote opens only after a non-word character and closes only before one,
  // so apostrophes ("don't", "users' list") are left alone.
  [/(?<!\w)'(?:[^'\\\n]|\\.)*'(?!\w)/g, "'<value>'"],
  [/"(?:[^"\\\n]|\\.)*"/g, '"<value>"'],
  [/`[^`\n]*`/g, "`<value>`"],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?(?![\w:])/gi, "<date>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>"],
  [/\b0x[0-9a-f]+\b/gi, "<id>"],
  // Hex ids: 8+ hex characters with at least one digit and one letter (so words and plain
  // numbers are not ids).
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "<id>"],
  // Numbers not glued to a preceding word ("item2", "v1" stay): ints, decimals, negatives,
  // dotted versions, exponents. A minus counts only when it does not follow a word ("4-8").
  [/(?:(?<!\w)-)?(?<![\w.])\d+(?:\.\d+)*(?:e[+-]?\d+)?/gi, "<n>"],
];

export function messageTemplate(message: string): string {
  let template = message;
  for (const [pattern, placeholder] of REPLACEMENTS) template = template.replace(pattern, placeholder);
  return template.replace(/\s+/g, " ").trim();
}

export interface MessageRow {
  message: string;
  /** Invalid calls that received this message. */
  count: number;
  /** Of those, how many were followed by a corrected call that was valid. */
  recovered: number;
  /** Of those, how many were followed by a corrected call at all. */
  followed: number;
}

export interface MessageGroup {
  template: string;
  count: number;
  recovered: number;
  followed: number;
  /** recovered / followed; null when no call was followed. */
  recoveryRate: number | null;
  /** Up to 3 distinct original messages, most frequent first. */
  examples: string[];
}

const MAX_EXAMPLES = 3;

/** Groups rows by template, largest group first (ties by template text). */
export function groupByTemplate(rows: MessageRow[]): MessageGroup[] {
  const groups = new Map<string, { count: number; recovered: number; followed: number; messages: Map<string, number> }>();
  for (const row of rows) {
    const template = messageTemplate(row.message);
    let group = groups.get(template);
    if (!group) {
      group = { count: 0, recovered: 0, followed: 0, messages: new Map() };
      groups.set(template, group);
    }
    group.count += row.count;
    group.recovered += row.recovered;
    group.followed += row.followed;
    group.messages.set(row.message, (group.messages.get(row.message) ?? 0) + row.count);
  }

  return [...groups]
    .map(([template, g]) => ({
      template,
      count: g.count,
      recovered: g.recovered,
      followed: g.followed,
      recoveryRate: recoveryRate(g),
      examples: [...g.messages]
        .sort(([a, ca], [b, cb]) => cb - ca || compareText(a, b))
        .slice(0, MAX_EXAMPLES)
        .map(([message]) => message),
    }))
    .sort((a, b) => b.count - a.count || compareText(a.template, b.template));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
