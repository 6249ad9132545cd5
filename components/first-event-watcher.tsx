"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { formatDateTimeZoned } from "../isomorphic/time-zone";
import { useTRPC } from "./trpc-provider";

/** How often an empty project asks whether its first call has arrived (one indexed row). */
const FIRST_EVENT_POLL_MS = 2_000;
/** How long "First event received" shows before the overview renders with the call. */
const SHOW_MS = 4_000;

/**
 * The empty project's overview waiting for its first call: it asks for the newest call every
 * two seconds while the tab is visible, and once one is stored says so, shows it, and renders
 * the overview again (which then shows the call and where it landed).
 */
export function FirstEventWatcher({ slug, zone }: { slug: string; zone: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const newest = useQuery({
    ...trpc.calls.list.queryOptions({ project: slug, filter: {}, limit: 1 }),
    refetchInterval: (query) => (query.state.data?.calls.length ? false : FIRST_EVENT_POLL_MS),
    refetchIntervalInBackground: false,
  });
  const call = newest.data?.calls[0];
  useEffect(() => {
    if (!call) return;
    const timer = window.setTimeout(() => router.refresh(), SHOW_MS);
    return () => window.clearTimeout(timer);
  }, [call, router]);

  const link = "font-medium text-indigo-700 underline-offset-2 hover:underline";
  return (
    <div role="status" aria-live="polite" data-testid="first-event">
      {call ? (
        <section className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
          <h2 className="font-semibold">First event received</h2>
          <p className="mt-1">
            <Link href={`/p/${slug}/calls/${encodeURIComponent(call.id)}`} className={`${link} font-mono text-[13px] break-all`}>
              {call.tool}
            </Link>{" "}
            at {formatDateTimeZoned(call.timestamp, zone)}
            {call.valid === null ? ", unchecked (no schema yet)" : call.valid ? ", valid" : ", invalid"}. The overview opens with it in a moment.
          </p>
        </section>
      ) : (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden />
          Waiting for the first event: this page updates by itself when it arrives.
        </p>
      )}
    </div>
  );
}
