// Groups error messages returned to the model by their shape, so that
// "Error: 'loannumber' must be 4 to 8 characters, you sent 3." and
// "Error: 'loannumber' must be 4 to 8 characters, you sent 12." count as one message.
//
// A template keeps what the message says and whom it is about: the fixed wording, the quoted
// argument names (the tool's schema property names; "items[<n>].qty" for an item of a list), a
// pattern the schema asks for. It masks what the model sent: the value after "you sent", the
// fix derived from it ("Send it as …"), names that are not in any schema, and, as before,
// other quoted text, dates, ids and numbers. So the same message shape is one row whatever
// the model sent, a long array included. Computed when the messages are read (the rollups
// store the messages themselves), so a change here regroups the stored ones too.

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

/** Where a sentence of the classifier ends: ". " before a capital, a final ".", ";" or " as items " (duplicates). */
const SENT_END = String.raw`(?=\.\s+[A-Z]|\.?\s*$|;|\s+as items\b)`;
/** What the model sent, as the classifier words it (isomorphic/classify.ts): kept apart from its description ("the string"). */
const SENT = new RegExp(String.raw`(\byou sent (?:the (?:number|string|boolean|array|object|value) |text that is not valid JSON: )?)(.+?)${SENT_END}`, "g");
/** A fix written from the value sent: "Send it as "4471".", "Send it as an array, such as [...]." */
const SENT_FIX = new RegExp(String.raw`(\bSend it (?:as|like) )(.+?)${SENT_END}`, "g");
/** Text of the schema, kept whole: "must match the pattern ^C[0-9]{4}$, you sent", "(string, matching ^C[0-9]{4}$)". */
const SCHEMA_TEXT = [/(?<=\bmust match the pattern ).+?(?=, you sent\b)/g, /(?<=\bmatching )[^)\n]+(?=\))/g];
/** A quoted argument path: 'loannumber', 'filters.status', 'items[2].qty'. */
const QUOTED_NAME = /(?<!\w)'([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*|\[\d+\])*)'(?!\w)/g;

/**
 * The template of one message. `names`: the argument (schema property) and tool names the
 * project knows; a quoted name outside them is one the model made up, so a value. Without
 * `names` every quoted argument path is kept.
 */
export function messageTemplate(message: string, names?: ReadonlySet<string>): string {
  // kept or already masked spans leave the pass over the rest as private-use placeholders
  const kept: string[] = [];
  const keep = (text: string) => `\uE000${String.fromCharCode(0xe100 + kept.push(text) - 1)}\uE001`;
  const masked = (value: string) => keep(/^-?\d+(?:\.\d+)?$/.test(value.trim()) ? "<n>" : "<value>");

  let template = message;
  for (const pattern of SCHEMA_TEXT) template = template.replace(pattern, (text) => keep(text));
  template = template.replace(SENT, (_, lead: string, value: string) => lead + masked(value));
  template = template.replace(SENT_FIX, (_, lead: string, value: string) => lead + masked(value));
  template = template.replace(QUOTED_NAME, (quoted, path: string) => {
    const known = !names || path.split(/[.[\]]+/).every((part) => part === "" || /^\d+$/.test(part) || names.has(part));
    return known ? keep(`'${path.replace(/\[\d+\]/g, "[<n>]")}'`) : quoted;
  });
  for (const [pattern, placeholder] of REPLACEMENTS) template = template.replace(pattern, placeholder);
  template = template.replace(/\uE000([\uE100-\uF8FF])\uE001/g, (_, index: string) => kept[index.charCodeAt(0) - 0xe100]!);
  return template.replace(/\s+/g, " ").trim();
}

/**
 * The names a template keeps when quoted: the tools' names and every property name their schemas
 * declare, at any depth. Undefined when no tool is registered: then nothing tells a made-up name
 * from a real one, and every quoted name is kept.
 */
export function schemaNames(tools: readonly { name: string; parameters: unknown }[]): Set<string> | undefined {
  if (tools.length === 0) return undefined;
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) for (const name of Object.keys(value)) names.add(name);
        walk(value);
      }
    }
  };
  for (const tool of tools) {
    names.add(tool.name);
    walk(tool.parameters);
  }
  return names;
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

/** Groups rows by template (`names` as messageTemplate takes them), largest group first (ties by template text). */
export function groupByTemplate(rows: MessageRow[], names?: ReadonlySet<string>): MessageGroup[] {
  const groups = new Map<string, { count: number; recovered: number; followed: number; messages: Map<string, number> }>();
  for (const row of rows) {
    const template = messageTemplate(row.message, names);
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
