import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";
import { formatCount } from "../../contracts/format-number";
import { asOfNote } from "../dashboard/as-of";
import { StatTile } from "../dashboard/stat-tile";
import { Card, ScrollRegion } from "../ui";
import { parallelCells, type ParallelFigures } from "./figures";

type ModelsAnswer = inferRouterOutputs<AppRouter>["parallel"]["models"];

const DESCRIPTION = "Calls one model response requested together (the same turn of a run)";
const cut = (f: Pick<ParallelFigures, "truncated">) => (f.truncated ? " · the newest 500 calls with a turn of the range" : "");
const NO_TURNS = "No call in this range reported its turn: the SDKs and OpenTelemetry ingestion record it, ingest.batch takes it as the event's turn.";

/** A tool's parallel calls (parallel.tool): three figures, each with what it is a share of. */
export function ParallelCallsCard({ figures, zone }: { figures: ParallelFigures; zone: string }) {
  const cells = parallelCells(figures);
  return (
    <Card title="Parallel calls" description={`${DESCRIPTION}${cut(figures)}${asOfNote(figures.asOf, zone)}`}>
      {figures.calls === 0 ? (
        <p className="text-slate-500" data-testid="parallel-empty">
          {NO_TURNS}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="parallel-calls">
          <StatTile testId="parallel-share" label="Made in parallel" value={cells.inParallel.value} detail={cells.inParallel.detail} />
          <StatTile testId="parallel-mixed" label="One failed, another succeeded" value={cells.mixed.value} detail={cells.mixed.detail} />
          <StatTile testId="parallel-id-kept" label="Results kept their call id" value={cells.idKept.value} detail={cells.idKept.detail} />
        </div>
      )}
    </Card>
  );
}

const COLUMNS = ["Made in parallel", "One failed, another succeeded", "Results kept their call id"] as const;
const versionLabel = (v: { model: string; version: string | null }) => (v.version ? `${v.model} ${v.version}` : `${v.model} (no version)`);

/** The models page's parallel calls (parallel.models): one row per version that reported turns. */
export function ParallelCallsByModel({ versions, zone }: { versions: ModelsAnswer; zone: string }) {
  const shown = versions.filter((v) => v.calls > 0);
  return (
    <Card
      title="Parallel calls by model version"
      description={`${DESCRIPTION}${shown.some((v) => v.truncated) ? cut({ truncated: true }) : ""}${asOfNote(versions[0]?.asOf, zone)}`}
    >
      {shown.length === 0 ? (
        <p className="text-slate-500" data-testid="parallel-empty">
          {NO_TURNS}
        </p>
      ) : (
        <ScrollRegion label="Parallel calls by model version">
          <table className="stack-table w-full text-sm" data-testid="parallel-by-model">
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
                <th className="py-1.5 pr-3 font-medium">Model version</th>
                {COLUMNS.map((label) => (
                  <th key={label} className="py-1.5 pr-3 text-right font-medium last:pr-0">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((v) => {
                const cells = parallelCells(v);
                return (
                  <tr key={`${v.model} ${v.version}`} className="border-b border-slate-100 last:border-0" data-testid="parallel-model-row">
                    <td className="py-1.5 pr-3">{versionLabel(v)}</td>
                    {[cells.inParallel, cells.mixed, cells.idKept].map((cell, i) => (
                      <td key={i} className="py-1.5 pr-3 num last:pr-0" data-label={COLUMNS[i]}>
                        <span className="font-medium text-slate-900">{cell.value}</span>
                        <span className="block text-xs text-slate-500">{cell.detail}</span>
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {shown.length > 0 && shown.length < versions.length && (
        <p className="mt-2 text-xs text-slate-500">
          {formatCount(versions.length - shown.length)} other {versions.length - shown.length === 1 ? "version" : "versions"} reported no turn.
        </p>
      )}
    </Card>
  );
}
