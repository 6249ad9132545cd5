"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "../ui";

/** Incidents | Rules | Webhooks (admins; the webhooks live in the project's settings). */
export function AlertsTabs({ slug, showWebhooks }: { slug: string; showWebhooks: boolean }) {
  const pathname = usePathname();
  const base = `/p/${slug}/alerts`;
  const tabs = [
    { label: "Incidents", href: base },
    { label: "Rules", href: `${base}/rules` },
    ...(showWebhooks ? [{ label: "Webhooks", href: `/p/${slug}/settings/webhooks` }] : []),
  ];
  return (
    <nav aria-label="Alerts" className="mb-6 flex gap-1 border-b border-slate-200">
      {tabs.map((tab) => {
        const active = pathname === tab.href;
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={cx(
              "-mb-px border-b-2 px-3 py-2 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
              active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800",
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
