/**
 * What PostgreSQL can store of a JSON value, checked without recursion: events' arguments and
 * metadata, and registered tool schemas, can be nested deeper than any call stack allows
 * (JSON.parse is iterative, JSON.stringify and most validators are not).
 */

import type { PathSegment } from "./json-path";

/** One value met by walkJson, with how it was reached. `tag` is free for the visitor (e.g. "this is a subschema"). */
export interface JsonNode {
  value: unknown;
  /** Key or index in the parent; undefined for the root. */
  key: PathSegment | undefined;
  parent: JsonNode | undefined;
  /** 0 for the root, 1 for its members, … */
  depth: number;
  tag?: unknown;
}

/**
 * Visits every value of a JSON document, parents before children, with an explicit stack.
 * The visitor returns false to skip a value's members, or "stop" to end the walk.
 */
export function walkJson(root: unknown, visit: (node: JsonNode) => boolean | "stop"): void {
  const stack: JsonNode[] = [{ value: root, key: undefined, parent: undefined, depth: 0 }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const verdict = visit(node);
    if (verdict === "stop") return;
    if (!verdict || typeof node.value !== "object" || node.value === null) continue;
    const depth = node.depth + 1;
    // Pushed in reverse, so members are visited in document order.
    if (Array.isArray(node.value)) {
      for (let i = node.value.length - 1; i >= 0; i--) stack.push({ value: node.value[i], key: i, parent: node, depth });
    } else {
      const keys = Object.keys(node.value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (node.value as Record<string, unknown>)[keys[i]!], key: keys[i], parent: node, depth });
    }
  }
}

/** The keys from the root to this node. */
export function pathOf(node: JsonNode): PathSegment[] {
  const path: PathSegment[] = [];
  for (let n: JsonNode | undefined = node; n?.parent; n = n.parent) path.push(n.key!);
  return path.reverse();
}

// A NUL, or a UTF-16 surrogate that is not half of a pair (with the u flag, a pair is one code point).
const UNSTORABLE = /[\0\p{Cs}]/u;

/**
 * Why PostgreSQL cannot store this text, or undefined when it can. `text` and `jsonb` refuse
 * NUL; `jsonb` refuses a lone surrogate and `text` would silently turn it into U+FFFD.
 */
export function unstorableText(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  const at = `at character ${found.index + 1}`;
  if (found[0] === "\0") return `contains a NUL character (\\u0000) ${at}, which PostgreSQL cannot store: remove it, or send binary data as base64`;
  const code = found[0].charCodeAt(0).toString(16);
  return `contains a lone UTF-16 surrogate (\\u${code}) ${at}, which is not valid Unicode: send well-formed text (a truncated emoji is the usual cause), or binary data as base64`;
}

/** The text with what PostgreSQL cannot store (NUL, lone surrogates) replaced by U+FFFD: for messages of ours that quote what was sent. */
export const storableText = (text: string): string => text.replace(new RegExp(UNSTORABLE, "gu"), "\uFFFD");

/** The first `max` characters of JSON for a value, for "you sent …"; never cuts a surrogate pair, never overflows the stack. */
export function preview(value: unknown, max = 60): string {
  let text: string;
  try {
    text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Array.isArray(value) ? "[[[… (an array nested too deeply to show)" : "{… (a value nested too deeply to show)";
  }
  return truncate(text, max);
}

/** `text`, cut to `max` characters with an ellipsis when longer. */
export function truncate(text: string, max = 60): string {
  return text.length <= max ? text : `${cutText(text, max - 1)}…`;
}

/** The first `length` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
function cutText(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
