"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { cx } from "../ui";
import { agoText } from "./format";
import { formatDuration } from "../../contracts/format-number";

/** Refresh intervals (seconds) to choose from; the choice is kept in the browser. */
const REFRESH_INTERVALS = [10, 30, 60, 300] as const;
const DEFAULT_INTERVAL = 30;
const STORAGE_KEY = "toolgate:refresh";

/**
 * A dashboard that reloads its data on an interval (the page's server components render again;
 * the client state, scroll and open menus stay), pausable, saying when it was last updated.
 * Nothing is fetched while the tab is hidden. `renderedAt` changes with every server render.
 */
export function LiveRefresh({ renderedAt }: { renderedAt: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [interval, setIntervalSeconds] = useState<number>(DEFAULT_INTERVAL);
  const [paused, setPaused] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [now, setNow] = useState<number | null>(null);

  useEffect(() => {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (stored === "paused") setPaused(true);
    else if (REFRESH_INTERVALS.includes(Number(stored) as (typeof REFRESH_INTERVALS)[number])) setIntervalSeconds(Number(stored));
  }, []);
  useEffect(() => {
    const t = Date.now();
    setUpdatedAt(t);
    setNow(t);
  }, [renderedAt]);
  useEffect(() => {
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);
  useEffect(() => {
    if (paused) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") startTransition(() => router.refresh());
    }, interval * 1000);
    return () => window.clearInterval(timer);
  }, [paused, interval, router]);

  const remember = (value: string) => window.localStorage.setItem(STORAGE_KEY, value);
  const seconds = updatedAt === null || now === null ? 0 : Math.max(0, (now - updatedAt) / 1000);

  return (
    <div className="flex shrink-0 items-center gap-2 text-xs text-slate-500" data-testid="live-refresh" data-paused={paused || undefined}>
      <span className={cx("inline-block h-2 w-2 rounded-full", paused ? "bg-slate-300" : "bg-emerald-500", pending && "animate-pulse")} aria-hidden />
      <span data-testid="updated-ago" className="tabular-nums">
        {pending ? "Updating…" : `Updated ${agoText(seconds)}`}
      </span>
      <label className="sr-only" htmlFor="refresh-interval">
        Refresh every
      </label>
      <select
        id="refresh-interval"
        value={interval}
        disabled={paused}
        onChange={(e) => {
          setIntervalSeconds(Number(e.target.value));
          remember(e.target.value);
        }}
        className="rounded-md border-0 bg-white py-0.5 pl-1.5 pr-6 text-xs text-slate-700 ring-1 ring-inset ring-slate-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:text-slate-400"
      >
        {REFRESH_INTERVALS.map((s) => (
          <option key={s} value={s}>
            every {formatDuration(s * 1000)}
          </option>
        ))}
      </select>
      <button
        type="button"
        aria-pressed={paused}
        onClick={() => {
          setPaused(!paused);
          remember(paused ? String(interval) : "paused");
        }}
        className="rounded-md px-2 py-0.5 font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        {paused ? "Resume" : "Pause"}
        <span className="sr-only"> automatic refresh</span>
      </button>
    </div>
  );
}
