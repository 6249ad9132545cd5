import { joinPath, parsedArguments } from "../../contracts/json-path";

/**
 * A leaf-level diff of two tool-call arguments: one line per leaf value (or per empty
 * object/array), in the order of `before` with keys new in `after` following. Paths use
 * the validator's notation (`slot.time`, `tags[2]`). Pure; the UI renders the lines.
 */
export type DiffOp = "same" | "added" | "removed" | "changed";
export type DiffLine = { op: DiffOp; path: string; before?: unknown; after?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isContainer = (v: unknown) => isObject(v) || Array.isArray(v);
const isEmptyContainer = (v: unknown) => (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

/**
 * Diffs two arguments values. Raw strings that hold JSON are parsed first; a raw string
 * that is not JSON (malformed arguments) is one value: against anything else it is a
 * single "changed" line at the root (path "").
 */
export function diffArguments(before: unknown, after: unknown): DiffLine[] {
  const a = parsedArguments(before);
  const b = parsedArguments(after);
  if (a.kind === "raw" || b.kind === "raw") {
    const left = a.kind === "raw" ? a.text : a.value;
    const right = b.kind === "raw" ? b.text : b.value;
    return [
      equal(left, right) && a.kind === b.kind ? { op: "same", path: "", before: left, after: right } : { op: "changed", path: "", before: left, after: right },
    ];
  }
  const lines: DiffLine[] = [];
  walk(a.value, b.value, "", lines);
  return lines;
}

/** Every leaf of one side, as added or removed lines. */
function leaves(value: unknown, path: string, op: "added" | "removed", out: DiffLine[]) {
  if (isContainer(value) && !isEmptyContainer(value)) {
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value as Record<string, unknown>);
    for (const [key, child] of entries) leaves(child, joinPath(path, key), op, out);
    return;
  }
  out.push(op === "added" ? { op, path, after: value } : { op, path, before: value });
}

function walk(before: unknown, after: unknown, path: string, out: DiffLine[]) {
  if (isObject(before) && isObject(after) && !(isEmptyContainer(before) && isEmptyContainer(after))) {
    for (const key of Object.keys(before)) {
      const child = joinPath(path, key);
      if (Object.hasOwn(after, key)) walk(before[key], after[key], child, out);
      else leaves(before[key], child, "removed", out);
    }
    for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) leaves(after[key], joinPath(path, key), "added", out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && !(before.length === 0 && after.length === 0)) {
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) {
      const child = joinPath(path, i);
      if (i >= after.length) leaves(before[i], child, "removed", out);
      else if (i >= before.length) leaves(after[i], child, "added", out);
      else walk(before[i], after[i], child, out);
    }
    return;
  }
  out.push(equal(before, after) ? { op: "same", path, before, after } : { op: "changed", path, before, after });
}

/** Deep equality of JSON values (key order ignored). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/** How many lines differ: 0 when the retry sent the very same arguments. */
export function changedCount(lines: readonly DiffLine[]): number {
  return lines.filter((l) => l.op !== "same").length;
}
