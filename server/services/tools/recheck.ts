import type { Category } from "../../../contracts/categories";
import { CATEGORY_LABELS } from "../../../contracts/categories";
import { invalid } from "../../domain/errors";
import { patternOf } from "../../domain/failure-patterns";
import { registryResolver, verdictFor, type CallVerdict } from "../../domain/verdicts";
import { inTransaction } from "../../db/transaction";
import { relinkCalls } from "../ingest/write-calls";
import { rebuildRollupSlices } from "../rollups/rebuild";
import { markRunsStale } from "../metrics/spirals-kept";
import { lockRollups } from "../rollups/write";
import { timeSlicer } from "../time-slice";
import { CLASSIFY_SLICE_MS, DRY_RUN_MAX_CALLS, readCallPage, throughPages, type CallRow, type Range } from "./dry-run";
import { loadToolVersions } from "./registry";

/** A re-check stops after this long and says how far it got (like a dry run through the API). */
const RECHECK_MAX_MS = 30_000;
const RECHECK_PAGE = 1_000;

/**
 * The calls a re-check takes: those stored without a verdict against a schema of their tool
 * (`checked_version` is null): unchecked because the project had no schema at all, or classified
 * "unknown tool" because this tool had none. Calls checked against an earlier version keep the
 * verdict they got then, so that "did the schema change help?" still compares the versions.
 */
const NOT_CHECKED_AGAINST_A_SCHEMA = "checked_version IS NULL";
/**
 * The calls a re-check of a tool without a schema takes, once the project has schemas: those
 * stored unchecked (before the project had any), which ingestion would now store as unknown tool.
 */
const NOT_CLASSIFIED = "checked_valid IS NULL";

export type RecheckResult = {
  tool: string;
  /** the schema version the calls were checked against; null for a tool without a schema (its calls are unknown-tool calls) */
  version: string | null;
  /** calls read (stored without a schema verdict) */
  scanned: number;
  /** too large to re-check (their arguments are over the dry run's limit): still unchecked */
  skipped: number;
  /** calls whose stored verdict (valid or invalid, category) changed */
  changed: number;
  valid: number;
  invalid: number;
  byCategory: { category: string; invalid: number }[];
  complete: boolean;
  stoppedBy: "limit" | "time" | null;
  summary: string;
};

const COLUMNS: [string, string, (v: CallVerdict, row: CallRow, tool: string) => unknown][] = [
  ["valid", "bool", (v) => v.valid],
  ["category", "text", (v) => v.category],
  ["message", "text", (v) => v.message],
  ["checked_valid", "bool", (v) => v.checked?.valid ?? null],
  ["checked_category", "text", (v) => v.checked?.category ?? null],
  ["checked_message", "text", (v) => v.checked?.message ?? v.unchecked ?? null],
  ["checked_path", "text", (v) => v.checked?.path ?? null],
  ["checked_version", "text", (v) => v.checked?.version ?? null],
  ["violations", "jsonb", (v) => JSON.stringify(v.checked?.violations ?? [])],
  ["verdicts_differ", "bool", (v) => v.differ],
  ["pattern", "text", (v, row, tool) => patternOf({ tool, arguments: row.arguments, ...v, violations: v.checked?.violations })],
];

/**
 * Writes new verdicts onto stored calls, as ingestion would have written them: the verdict
 * columns, the failure pattern, the correction links (a call that is valid now has none; one
 * that is invalid now gets one, docs/pairing.md) and the rollups of every hour and day whose
 * figures depend on them, recomputed from the raw calls.
 */
async function writeVerdicts(projectId: string, tool: string, changes: { row: CallRow; verdict: CallVerdict }[]) {
  if (!changes.length) return;
  await inTransaction(async (client) => {
    await lockRollups(client, projectId, "rebuild"); // its slices are recomputed from the raw calls
    const sets = COLUMNS.map(([name], i) => `"${name}" = n.c${i}`).join(", ");
    const unnest = COLUMNS.map(([, type], i) => `$${i + 3}::${type}[]`).join(", ");
    const aliases = COLUMNS.map((_, i) => `c${i}`).join(", ");
    const { rows: updated } = await client.query<{ tool: string; timestamp: Date; run_id: string }>(
      `UPDATE tool_calls t SET ${sets}, correction_id = CASE WHEN n.c0 = false THEN t.correction_id END,
                             recovered = n.c0 IS FALSE AND t.recovered
         FROM unnest($2::text[], ${unnest}) AS n(id, ${aliases})
        WHERE t.project_id = $1 AND t.id = n.id
      RETURNING t.tool, t.timestamp, t.run_id`,
      [projectId, changes.map((c) => c.row.id), ...COLUMNS.map(([, , read]) => changes.map((c) => read(c.verdict, c.row, tool)))],
    );
    const relinked = await relinkCalls(
      client,
      projectId,
      changes.map((c) => c.row.id),
    );
    await rebuildRollupSlices(client, projectId, [...updated, ...relinked]);
    await markRunsStale(
      client,
      projectId,
      updated.map((u) => u.run_id),
    ); // a verdict may start or end a spiral
  });
}

