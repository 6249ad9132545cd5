// The options of a filter's list. Pure.

/**
 * The list's values without blanks or repeats, sorted, and the current value first when the
 * list lacks it (a URL may name a tool with no calls in the range): a select then still shows
 * what the page filters by.
 */
export function withCurrent(values: readonly (string | null | undefined)[], current: string | undefined): string[] {
  const list = [...new Set(values.filter((v): v is string => !!v))].sort((a, b) => a.localeCompare(b));
  return current && !list.includes(current) ? [current, ...list] : list;
}
