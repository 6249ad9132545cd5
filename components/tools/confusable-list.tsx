import Link from "next/link";
import { formatPercent } from "../../contracts/format-number";
import { Ticks } from "./ticks";
import type { ConfusablePairRow } from "./types";

/** A pair's evidence in words: its switches, the unknown names as close to either, its descriptions' overlap. */
function pairEvidence(p: Pick<ConfusablePairRow, "switches" | "ambiguousNames" | "descriptionOverlap">): string {
  return [
    p.switches > 0 && `${p.switches} switch${p.switches === 1 ? "" : "es"} after a refused or failed call`,
    p.ambiguousNames.length > 0 && `names as close to either: ${p.ambiguousNames.map((n) => `${n.name} (${n.calls}×)`).join(", ")}`,
    p.descriptionOverlap && `descriptions share ${formatPercent(p.descriptionOverlap.score, { digits: 0 })} of their words`,
  ]
    .filter(Boolean)
    .join("; ");
}

/**
 * The tool page's "Confused with": each pair with this tool, its evidence (switches, ambiguous
 * names, overlapping descriptions, runs) and what to change; without a tool (the definitions page), every pair by both names.
 */
export function ConfusableList({
  tool,
  pairs,
  toolHref,
  runHref,
}: {
  tool?: string;
  pairs: ConfusablePairRow[];
  toolHref: (name: string) => string;
  runHref: (id: string) => string;
}) {
  return (
    <ul className="space-y-4">
      {pairs.map((p) => {
        const shown = tool === undefined ? p.tools : [p.tools[0] === tool ? p.tools[1] : p.tools[0]];
        return (
          <li key={p.tools.join("\t")} className="space-y-1" data-testid="confusable-pair">
            <p className="font-medium break-words">
              {shown.map((name, i) => (
                <span key={name}>
                  {i > 0 && " ↔ "}
                  <Link href={toolHref(name)} className="font-mono text-indigo-700 hover:underline">
                    {name}
                  </Link>
                </span>
              ))}{" "}
              <span className="font-normal text-slate-600">— {pairEvidence(p)}</span>
            </p>
            {p.runs.length > 0 && (
              <p className="text-sm break-words text-slate-600">
                Runs:{" "}
                {p.runs.map((r, i) => (
                  <span key={r.runId + r.failedId}>
                    {i > 0 && ", "}
                    <Link href={runHref(r.runId)} className="font-mono text-indigo-700 hover:underline">
                      {r.runId}
                    </Link>{" "}
                    ({r.from} → {r.to})
                  </span>
                ))}
              </p>
            )}
            {p.descriptionOverlap && <p className="text-sm break-words text-slate-600">Shared wording: {p.descriptionOverlap.sharedWords.join(", ")}</p>}
            <p className="text-sm break-words text-slate-700">
              <Ticks text={p.advice} />
            </p>
          </li>
        );
      })}
    </ul>
  );
}
