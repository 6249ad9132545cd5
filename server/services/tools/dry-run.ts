import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { classifyCall, type ToolRegistry } from "../../../isomorphic/classify";
import { addCall, callsRead, DRY_RUN_MAX_ARGUMENT_BYTES, emptyTally, mergeTallies, summarizeDryRun, type DryRunTally } from "../../../isomorphic/dry-run";
import { checkJsonSchema } from "../../../isomorphic/tool-schema";
import { invalid, notFound } from "../../domain/errors";
import { schemaVersion } from "../../domain/schema-version";
import { pool } from "../../db/client";
import { timeSlicer } from "../time-slice";
import { totals } from "../metrics/call-figures";
import { registryResolver } from "../../domain/verdicts";
import { loadToolVersions } from "./registry";

/** At most this many calls are replayed per dry run (the newest of the range). */
export const DRY_RUN_MAX_CALLS = 100_000;
const DRY_RUN_PAGE = 2_000;
/** A page stops before its replayed arguments add up to more than this (at least one call per page). */
const DRY_RUN_PAGE_BYTES = 4 * 1024 * 1024;
/** Classification gives the event loop a turn after this long, so that other requests are served meanwhile. */
export const CLASSIFY_SLICE_MS = 10;
/** A dry run through the API stops after this long and says how far it got. */
const DRY_RUN_MAX_MS = 30_000;

export type Range = { from: Date; to: Date };
export type Cursor = { timestamp: string; id: string };
export type Proposal = { parameters?: unknown; version?: string };

/** What a dry run needs once: the proposed schema as a registry, and the registry calls were checked against. */
export async function prepareDryRun(projectId: string, tool: string, proposal: Proposal) {
  const versions = await loadToolVersions(projectId);
  let parameters = proposal.parameters;
  if (proposal.version !== undefined) {
    const named = versions.find((v) => v.name === tool && v.version === proposal.version);
    if (!named) {
      const known = versions.filter((v) => v.name === tool).map((v) => v.version);
      throw notFound(
        `No version ${proposal.version} of ${tool}; its versions are ${known.join(", ") || "none (register the tool first)"}. Send one of them or the schema itself as parameters.`,
      );
    }
    parameters = named.parameters;
  }
  if (parameters === undefined) throw invalid("Send the proposed schema as `parameters` (a JSON Schema object) or name a registered `version` of the tool.");
  const check = checkJsonSchema(parameters);
  if (!check.ok) throw invalid(`parameters: ${check.message}`);
  const proposed = { version: `dry-run-${schemaVersion(parameters)}`, parameters: parameters as object };
  const current = registryResolver(versions);
  const names = [...new Set([...versions.map((v) => v.name), tool])];
  const after: ToolRegistry = { names, get: (name) => (name === tool ? proposed : current.forCall(name).get(name)) };
  return { current, after, proposedVersion: schemaVersion(parameters), parameters: parameters as object };
}

type Prepared = Awaited<ReturnType<typeof prepareDryRun>>;

export type CallRow = {
  id: string;
  timestamp: Date;
  /** null when skipped (too large to replay) */
  arguments: unknown;
  skipped: boolean;
  /** rows the page's LIMIT found, before the byte budget cut it */
  candidates: number;
  valid: boolean | null;
  category: string | null;
  checked_valid: boolean | null;
  checked_category: string | null;
  tool_version: string | null;
  harness_valid: boolean | null;
  harness_category: string | null;
  harness_message: string | null;
};

/**
 * One page of the tool's calls in the range, newest first (those matching `where` too, a
 * condition on tool_calls' columns), and the cursor of the next page. Shared by the dry run
 * and the re-check (recheck.ts).
 *
 * Bounded whatever the calls hold: PostgreSQL measures each call's arguments and sends only
 * those of at most DRY_RUN_MAX_ARGUMENT_BYTES (larger ones come back `skipped`, without their
 * arguments), and the page ends before DRY_RUN_PAGE_BYTES of them.
 */
export async function readCallPage(projectId: string, tool: string, range: Range, cursor: Cursor | null, pageSize = DRY_RUN_PAGE, where = "") {
  const params: unknown[] = [projectId, tool, range.from, range.to, pageSize];
  const after = cursor ? `AND (timestamp, id) < ($${params.push(cursor.timestamp)}::timestamptz, $${params.push(cursor.id)})` : "";
  const maxArgument = `$${params.push(DRY_RUN_MAX_ARGUMENT_BYTES)}`;
  const maxPage = `$${params.push(DRY_RUN_PAGE_BYTES)}`;
  const verdicts = "valid, category, checked_valid, checked_category, tool_version, harness_valid, harness_category, harness_message";
  const { rows } = await pool().query<CallRow>(
    `WITH page AS (
       SELECT id, timestamp, arguments, ${verdicts}, octet_length(arguments::text) AS bytes
         FROM tool_calls
        WHERE project_id = $1 AND tool = $2 AND timestamp >= $3 AND timestamp < $4 ${after} ${where && `AND (${where})`}
        ORDER BY timestamp DESC, id DESC LIMIT $5
     ), sized AS (
       SELECT *, bytes > ${maxArgument} AS skipped, row_number() OVER w AS n, count(*) OVER () AS candidates,
              sum(CASE WHEN bytes > ${maxArgument} THEN 0 ELSE bytes END) OVER w AS running
         FROM page WINDOW w AS (ORDER BY timestamp DESC, id DESC)
     )
     SELECT id, timestamp, CASE WHEN skipped THEN NULL ELSE arguments END AS arguments, skipped, candidates::int AS candidates, ${verdicts}
       FROM sized WHERE n = 1 OR running <= ${maxPage}
      ORDER BY timestamp DESC, id DESC`,
    params,
  );
  const last = rows[rows.length - 1];
  const more = rows.length < (last?.candidates ?? 0) || rows.length === pageSize;
  const next: Cursor | null = more && last ? { timestamp: last.timestamp.toISOString(), id: last.id } : null;
  return { rows, next };
}

