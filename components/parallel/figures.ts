import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";
import { formatCount, formatPercent, MISSING } from "../../contracts/format-number";

export type ParallelFigures = inferRouterOutputs<AppRouter>["parallel"]["tool"];

export type ParallelCell = { value: string; detail: string };

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * What the parallel-calls card and table show for one scope (docs/events.md, "Parallel calls"):
 * the share of calls made in parallel, of parallel turns where one call failed while another
 * succeeded, and of answers that kept their call id; "insufficient data" below the groups needed,
 * "not known" where no source told (only OTLP tool messages do).
 */
export function parallelCells(f: ParallelFigures): { inParallel: ParallelCell; mixed: ParallelCell; idKept: ParallelCell } {
  const few = `${plural(f.groups, "parallel turn", "parallel turns")}, ${formatCount(f.minGroups)} needed`;
  return {
    inParallel: {
      value: f.shares.inParallel === null ? MISSING : formatPercent(f.shares.inParallel),
      detail: f.calls ? `${formatCount(f.inParallel)} of ${plural(f.calls, "call", "calls")} with a turn` : "no call reported its turn",
    },
    mixed: {
      value: f.shares.mixed === null ? "insufficient data" : formatPercent(f.shares.mixed),
      detail: f.shares.mixed === null ? few : `${formatCount(f.mixed)} of ${plural(f.groups, "parallel turn", "parallel turns")}`,
    },
    idKept: {
      value: f.shares.idKept !== null ? formatPercent(f.shares.idKept) : f.groups < f.minGroups ? "insufficient data" : "not known",
      detail:
        f.shares.idKept !== null
          ? `${formatCount(f.idKept)} of ${plural(f.idKnown, "answer", "answers")} named their call`
          : f.groups < f.minGroups
            ? few
            : `${plural(f.idKnown, "answer", "answers")} told: only OpenTelemetry tool messages say`,
    },
  };
}