/**
 * tools.recheck: the tool's calls of the range that were stored without a verdict against a
 * schema of theirs, checked against the schema the tool has now (the version each call names
 * when the project has it), newest first, page by page as a dry run reads them, until `limit`
 * calls, the end of the range or RECHECK_MAX_MS. Each page is written in its own transaction.
 * A tool without a schema in a project that has schemas (a name the model made up, or a tool
 * not registered yet): its calls stored unchecked get the verdict ingestion gives them now,
 * unknown tool, and so their corrections.
 */
export async function recheckCalls(
  projectId: string,
  tool: string,
  range: Range,
  { limit = DRY_RUN_MAX_CALLS, maxMs = RECHECK_MAX_MS }: { limit?: number; maxMs?: number } = {},
): Promise<RecheckResult> {
  const versions = await loadToolVersions(projectId);
  const latest = versions.find((v) => v.name === tool);
  if (!versions.length) {
    throw invalid(
      `No schema is registered for '${tool}' (this project has none yet), so there is nothing to re-check its calls against. Register its definition first (the Tools page's form, tools.register or the SDK), then re-check.`,
    );
  }
  const registry = registryResolver(versions);
  const result = { scanned: 0, skipped: 0, changed: 0, valid: 0, invalid: 0 };
  const categories = new Map<string, number>();
  const pause = timeSlicer(CLASSIFY_SLICE_MS);
  const stoppedBy = await throughPages({ limit, maxMs, pageSize: RECHECK_PAGE }, async (cursor, size) => {
    const page = await readCallPage(projectId, tool, range, cursor, size, latest ? NOT_CHECKED_AGAINST_A_SCHEMA : NOT_CLASSIFIED);
    const changes: { row: CallRow; verdict: CallVerdict }[] = [];
    for (const row of page.rows) {
      await pause();
      result.scanned++;
      if (row.skipped) {
        result.skipped++;
        continue;
      }
      const outcome =
        row.harness_valid === null
          ? undefined
          : { valid: row.harness_valid, category: (row.harness_category ?? undefined) as Category | undefined, message: row.harness_message ?? undefined };
      const verdict = verdictFor({ tool, arguments: row.arguments, toolVersion: row.tool_version ?? undefined, outcome }, registry);
      if (!verdict.checked) {
        // the schema cannot be compiled, or evaluated on these arguments: the call stays unchecked, now with the reason
        if (verdict.unchecked) changes.push({ row, verdict });
        continue;
      }
      changes.push({ row, verdict });
      if (verdict.valid !== row.valid || verdict.category !== row.category) result.changed++;
      if (verdict.valid === false) {
        result.invalid++;
        categories.set(verdict.category ?? "", (categories.get(verdict.category ?? "") ?? 0) + 1);
      } else result.valid++;
    }
    await writeVerdicts(projectId, tool, changes);
    return { next: page.next, read: page.rows.length };
  });
  const byCategory = [...categories].map(([category, invalid]) => ({ category, invalid })).sort((a, b) => b.invalid - a.invalid);
  return {
    tool,
    version: latest?.version ?? null,
    ...result,
    byCategory,
    complete: stoppedBy === null,
    stoppedBy,
    summary: summarize(tool, latest?.version ?? null, result, byCategory, stoppedBy),
  };
}

function summarize(
  tool: string,
  version: string | null,
  r: { scanned: number; skipped: number; changed: number; valid: number; invalid: number },
  byCategory: { category: string; invalid: number }[],
  stoppedBy: RecheckResult["stoppedBy"],
) {
  if (r.scanned === 0) return `No call of ${tool} in the range was stored without a schema verdict: nothing to re-check.`;
  const checked = r.valid + r.invalid;
  const categories = byCategory.map((c) => `${CATEGORY_LABELS[c.category as Category] ?? c.category} ${c.invalid}`).join(", ");
  const verdicts = `${r.invalid} invalid${categories ? ` (${categories})` : ""}, ${r.valid} valid; ${r.changed} verdict${r.changed === 1 ? "" : "s"} changed.`;
  const calls = `${checked} call${checked === 1 ? "" : "s"} of ${tool}`;
  const parts = [
    version
      ? `Re-checked ${calls} against version ${version}: ${verdicts}`
      : `Re-checked ${calls}, which has no schema while this project has others: ${verdicts} If it is a real tool, register its schema.`,
  ];
  if (r.skipped) parts.push(`${r.skipped} call${r.skipped === 1 ? " was" : "s were"} too large to re-check and stay unchecked.`);
  if (stoppedBy === "limit") parts.push("Stopped at the limit: re-check again for the older calls.");
  if (stoppedBy === "time") parts.push(`Stopped after ${Math.round(RECHECK_MAX_MS / 1000)} s: re-check again for the rest.`);
  return parts.join(" ");
}
