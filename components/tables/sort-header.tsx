import Link from "next/link";
import type { ReactNode } from "react";
import { cx } from "../ui";
import { ariaSort, sortParams, type Sort, type SortColumns } from "./sort";

/** A table's sort, its columns, and the page's URL with given sort parameters. */
export type SortedTable<K extends string> = { sort: Sort<K>; columns: SortColumns<K>; href: (params: { sort: K; dir: "asc" | "desc" }) => string };

/**
 * A column header that sorts its table: a link (keyboard-reachable, works without JavaScript) to
 * the same page sorted by this column, `aria-sort` on the sorted one, an arrow showing the direction.
 */
export function SortHeader<K extends string>({
  column,
  table,
  className,
  title,
  children,
}: {
  column: K;
  table: SortedTable<K>;
  className?: string;
  title?: string;
  children: ReactNode;
}) {
  const { sort, columns, href } = table;
  const state = ariaSort(sort, column);
  const next = sortParams(sort, column, columns);
  return (
    <th className={className} aria-sort={state} title={title}>
      <Link
        href={href(next)}
        className={cx(
          "inline-flex items-center gap-1 rounded-sm hover:text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
          state && "text-slate-800",
        )}
        data-testid={`sort-${column}`}
      >
        {children}
        <span aria-hidden className={cx("text-[10px]", !state && "text-slate-500")}>
          {state === "ascending" ? "▲" : state === "descending" ? "▼" : "↕"}
        </span>
        <span className="sr-only">{`, sort ${next.dir === "asc" ? "ascending" : "descending"}`}</span>
      </Link>
    </th>
  );
}
