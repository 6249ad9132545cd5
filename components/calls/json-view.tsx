import type { ReactNode } from "react";
import { cx } from "../ui";
import { existingPrefix, formatPath, parsedArguments, parsePath, samePath, type PathSegment } from "../../contracts/json-path";
import { formatCount } from "../../contracts/format-number";

/**
 * What one view shows of a value at most: nesting levels, entries per object or array,
 * characters per string, and lines in all. Beyond them a "… N more" marker stands in, so
 * that a hostile or huge value (thousands of levels, megabytes) still renders a small page;
 * `rawHref` then links to the whole value.
 */
const JSON_VIEW_LIMITS = { depth: 20, entries: 200, stringChars: 2_000, lines: 2_000 };

/**
 * Pretty JSON as React text (never HTML), two spaces per level, with the value at
 * `highlightPath` marked red and labelled for assistive technology. A path that points
 * at a missing argument marks the object it is missing from. Large or deep values are
 * cut at JSON_VIEW_LIMITS with markers. Server-renderable.
 */
export function JsonView({
  value,
  highlightPath,
  label = "JSON",
  className,
  rawHref,
}: {
  value: unknown;
  /** validator notation: "loannumber", "filters.status", "items[2].qty"; "" = the whole value; null/undefined = nothing */
  highlightPath?: string | null;
  label?: string;
  className?: string;
  /** where to download the whole value when this view is cut */
  rawHref?: string;
}) {
  const target = highlight(value, highlightPath);
  const budget = { lines: JSON_VIEW_LIMITS.lines, cut: false };
  const lines = render(value, { path: [], depth: 0, key: undefined, comma: false, target, budget });
  if (budget.lines < 0) lines.push(<More key="more-lines" depth={0} text="… the rest is not shown (line limit)" />);
  return (
    <div className={cx("space-y-2", className)}>
      {budget.cut && <CutNotice rawHref={rawHref} />}
      <div role="region" aria-label={label} tabIndex={0} className={block}>
        {lines}
      </div>
    </div>
  );
}

function CutNotice({ rawHref }: { rawHref?: string }) {
  const { depth, entries, stringChars } = JSON_VIEW_LIMITS;
  return (
    <p className="text-xs text-slate-500" data-testid="json-cut">
      Large value: shown cut at {depth} levels, {entries} entries per level and {formatCount(stringChars)} characters per string.{" "}
      {rawHref && (
        <a href={rawHref} download className="font-medium text-indigo-700 underline underline-offset-2" data-testid="json-raw-download">
          Download the raw JSON
        </a>
      )}
    </p>
  );
}

function More({ depth, text }: { depth: number; text: string }) {
  return (
    <Line depth={depth}>
      <span className="italic text-slate-600" data-testid="json-more">
        {text}
      </span>
    </Line>
  );
}

/** True when showing `value` whole would pass JSON_VIEW_LIMITS (walked without recursion, stops early). */
export function exceedsViewLimits(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (++nodes > JSON_VIEW_LIMITS.lines) return true;
    if (typeof v === "string" && v.length > JSON_VIEW_LIMITS.stringChars) return true;
    if (typeof v !== "object" || v === null) continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (children.length > JSON_VIEW_LIMITS.entries || (children.length && depth >= JSON_VIEW_LIMITS.depth)) return true;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Tool-call arguments: JSON when they are JSON, otherwise the raw text the model wrote (marked whole when highlighted). */
export function ArgumentsView({
  args,
  highlightPath,
  label = "Arguments",
  rawHref,
}: {
  args: unknown;
  highlightPath?: string | null;
  label?: string;
  rawHref?: string;
}) {
  const parsed = parsedArguments(args);
  if (parsed.kind === "json") return <JsonView value={parsed.value} highlightPath={highlightPath} label={label} rawHref={rawHref} />;
  const marked = highlightPath === "";
  const cut = parsed.text.length > JSON_VIEW_LIMITS.stringChars * 10;
  const text = cut ? parsed.text.slice(0, JSON_VIEW_LIMITS.stringChars * 10) : parsed.text;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">Not valid JSON: shown exactly as the model wrote it.</p>
      {cut && <CutNotice rawHref={rawHref} />}
      <div role="region" aria-label={label} tabIndex={0} className={block}>
        {marked ? (
          <div role="group" aria-label="Failing value: the whole arguments" data-testid="json-highlight" className={markClass}>
            {text}
          </div>
        ) : (
          text
        )}
        {cut && <More depth={0} text={`… ${plural(parsed.text.length - text.length, "more character", "more characters")}`} />}
      </div>
    </div>
  );
}

const block =
  "overflow-x-auto whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2.5 font-mono text-[13px] leading-relaxed text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";
const markClass = "-mx-1.5 rounded border-l-2 border-red-500 bg-red-100/80 px-1.5";

