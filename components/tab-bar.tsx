"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "./ui";

/** The look of one tab of a tab row, marked or not (page tabs here, the tool page's sections). */
export const tabClass = (active: boolean) =>
  cx(
    "-mb-px whitespace-nowrap border-b-2 px-3 py-2 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
    active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800",
  );

/** A row of page tabs; the tab whose href is the current path is marked. On a narrow screen the row wraps: every tab stays in view. */
export function TabBar({ label, tabs }: { label: string; tabs: { label: string; href: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="mb-6 flex flex-wrap gap-x-1 border-b border-slate-200">
      {tabs.map((tab) => {
        const active = pathname === tab.href;
        return (
          <Link key={tab.href} href={tab.href} aria-current={active ? "page" : undefined} className={tabClass(active)}>
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
