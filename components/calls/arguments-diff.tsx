import type { ReactNode } from "react";
import { cx } from "../ui";
import { changedCount, diffArguments, type DiffLine, type DiffOp } from "./json-diff";
import { parsedArguments } from "../../isomorphic/json-path";
import { exceedsViewLimits } from "./json-view";

const STYLE: Record<DiffOp, { sign: string; row: string; words: string }> = {
  same: { sign: " ", row: "text-slate-600", words: "unchanged" },
  added: { sign: "+", row: "bg-emerald-50 text-emerald-900", words: "added" },
  removed: { sign: "−", row: "bg-red-50 text-red-900", words: "removed" },
  changed: { sign: "~", row: "bg-amber-50 text-amber-950", words: "changed" },
};

/**
 * The corrected call's arguments against the failed ones, one line per value: what the
 * model changed after reading the error message. All values are React text.
 */
export function ArgumentsDiff({ before, after, beforeTool, afterTool }: { before: unknown; after: unknown; beforeTool?: string; afterTool?: string }) {
  if (exceedsViewLimits(before) || exceedsViewLimits(after)) {
    return (
      <p className="text-xs text-slate-500" data-testid="diff-summary">
        The arguments are too large or too deeply nested to compare here: download the raw JSON of both calls to compare them.
      </p>
    );
  }
  const lines = diffArguments(before, after);
  const raw = { before: parsedArguments(before).kind === "raw", after: parsedArguments(after).kind === "raw" };
  const renamed = beforeTool !== undefined && afterTool !== undefined && beforeTool !== afterTool;
  const changes = changedCount(lines) + (renamed ? 1 : 0);
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500" data-testid="diff-summary">
        {changes === 0 ? "The retry sent exactly the same tool and arguments." : `${changes} ${changes === 1 ? "change" : "changes"} from the failed call.`}
      </p>
      <div
        role="table"
        aria-label="Arguments diff"
        data-testid="arguments-diff"
        className="overflow-hidden rounded-md border border-slate-200 font-mono text-[13px] leading-relaxed"
      >
        {renamed && (
          <DiffRow op="changed" path="(tool name)">
            <Change before={<>{beforeTool}</>} after={<>{afterTool}</>} />
          </DiffRow>
        )}
        {lines.map((line) => (
          <DiffRow key={`${line.op}:${line.path}`} op={line.op} path={line.path || "(arguments)"}>
            <Values line={line} raw={line.path === "" ? raw : { before: false, after: false }} />
          </DiffRow>
        ))}
      </div>
    </div>
  );
}

function DiffRow({ op, path, children }: { op: DiffOp; path: string; children: ReactNode }) {
  const style = STYLE[op];
  return (
    <div role="row" data-op={op} className={cx("grid grid-cols-[1.5rem_10rem_1fr] border-b border-slate-100 last:border-b-0", style.row)}>
      <span role="cell" className="select-none py-1 text-center opacity-70" aria-label={style.words}>
        {style.sign}
      </span>
      <span role="cell" className="break-all py-1 pr-3 font-medium">
        {path}
      </span>
      <span role="cell" className="min-w-0 whitespace-pre-wrap break-all py-1 pr-3">
        {children}
      </span>
    </div>
  );
}

function show(value: unknown, raw: boolean) {
  if (raw && typeof value === "string") return value;
  if (typeof value === "object" && value !== null) return JSON.stringify(value, null, Object.keys(value).length > 2 ? 2 : undefined);
  return JSON.stringify(value) ?? "undefined";
}

function Values({ line, raw }: { line: DiffLine; raw: { before: boolean; after: boolean } }) {
  switch (line.op) {
    case "same":
      return <>{show(line.before, raw.before)}</>;
    case "added":
      return <>{show(line.after, raw.after)}</>;
    case "removed":
      return <span className="line-through decoration-red-400">{show(line.before, raw.before)}</span>;
    case "changed":
      return <Change before={<>{show(line.before, raw.before)}</>} after={<>{show(line.after, raw.after)}</>} />;
  }
}

function Change({ before, after }: { before: ReactNode; after: ReactNode }) {
  return (
    <>
      <del className="rounded-sm bg-red-100 px-0.5 text-red-800 decoration-red-400">{before}</del>
      <span className="px-1.5 text-slate-500" aria-label="changed to">
        →
      </span>
      <ins className="rounded-sm bg-emerald-100 px-0.5 text-emerald-800 no-underline">{after}</ins>
    </>
  );
}
