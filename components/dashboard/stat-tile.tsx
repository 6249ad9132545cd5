import type { ReactNode } from "react";
import { cx } from "../ui";

export type Delta = { text: string; tone: "bad" | "good" | "neutral" };

const toneClass = { bad: "text-red-700", good: "text-emerald-700", neutral: "text-slate-500" } as const;

/** One headline number with what it is compared with. */
export function StatTile({
  label,
  value,
  unit,
  delta,
  detail,
  testId,
}: {
  label: ReactNode;
  value: ReactNode;
  unit?: ReactNode;
  delta?: Delta;
  detail?: ReactNode;
  testId?: string;
}) {
  return (
    <section data-testid={testId} className="flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <h2 className="truncate text-xs font-medium text-slate-500">{label}</h2>
      <p className="mt-1 flex items-baseline gap-1.5">
        <span data-testid={testId ? `${testId}-value` : undefined} className="text-2xl font-semibold tabular-nums text-slate-900">
          {value}
        </span>
        {unit && <span className="text-slate-500">{unit}</span>}
      </p>
      {delta && <p className={cx("mt-0.5 text-xs font-medium tabular-nums", toneClass[delta.tone])}>{delta.text}</p>}
      {detail && <p className="mt-1 text-xs text-slate-500">{detail}</p>}
    </section>
  );
}
