// Sortable tables: which column a table is sorted by, read from the URL (`sort=calls&dir=asc`),
// the link each header writes, and the order of the rows. The server sorts (pages are server
// components), so a sorted view is a URL to share. Pure.

export type SortDir = "asc" | "desc";
export type Sort<K extends string> = { key: K; dir: SortDir };
/** Each sortable column with the direction a first click sorts it in (names A→Z, figures largest first). */
export type SortColumns<K extends string> = Record<K, SortDir>;

/** The sort the URL asks for: an unknown column falls back to `fallback`, a missing or unknown direction to the column's first. */
export function readSort<K extends string>(params: { sort?: string; dir?: string }, columns: SortColumns<K>, fallback: NoInfer<K>): Sort<K> {
  const key = params.sort && Object.hasOwn(columns, params.sort) ? (params.sort as K) : fallback;
  return { key, dir: params.dir === "asc" || params.dir === "desc" ? params.dir : columns[key] };
}

/** The URL parameters of a click on `key`'s header: the sorted column flips, another starts in its first direction. */
export function sortParams<K extends string>(current: Sort<K>, key: K, columns: SortColumns<K>): { sort: K; dir: SortDir } {
  if (current.key === key) return { sort: key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { sort: key, dir: columns[key] };
}

/** aria-sort of a header: only the sorted column says it. */
export function ariaSort<K extends string>(current: Sort<K>, key: K): "ascending" | "descending" | undefined {
  if (current.key !== key) return undefined;
  return current.dir === "asc" ? "ascending" : "descending";
}

type SortValue = number | string | null | undefined;

/**
 * The rows in the sort's order; rows without a value (null: no calls, no rate) last in either
 * direction; ties keep their order (the server's, e.g. by volume).
 */
export function sortRows<T, K extends string>(rows: readonly T[], sort: Sort<K>, value: Record<K, (row: T) => SortValue>): T[] {
  const of = value[sort.key];
  const sign = sort.dir === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, v: of(row) }))
    .sort((a, b) => {
      const aMissing = a.v === null || a.v === undefined || (typeof a.v === "number" && Number.isNaN(a.v));
      const bMissing = b.v === null || b.v === undefined || (typeof b.v === "number" && Number.isNaN(b.v));
      if (aMissing || bMissing) return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
      const order =
        typeof a.v === "number" && typeof b.v === "number" ? a.v - b.v : String(a.v).localeCompare(String(b.v), "en", { numeric: true, sensitivity: "base" });
      return order * sign || a.index - b.index;
    })
    .map((x) => x.row);
}
