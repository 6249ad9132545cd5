import Link from "next/link";
import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { Sparkline } from "../charts";
import { categoryColor } from "../charts/prepare";
import { formatCount, formatPercent } from "../../contracts/format-number";
import { RECOVERED_MEANING, recoveryTitle } from "../../isomorphic/recovery";
import { num, Table, td, th } from "../ui";
import { Ticks } from "./ticks";
import type { FailurePatternRow } from "./types";

const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? (category || "Invalid");

/** A tool's invalid calls grouped by what went wrong where: count, share, trend per day, recovery and example calls. */
export function PatternsTable({ patterns, callHref, limit = 12 }: { patterns: FailurePatternRow[]; callHref: (id: string) => string; limit?: number }) {
  const shown = patterns.slice(0, limit);
  return (
    <Table label="Failure patterns">
      <thead>
        <tr>
          <th className={th}>What went wrong</th>
          <th className={`${th} text-right`}>Calls</th>
          <th className={th}>Share of failures</th>
          <th className={th}>Per day</th>
          <th className={`${th} text-right`} title={RECOVERED_MEANING}>
            Recovered
          </th>
          <th className={th}>Examples</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100" data-testid="failure-patterns">
        {shown.map((p) => (
          <tr key={p.key} data-testid="failure-pattern">
            <td className={`${td} max-w-md whitespace-normal`}>
              <span className="mb-0.5 flex items-center gap-1.5 text-xs text-slate-500">
                <span className="inline-block h-2 w-2 rounded-full" style={{ backgroundColor: categoryColor(p.category) }} aria-hidden />
                {categoryLabel(p.category)}
              </span>
              <span className="text-slate-900">
                <Ticks text={p.label} />
              </span>
            </td>
            <td data-label="Failures" className={`${td} ${num} font-medium text-slate-900`}>
              {formatCount(p.failures)}
            </td>
            <td className={td}>
              <div className="flex items-center gap-2">
                <div className="h-1.5 w-20 overflow-hidden rounded-full bg-slate-100">
                  <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.max(2, p.share * 100)}%` }} />
                </div>
                <span className="tabular-nums text-xs text-slate-600">{formatPercent(p.share, { digits: 0 })}</span>
              </div>
            </td>
            <td className={td}>
              <Sparkline values={p.trend} colorKey={p.category} color={categoryColor(p.category)} width={96} height={24} />
            </td>
            <td
              className={`${td} ${num} ${p.recoveryRate !== null && p.recoveryRate < 0.6 ? "text-red-700" : "text-slate-700"}`}
              title={recoveryTitle(p)}
              data-testid="pattern-recovered"
            >
              {formatPercent(p.recoveryRate, { digits: 0 })}
            </td>
            <td className={td}>
              <span className="flex gap-2 text-xs">
                {p.examples.map((id, i) => (
                  <Link key={id} href={callHref(id)} title={id} className="font-medium text-indigo-700 hover:underline" data-testid="pattern-example">
                    #{i + 1}
                  </Link>
                ))}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
