import { distance } from "fastest-levenshtein";

// "Did you mean": which known name a written one meant. Every such guess asks here — the
// classifier's messages (tools, argument names, enum values), the dashboard, the failure patterns,
// the OTLP assembler's corrections, the schema suggestions and the SDK built from these sources —
// by one rule, `nearest` (a module of its own: the dashboard does not load Ajv). The Python SDK's
// twin (sdk-python/src/toolgate/classify.py: likely_tool, close_match) follows the same rule.

/** A tool name with case and separators aside: "get_loan", "getLoan", "get-loan" → "getloan". */
export const nameKey = (name: string) => name.toLowerCase().replace(/[_\-\s.]/g, "");

/**
 * The longest known name written inside the name as a whole word amid non-name characters, as a
 * leaked chat-template token leaves it: `ls<|channel|>commentary`, `functions.get_weather`,
 * `getloan<|call|>` (a letter, digit, `_` or `-` next to it makes it part of another word).
 */
function embeddedTool(sent: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const name of names) {
    if (name.length < 2 || name.length >= sent.length || (best && best.length >= name.length)) continue;
    for (let at = sent.indexOf(name); at !== -1; at = sent.indexOf(name, at + 1)) {
      const before = sent[at - 1];
      const after = sent[at + name.length];
      if ((before === undefined || !/[\p{L}\p{N}_-]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}_-]/u.test(after))) {
        best = name;
        break;
      }
    }
  }
  return best;
}

/** The known names, most likely meant first: the one inside template debris, then by edit distance (case and separators aside), then by name. */
export function rankToolNames(sent: string, names: readonly string[]): string[] {
  const embedded = embeddedTool(sent, names);
  const key = nameKey(sent);
  return names
    .map((name) => ({ name, d: name === embedded ? -1 : distance(key, nameKey(name)) }))
    .sort((a, b) => a.d - b.d || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((r) => r.name);
}

/**
 * The one "did you mean" rule: the candidate nearest to `sent` by edit distance (of their keys),
 * when close enough to be a misspelling rather than another word: at most a third of the sent
 * name's length (but `atLeast` edits always) and fewer edits than either name has characters
 * (lengths of the keys, or `measure: "written"` of the names as written). Ties go to the lesser
 * name (`ties: "name"`) or the first candidate (`"first"`).
 */
function nearest(
  sent: string,
  candidates: readonly string[],
  { key, atLeast, ties, measure }: { key: (name: string) => string; atLeast: number; ties: "name" | "first"; measure: "key" | "written" },
): string | undefined {
  const sentKey = key(sent);
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = distance(sentKey, key(name));
    if (!best || d < best.d || (ties === "name" && d === best.d && name < best.name)) best = { name, d };
  }
  if (!best) return undefined;
  const length = (name: string) => (measure === "key" ? key(name) : name).length;
  const close = best.d <= Math.max(atLeast, Math.floor(length(sent) / 3)) && best.d < Math.min(length(sent), length(best.name));
  return close ? best.name : undefined;
}

/**
 * The registered tool a written name most likely meant, or undefined when none is a clear guess:
 * a known name inside template debris, else the nearest name (case and separators aside, two
 * edits always allowed) when close enough to be a misspelling.
 */
export function likelyTool(sent: string, names: readonly string[]): string | undefined {
  return embeddedTool(sent, names) ?? nearest(sent, names, { key: nameKey, atLeast: 2, ties: "name", measure: "key" });
}

/** The argument name or enum value a written one most likely meant (case aside, one edit always allowed), or undefined. */
export function closeMatch(sent: string, candidates: readonly string[]): string | undefined {
  return nearest(sent, candidates, { key: (name) => name.toLowerCase(), atLeast: 1, ties: "first", measure: "written" });
}
