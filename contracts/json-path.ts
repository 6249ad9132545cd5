// Human paths into tool arguments: `loannumber`, `filters.status`, `items[2].qty`,
// `["odd key"].x`; "" is the whole value. The one notation of the classifier's messages
// (isomorphic/classify.ts) and of the UI that highlights the failing value. Pure and browser-safe.

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** Appends one key or array index to a path. */
export function joinPath(base: string, segment: PathSegment): string {
  if (typeof segment === "number") return `${base}[${segment}]`;
  if (IDENTIFIER.test(segment)) return base ? `${base}.${segment}` : segment;
  return `${base}[${JSON.stringify(segment)}]`;
}

export function formatPath(segments: readonly PathSegment[]): string {
  return segments.reduce<string>((path, segment) => joinPath(path, segment), "");
}

/**
 * Segments of a human path; null when the text is not one (a path this notation cannot
 * produce). `items[2]` is an array index, `["2"]` an object key.
 */
export function parsePath(path: string): PathSegment[] | null {
  const segments: PathSegment[] = [];
  let rest = path.trim();
  let first = true;
  while (rest) {
    let match: RegExpMatchArray | null;
    if ((match = rest.match(first ? /^([A-Za-z_$][\w$-]*)/ : /^\.([A-Za-z_$][\w$-]*)/))) {
      segments.push(match[1]!);
    } else if ((match = rest.match(/^\[(\d+)\]/))) {
      segments.push(Number(match[1]));
    } else if ((match = rest.match(/^\[("(?:[^"\\]|\\.)*")\]/))) {
      try {
        segments.push(JSON.parse(match[1]!) as string);
      } catch {
        return null;
      }
    } else {
      return null;
    }
    rest = rest.slice(match[0].length);
    first = false;
  }
  return segments;
}

export function samePath(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The longest prefix of `segments` that exists in `value`: where a missing argument
 * belongs (its parent object), or the offending value itself when it exists.
 */
export function existingPrefix(value: unknown, segments: readonly PathSegment[]): PathSegment[] {
  const found: PathSegment[] = [];
  let current = value;
  for (const segment of segments) {
    if (typeof segment === "number" ? Array.isArray(current) && segment < current.length : isObject(current) && Object.hasOwn(current, segment)) {
      current = (current as Record<string | number, unknown>)[segment];
      found.push(segment);
    } else break;
  }
  return found;
}

/**
 * Arguments as the UI shows them: objects as they are; a string that holds JSON is parsed
 * (harnesses sometimes send the raw text of valid JSON); other strings stay raw text.
 */
export function parsedArguments(args: unknown): { kind: "json"; value: unknown } | { kind: "raw"; text: string } {
  if (typeof args !== "string") return { kind: "json", value: args };
  try {
    return { kind: "json", value: JSON.parse(args) as unknown };
  } catch {
    return { kind: "raw", text: args };
  }
}
