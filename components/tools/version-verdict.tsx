import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import type { VersionComparison } from "../../isomorphic/version-comparison";
import { formatCount, formatPValue, formatPercent, formatPp } from "../../contracts/format-number";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { Alert, Badge, Table, td, th } from "../ui";
import { HOUR_MS } from "../../contracts/metrics";

export type VersionImpact = {
  version: string;
  previousVersion: string;
  /** whether both windows lie inside the page's range (else they are the newest change's, outside it) */
  inRange: boolean;
  marker: string;
  before: { from: string; to: string };
  after: { from: string; to: string };
  overall: VersionComparison;
  byCategory: VersionComparison[];
};

const TONE = { better: "green", worse: "red", "no clear difference": "slate", "insufficient data": "amber" } as const;

function headline(impact: VersionImpact) {
  const { verdict, a, b } = impact.overall;
  const rates = `invalid rate ${formatPercent(a.rate)} before, ${formatPercent(b.rate)} after`;
  switch (verdict) {
    case "better":
      return { tone: "success" as const, text: `The change helped: ${rates}, a clear drop (two-proportion test).` };
    case "worse":
      return { tone: "error" as const, text: `The change made things worse: ${rates}, a clear rise (two-proportion test).` };
    case "no clear difference":
      return { tone: "info" as const, text: `No clear difference yet: ${rates}; the test cannot tell them apart.` };
    default:
      return { tone: "warning" as const, text: `Too few calls to tell yet: ${rates}.` };
  }
}

/** Before/after the newest schema version: overall and per category, with the model comparison's verdicts. */
export function VersionVerdict({ impact, zone }: { impact: VersionImpact; zone: string }) {
  const head = headline(impact);
  const span = (r: { from: string; to: string }) => {
    const hours = Math.round((Date.parse(r.to) - Date.parse(r.from)) / HOUR_MS);
    const length = hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? "" : "s"}` : `${hours} hour${hours === 1 ? "" : "s"}`;
    return `${length} from ${formatDateTimeZoned(r.from, zone)}`;
  };
  return (
    <div className="space-y-4" data-testid="version-verdict" data-verdict={impact.overall.verdict} data-in-range={String(impact.inRange)}>
      <Alert tone={head.tone}>{head.text}</Alert>
      <p className="text-xs text-slate-500" data-testid="version-windows">
        Version <span className="font-mono">{impact.version.slice(0, 7)}</span> replaced <span className="font-mono">{impact.previousVersion.slice(0, 7)}</span>{" "}
        on {formatDateTimeZoned(impact.marker, zone)}; compared: {span(impact.before)} against {span(impact.after)} ({formatCount(impact.overall.a.n)} and{" "}
        {formatCount(impact.overall.b.n)} calls),{" "}
        {impact.inRange ? (
          "inside the selected range."
        ) : (
          <strong className="font-medium text-amber-800">
            outside the selected range: no schema change falls inside it, so these are the newest change&apos;s windows.
          </strong>
        )}
      </p>
      {impact.byCategory.length > 0 && (
        <Table label="Categories before and after the schema change">
          <thead>
            <tr>
              <th className={th}>Category</th>
              <th className={`${th} text-right`}>Before</th>
              <th className={`${th} text-right`}>After</th>
              <th className={`${th} text-right`}>Change</th>
              <th className={`${th} text-right`}>p-value</th>
              <th className={th}>Verdict</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {impact.byCategory.map((c) => (
              <tr key={c.key}>
                <td className={td}>{CATEGORY_LABELS[c.key as Category] ?? c.key}</td>
                <td data-label="Before" className={`${td} text-right tabular-nums`}>
                  {formatPercent(c.a.rate)}
                </td>
                <td data-label="After" className={`${td} text-right tabular-nums`}>
                  {formatPercent(c.b.rate)}
                </td>
                <td data-label="Change" className={`${td} text-right tabular-nums`}>
                  {formatPp(c.diff)}
                </td>
                <td data-label="p" className={`${td} text-right tabular-nums`}>
                  {formatPValue(c.pValue)}
                </td>
                <td className={td}>
                  <Badge tone={TONE[c.verdict]}>{c.verdict}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
