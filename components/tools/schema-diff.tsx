import { diffArguments, type DiffLine } from "../calls/json-diff";
import { cx } from "../ui";

/** Strings as they read (descriptions hold quotes of their own), other values as JSON. */
const show = (value: unknown) => (typeof value === "string" ? `"${value}"` : (JSON.stringify(value) ?? ""));

/** What a suggestion changes in the tool (description and schema), one line per changed value. */
export function SchemaDiff({ before, after }: { before: unknown; after: unknown }) {
  const lines = diffArguments(before, after).filter((l) => l.op !== "same");
  return (
    <div
      role="table"
      aria-label="Schema diff"
      data-testid="schema-diff"
      className="overflow-hidden rounded-md border border-slate-200 font-mono text-xs leading-relaxed"
    >
      {lines.map((line) => (
        <DiffLines key={`${line.op}:${line.path}`} line={line} />
      ))}
    </div>
  );
}

function DiffLines({ line }: { line: DiffLine }) {
  const row = (sign: "−" | "+", value: unknown) => (
    <div
      role="row"
      className={cx(
        "grid grid-cols-[1.25rem_1fr] border-b border-slate-100 last:border-b-0",
        sign === "+" ? "bg-emerald-50 text-emerald-900" : "bg-red-50 text-red-900",
      )}
    >
      <span role="cell" className="select-none py-1 text-center opacity-70" aria-label={sign === "+" ? "added" : "removed"}>
        {sign}
      </span>
      <span role="cell" className="min-w-0 whitespace-pre-wrap break-words py-1 pr-3">
        <span className="font-medium">{line.path}</span>: {show(value)}
      </span>
    </div>
  );
  return (
    <>
      {(line.op === "removed" || line.op === "changed") && row("−", line.before)}
      {(line.op === "added" || line.op === "changed") && row("+", line.after)}
    </>
  );
}
