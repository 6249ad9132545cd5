import { distance } from "fastest-levenshtein";

// Which registered tool a written name meant: the classifier's unknown-tool message and the
// dashboard's "did you mean" both ask here (a module of its own: the dashboard does not load Ajv).

/** A tool name with case and separators aside: "get_loan", "getLoan", "get-loan" → "getloan". */
const nameKey = (name: string) => name.toLowerCase().replace(/[_\-\s.]/g, "");

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
 * The registered tool a written name most likely meant, or undefined when none is a clear guess:
 * a known name inside template debris, else the nearest name when close enough to be a
 * misspelling. One rule for the classifier's "Did you mean" and the dashboard's.
 */
export function likelyTool(sent: string, names: readonly string[]): string | undefined {
  const embedded = embeddedTool(sent, names);
  if (embedded) return embedded;
  const key = nameKey(sent);
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(key, nameKey(name));
    if (!best || d < best.d || (d === best.d && name < best.name)) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(key.length / 3)) && best.d < Math.min(key.length, nameKey(best.name).length) ? best.name : undefined;
}
