import type { ReactNode } from "react";
import { cx } from "../ui";
import { existingPrefix, formatPath, parsedArguments, parsePath, samePath, type PathSegment } from "../../isomorphic/json-path";

/**
 * Pretty JSON as React text (never HTML), two spaces per level, with the value at
 * `highlightPath` marked red and labelled for assistive technology. A path that points
 * at a missing argument marks the object it is missing from. Server-renderable.
 */
export function JsonView({
  value,
  highlightPath,
  label = "JSON",
  className,
}: {
  value: unknown;
  /** validator notation: "loannumber", "filters.status", "items[2].qty"; "" = the whole value; null/undefined = nothing */
  highlightPath?: string | null;
  label?: string;
  className?: string;
}) {
  const target = highlight(value, highlightPath);
  const lines = render(value, { path: [], depth: 0, key: undefined, comma: false, target });
  return (
    <div role="region" aria-label={label} className={cx(block, className)}>
      {lines}
    </div>
  );
}

/** Tool-call arguments: JSON when they are JSON, otherwise the raw text the model wrote (marked whole when highlighted). */
export function ArgumentsView({ args, highlightPath, label = "Arguments" }: { args: unknown; highlightPath?: string | null; label?: string }) {
  const parsed = parsedArguments(args);
  if (parsed.kind === "json") return <JsonView value={parsed.value} highlightPath={highlightPath} label={label} />;
  const marked = highlightPath === "";
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">Not valid JSON: shown exactly as the model wrote it.</p>
      <div role="region" aria-label={label} className={block}>
        {marked ? (
          <div role="group" aria-label="Failing value: the whole arguments" data-testid="json-highlight" className={markClass}>
            {parsed.text}
          </div>
        ) : (
          parsed.text
        )}
      </div>
    </div>
  );
}

const block =
  "overflow-x-auto whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2.5 font-mono text-[13px] leading-relaxed text-slate-800";
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

type Ctx = { path: PathSegment[]; depth: number; key: PathSegment | undefined; comma: boolean; target: Target };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function Scalar({ value }: { value: unknown }) {
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
      <span className="text-slate-400">: </span>
    </>
  ) : null;
}

function render(value: unknown, ctx: Ctx): ReactNode[] {
  const id = ctx.path.map(String).join("\u0000") || "root";
  const comma = ctx.comma ? <span className="text-slate-400">,</span> : null;
  let lines: ReactNode[];
  const entries: [PathSegment, unknown][] | null = Array.isArray(value) ? value.map((v, i) => [i, v]) : isObject(value) ? Object.entries(value) : null;
  if (entries && entries.length > 0) {
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    lines = [
      <Line key={`${id}:open`} depth={ctx.depth}>
        {keyPrefix(ctx.key)}
        <span className="text-slate-400">{open}</span>
      </Line>,
      ...entries.flatMap(([k, v], i) => render(v, { path: [...ctx.path, k], depth: ctx.depth + 1, key: k, comma: i < entries.length - 1, target: ctx.target })),
      <Line key={`${id}:close`} depth={ctx.depth}>
        <span className="text-slate-400">{close}</span>
        {comma}
      </Line>,
    ];
  } else {
    lines = [
      <Line key={id} depth={ctx.depth}>
        {keyPrefix(ctx.key)}
        {entries ? <span className="text-slate-400">{Array.isArray(value) ? "[]" : "{}"}</span> : <Scalar value={value} />}
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