type Target = { segments: PathSegment[]; label: string } | null;

function highlight(value: unknown, path: string | null | undefined): Target {
  if (path === null || path === undefined) return null;
  const wanted = parsePath(path);
  if (!wanted) return null;
  const found = existingPrefix(value, wanted);
  if (found.length === wanted.length) return { segments: found, label: path === "" ? "Failing value: the whole arguments" : `Failing value: ${path}` };
  const where = found.length ? formatPath(found) : "the arguments";
  return { segments: found, label: `Missing: '${path}' is not in ${where}` };
}

type Ctx = {
  path: PathSegment[];
  depth: number;
  key: PathSegment | undefined;
  comma: boolean;
  target: Target;
  /** lines left to render (below 0: some were left out), and whether anything was cut */
  budget: { lines: number; cut: boolean };
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function Scalar({ value }: { value: unknown }) {
  if (typeof value === "string" && value.length > JSON_VIEW_LIMITS.stringChars) {
    const shown = JSON.stringify(value.slice(0, JSON_VIEW_LIMITS.stringChars)).slice(0, -1);
    return (
      <>
        <span className="text-emerald-700">{shown}</span>
        <span className="italic text-slate-600" data-testid="json-more">
          {" "}
          … {plural(value.length - JSON_VIEW_LIMITS.stringChars, "more character", "more characters")}
        </span>
      </>
    );
  }
  if (typeof value === "string") return <span className="text-emerald-700">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="text-blue-700">{String(value)}</span>;
  if (typeof value === "boolean" || value === null) return <span className="text-violet-700">{String(value)}</span>;
  return <span className="text-slate-500">{JSON.stringify(value) ?? "undefined"}</span>;
}

function Line({ depth, children }: { depth: number; children: ReactNode }) {
  return <div style={depth ? { paddingLeft: `${depth * 2}ch` } : undefined}>{children}</div>;
}

function keyPrefix(key: PathSegment | undefined) {
  return typeof key === "string" ? (
    <>
      <span className="text-slate-700">{JSON.stringify(key)}</span>
      <span className="text-slate-500">: </span>
    </>
  ) : null;
}

function render(value: unknown, ctx: Ctx): ReactNode[] {
  const { budget } = ctx;
  if (budget.lines-- <= 0) {
    budget.cut = true;
    return [];
  }
  if (typeof value === "string" && value.length > JSON_VIEW_LIMITS.stringChars) budget.cut = true;
  const id = ctx.path.map(String).join("\u0000") || "root";
  const comma = ctx.comma ? <span className="text-slate-500">,</span> : null;
  let lines: ReactNode[];
  const size = Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : null;
  if (size && ctx.depth >= JSON_VIEW_LIMITS.depth) {
    budget.cut = true;
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    lines = [
      <Line key={id} depth={ctx.depth}>
        {keyPrefix(ctx.key)}
        <span className="text-slate-500">{open}</span>
        <span className="italic text-slate-600" data-testid="json-more">
          … {plural(size, "entry", "entries")} nested deeper
        </span>
        <span className="text-slate-500">{close}</span>
        {comma}
      </Line>,
    ];
  } else if (size) {
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    const shown: [PathSegment, unknown][] = Array.isArray(value)
      ? value.slice(0, JSON_VIEW_LIMITS.entries).map((v, i) => [i, v])
      : Object.entries(value as Record<string, unknown>).slice(0, JSON_VIEW_LIMITS.entries);
    const hidden = size - shown.length;
    if (hidden) budget.cut = true;
    lines = [
      <Line key={`${id}:open`} depth={ctx.depth}>
        {keyPrefix(ctx.key)}
        <span className="text-slate-500">{open}</span>
      </Line>,
      ...shown.flatMap(([k, v], i) => render(v, { ...ctx, path: [...ctx.path, k], depth: ctx.depth + 1, key: k, comma: i < size - 1 })),
      ...(hidden ? [<More key={`${id}:more`} depth={ctx.depth + 1} text={`… ${plural(hidden, "more entry", "more entries")}`} />] : []),
      <Line key={`${id}:close`} depth={ctx.depth}>
        <span className="text-slate-500">{close}</span>
        {comma}
      </Line>,
    ];
  } else {
    const entries = size === 0;
    lines = [
      <Line key={id} depth={ctx.depth}>
        {keyPrefix(ctx.key)}
        {entries ? <span className="text-slate-500">{Array.isArray(value) ? "[]" : "{}"}</span> : <Scalar value={value} />}
        {comma}
      </Line>,
    ];
  }
  if (ctx.target && samePath(ctx.path, ctx.target.segments)) {
    return [
      <div key={`${id}:mark`} role="group" aria-label={ctx.target.label} title={ctx.target.label} data-testid="json-highlight" className={markClass}>
        {lines}
      </div>,
    ];
  }
  return lines;
}
