/** Sums, over an EXPLAIN (ANALYZE, FORMAT JSON) plan's nodes that read tool_calls, the rows they returned and the rows they read and dropped. */
export function rowsReadFromToolCalls(plan: Record<string, unknown>): number {
  const loops = Number(plan["Actual Loops"] ?? 1);
  const own =
    plan["Relation Name"] === "tool_calls" && String(plan["Node Type"]).includes("Scan")
      ? (Number(plan["Actual Rows"] ?? 0) + Number(plan["Rows Removed by Filter"] ?? 0) + Number(plan["Rows Removed by Index Recheck"] ?? 0)) * loops
      : 0;
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return own + children.reduce((sum, child) => sum + rowsReadFromToolCalls(child), 0);
}
