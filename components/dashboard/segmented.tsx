import Link from "next/link";
import { cx } from "../ui";

/** A row of links that behaves like a segmented control: the current one is marked. */
export function SegmentedLinks({
  label,
  items,
  testId,
}: {
  label: string;
  items: { label: string; href: string; active: boolean; title?: string }[];
  testId?: string;
}) {
  return (
    <nav
      aria-label={label}
      data-testid={testId}
      className="inline-flex shrink-0 overflow-hidden rounded-md bg-white shadow-sm ring-1 ring-inset ring-slate-300"
    >
      {items.map((item, i) => (
        <Link
          key={item.label}
          href={item.href}
          title={item.title}
          scroll={false}
          aria-current={item.active ? "true" : undefined}
          className={cx(
            "px-2.5 py-1 text-xs font-medium tabular-nums focus-visible:relative focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
            i > 0 && "border-l border-slate-300",
            item.active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-50 hover:text-slate-900",
          )}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
