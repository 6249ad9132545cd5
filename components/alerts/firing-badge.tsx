"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc-provider";

/** The number of firing incidents beside "Alerts" in the navigation; nothing when none fire. */
export function FiringBadge({ slug }: { slug: string }) {
  const trpc = useTRPC();
  const count = useQuery({ ...trpc.alerts.firingCount.queryOptions({ project: slug }), refetchInterval: 30_000, staleTime: 10_000 });
  if (!count.data) return null;
  return (
    <span
      data-testid="firing-badge"
      title={`${count.data} firing incident${count.data === 1 ? "" : "s"}`}
      className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 py-0.5 text-xs font-semibold leading-none text-white"
    >
      {count.data > 99 ? "99+" : count.data}
      <span className="sr-only"> firing</span>
    </span>
  );
}
