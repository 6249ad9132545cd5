"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useRef, useTransition } from "react";
import { buttonClass, cx } from "../ui";
import { useEscapeCloses } from "./use-escape-closes";
import { formatCount } from "../../contracts/format-number";

/**
 * Which series a chart draws, kept in the URL (`?tools=a,b`): the top N by default, any
 * other ticked here. Going back to the default removes the parameter.
 */
export function SeriesPicker({
  param,
  noun,
  options,
  shown,
  defaults,
  colors,
}: {
  param: string;
  noun: string;
  options: { key: string; volume: number }[];
  shown: string[];
  defaults: string[];
  colors: Record<string, string>;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [pending, startTransition] = useTransition();
  const details = useRef<HTMLDetailsElement>(null);
  useEscapeCloses(details);

  function apply(next: string[]) {
    const params = new URLSearchParams(search.toString());
    const ordered = options.map((o) => o.key).filter((k) => next.includes(k));
    const isDefault = ordered.length === defaults.length && defaults.every((k) => ordered.includes(k));
    if (isDefault) params.delete(param);
    else params.set(param, ordered.join(","));
    const query = params.toString();
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname, { scroll: false }));
  }

  return (
    <details ref={details} className="group relative" data-testid={`series-picker-${param}`}>
      <summary className={cx(buttonClass("secondary", "sm"), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        {shown.length} of {options.length} {noun}
        <span aria-hidden className="text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-72 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
        <fieldset disabled={pending} className="max-h-72 overflow-y-auto">
          <legend className="sr-only">Series to draw</legend>
          {options.map((o) => {
            const checked = shown.includes(o.key);
            return (
              <label key={o.key} className="flex cursor-pointer items-center gap-2 px-3 py-1.5 hover:bg-slate-50">
                <input
                  type="checkbox"
                  className="size-3.5 accent-indigo-600"
                  checked={checked}
                  // the last series cannot be unticked: a chart without lines says nothing
                  disabled={checked && shown.length === 1}
                  onChange={() => apply(checked ? shown.filter((k) => k !== o.key) : [...shown, o.key])}
                />
                <span aria-hidden className="size-2.5 shrink-0 rounded-sm" style={{ background: colors[o.key] }} />
                <span className="min-w-0 flex-1 truncate font-mono text-xs text-slate-800">{o.key}</span>
                <span className="text-xs tabular-nums text-slate-500">{formatCount(o.volume)}</span>
              </label>
            );
          })}
        </fieldset>
        <div className="mt-1 flex justify-between border-t border-slate-100 px-3 pt-1.5 pb-0.5">
          <button type="button" className="text-xs font-medium text-indigo-700 hover:underline" onClick={() => apply(defaults)}>
            Top {defaults.length}
          </button>
          <button type="button" className="text-xs font-medium text-indigo-700 hover:underline" onClick={() => apply(options.map((o) => o.key))}>
            All {options.length}
          </button>
        </div>
      </div>
    </details>
  );
}