/**
 * One page of the tool's calls in the range, newest first, replayed against the proposed schema.
 * "Before" is Toolgate's stored verdict, or for a call stored without one the verdict against
 * the schema the tool has now (without any schema: the harness's verdict, else valid).
 * Classification yields to the event loop every CLASSIFY_SLICE_MS.
 */
export async function dryRunPage(projectId: string, tool: string, prepared: Prepared, range: Range, cursor: Cursor | null, pageSize = DRY_RUN_PAGE) {
  const { rows, next } = await readCallPage(projectId, tool, range, cursor, pageSize);
  const tally = emptyTally();
  const pause = timeSlicer(CLASSIFY_SLICE_MS);
  for (const row of rows) {
    await pause();
    if (row.skipped) {
      tally.skipped++;
      continue;
    }
    let before: { valid: boolean; category?: string | null } = {
      valid: row.checked_valid ?? row.valid ?? true,
      category: row.checked_category ?? row.category,
    };
    if (row.checked_valid === null && !prepared.current.isEmpty && prepared.current.forCall(tool).get(tool)) {
      before = classifyCall({ tool, arguments: row.arguments, registry: prepared.current.forCall(tool, row.tool_version ?? undefined) });
    }
    const verdict = classifyCall({ tool, arguments: row.arguments, registry: prepared.after });
    addCall(tally, { id: row.id, before, after: verdict });
  }
  return { tally, next };
}

/** How many calls a dry run over the range would replay (from the rollups), at most `limit`. */
export async function dryRunTotal(projectId: string, tool: string, range: Range, limit = DRY_RUN_MAX_CALLS) {
  return Math.min(limit, (await totals(projectId, range, { tool })).calls);
}

/**
 * A whole dry run: pages of the newest calls until `limit` calls, the end of the range or
 * `maxMs`, yielding to the event loop between pages so that other requests are served.
 * How many dry runs of one project may run at once is not decided here: the router's call
 * goes through the per-project share of heavy operations (a 429 with Retry-After past it).
 */
export async function dryRun(
  projectId: string,
  tool: string,
  proposal: Proposal,
  range: Range,
  { limit = DRY_RUN_MAX_CALLS, maxMs = DRY_RUN_MAX_MS }: { limit?: number; maxMs?: number } = {},
) {
  const started = performance.now();
  const prepared = await prepareDryRun(projectId, tool, proposal);
  let tally: DryRunTally = emptyTally();
  const stoppedBy = await throughPages({ limit, maxMs, pageSize: DRY_RUN_PAGE }, async (cursor, size) => {
    const page = await dryRunPage(projectId, tool, prepared, range, cursor, size);
    tally = mergeTallies(tally, page.tally);
    return { next: page.next, read: callsRead(page.tally) };
  });
  return {
    tool,
    proposedVersion: prepared.proposedVersion,
    ...tally,
    complete: stoppedBy === null,
    stoppedBy,
    elapsedMs: Math.round(performance.now() - started),
    summary: summarizeDryRun(tally) + (stoppedBy === "time" ? ` Stopped after ${Math.round(maxMs / 1000)} s: narrow the range for a complete run.` : ""),
  };
}

/**
 * Reads a range page after page (dry runs, re-checks) until it ends, `limit` calls were read or
 * `maxMs` passed, giving the event loop a turn between pages so that other requests are served.
 * `page` handles one page of at most `size` calls and answers the next page's cursor and how many
 * calls it read. Answers why it stopped early, or null when it read the whole range.
 */
export async function throughPages(
  { limit, maxMs, pageSize }: { limit: number; maxMs: number; pageSize: number },
  page: (cursor: Cursor | null, size: number) => Promise<{ next: Cursor | null; read: number }>,
): Promise<"limit" | "time" | null> {
  const started = performance.now();
  let cursor: Cursor | null = null;
  let read = 0;
  for (;;) {
    const done = await page(cursor, Math.min(pageSize, limit - read));
    read += done.read;
    cursor = done.next;
    if (!cursor) return null;
    if (read >= limit) return "limit";
    if (performance.now() - started > maxMs) return "time";
    await yieldToEventLoop();
  }
}
