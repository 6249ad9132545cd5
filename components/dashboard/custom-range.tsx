"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { withParams } from "../../contracts/range";
import { fromDateTimeInput, toDateTimeInput, zoneName } from "../../isomorphic/time-zone";
import { buttonClass, cx } from "../ui";
import { customRangeProblem } from "./params";
import { useEscapeCloses } from "./use-escape-closes";

/**
 * "Custom…": a start and an end typed or picked in the chosen time zone, applied as
 * `?from=…&to=…` (ISO 8601, UTC) in place of a preset. Escape closes it.
 */
export function CustomRange({
  path,
  params,
  range,
  active,
  zone,
}: {
  path: string;
  params: Record<string, string | undefined>;
  range: { from: string; to: string };
  active: boolean;
  zone: string;
}) {
  const router = useRouter();
  const details = useRef<HTMLDetailsElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEscapeCloses(details);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const from = fromDateTimeInput(String(data.get("from") ?? ""), zone);
    const to = fromDateTimeInput(String(data.get("to") ?? ""), zone);
    const why = customRangeProblem(from, to);
    setProblem(why);
    if (why) return;
    details.current!.open = false;
    router.push(withParams(path, params, { range: undefined, from: new Date(from).toISOString(), to: new Date(to).toISOString() }), { scroll: false });
  }

  const name = zoneName(zone, Date.parse(range.to));
  return (
    <details ref={details} className="group relative" data-testid="custom-range">
      <summary
        aria-current={active ? "true" : undefined}
        className={cx(
          "cursor-pointer list-none rounded-md px-2.5 py-1 text-xs font-medium shadow-sm ring-1 ring-inset ring-slate-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 [&::-webkit-details-marker]:hidden",
          active ? "bg-indigo-50 text-indigo-700" : "bg-white text-slate-600 hover:bg-slate-50 hover:text-slate-900",
        )}
      >
        Custom…
      </summary>
      <form
        onSubmit={apply}
        aria-label="Custom time range"
        className="absolute right-0 z-20 mt-1 w-72 space-y-2 rounded-md border border-slate-200 bg-white p-3 text-xs shadow-lg"
      >
        {(["from", "to"] as const).map((end) => (
          <label key={end} className="block">
            <span className="mb-0.5 block font-medium text-slate-600">
              {end === "from" ? "From" : "To"} ({name})
            </span>
            <input
              type="datetime-local"
              name={end}
              defaultValue={toDateTimeInput(Date.parse(range[end]), zone)}
              className="w-full rounded-md border-0 px-2 py-1 ring-1 ring-inset ring-slate-300"
            />
          </label>
        ))}
        {problem && (
          <p role="alert" className="text-red-700">
            {problem}
          </p>
        )}
        <button type="submit" className={cx(buttonClass("primary", "sm"), "w-full")}>
          Apply range
        </button>
      </form>
    </details>
  );
}
