import { createHash } from "node:crypto";
import type { PoolClient } from "pg";
import type { ToolCallEvent } from "../../../contracts/event";
import type { CarriedSet } from "../../domain/context-cost";
import { pool } from "../../db/client";

// The tool sets runs carried (docs/definition-lint.md, "Context cost"): an event's `toolSet` (the
// SDKs send their dispatcher's tools, OTLP the model-call span's definitions) names the tools the
// model call was given. Each distinct set is stored once per project (tool_sets, by the hash of its
// sorted names) and each run links to the set last reported for it (run_tool_sets), with the
// times of its calls, for the range reads and the retention sweep.

/** A set's key: the sha-256 of its sorted distinct names joined by newlines, 32 hex digits (names hold no newline worth telling apart). */
function toolSetHash(names: readonly string[]): string {
  return createHash("sha256")
    .update([...new Set(names)].sort().join("\n"))
    .digest("hex")
    .slice(0, 32);
}

/**
 * One statement: the batch's sets (once each), the links of the runs that reported one (the set
 * of the run's newest such event in the batch; a later batch's set replaces an earlier one), and the first and last call times of
 * every linked run the batch has calls of, whether those calls name a set or not (an SDK names it
 * on the run's first event only).
 */
const RECORD_SQL = `
WITH batch AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS b(run_id text, hash text, first_at timestamptz, last_at timestamptz)
), sets AS (
  INSERT INTO tool_sets (project_id, hash, tools, last_at)
  SELECT $1::uuid, s.hash, ARRAY(SELECT jsonb_array_elements_text(s.tools)), s.last_at
    FROM jsonb_to_recordset($3::jsonb) AS s(hash text, tools jsonb, last_at timestamptz)
  ON CONFLICT (project_id, hash) DO UPDATE SET last_at = greatest(tool_sets.last_at, excluded.last_at)
), linked AS (
  INSERT INTO run_tool_sets (project_id, run_id, set_hash, first_at, last_at)
  SELECT $1::uuid, run_id, hash, first_at, last_at FROM batch WHERE hash IS NOT NULL
  ON CONFLICT (project_id, run_id) DO UPDATE
     SET set_hash = excluded.set_hash,
         first_at = least(run_tool_sets.first_at, excluded.first_at),
         last_at = greatest(run_tool_sets.last_at, excluded.last_at)
)
UPDATE run_tool_sets r SET first_at = least(r.first_at, b.first_at), last_at = greatest(r.last_at, b.last_at)
  FROM batch b
 WHERE r.project_id = $1 AND r.run_id = b.run_id AND b.hash IS NULL AND (b.first_at < r.first_at OR b.last_at > r.last_at)`;

type Run = { run_id: string; hash: string | null; first_at: string; last_at: string };

/**
 * Records which tools the batch's runs carried, in the caller's transaction (the ingestion pipeline, the one
 * ingestion path of ingest.batch and OTLP). A batch in which no event names a set and no run is
 * linked yet costs one statement that finds nothing.
 */
export async function recordToolSets(client: PoolClient, projectId: string, events: readonly Pick<ToolCallEvent, "runId" | "timestamp" | "toolSet">[]) {
  if (!events.length) return;
  const runs = new Map<string, Run & { first: number; last: number; setTime: number }>();
  const sets = new Map<string, { hash: string; tools: string[]; last_at: string; last: number }>();
  for (const event of events) {
    const time = Date.parse(event.timestamp);
    let run = runs.get(event.runId);
    if (!run) {
      run = { run_id: event.runId, hash: null, first_at: event.timestamp, last_at: event.timestamp, first: time, last: time, setTime: -Infinity };
      runs.set(event.runId, run);
    }
    if (time < run.first) [run.first, run.first_at] = [time, event.timestamp];
    if (time > run.last) [run.last, run.last_at] = [time, event.timestamp];
    if (!event.toolSet || time < run.setTime) continue;
    const hash = toolSetHash(event.toolSet);
    [run.hash, run.setTime] = [hash, time];
    const set = sets.get(hash);
    if (!set) sets.set(hash, { hash, tools: [...new Set(event.toolSet)].sort(), last_at: event.timestamp, last: time });
    else if (time > set.last) [set.last, set.last_at] = [time, event.timestamp];
  }
  const batch = [...runs.values()].map(({ run_id, hash, first_at, last_at }) => ({ run_id, hash, first_at, last_at }));
  // a set's last use is the newest call of a run that carried it
  for (const run of runs.values()) {
    const set = run.hash ? sets.get(run.hash)! : undefined;
    if (set && run.last > set.last) [set.last, set.last_at] = [run.last, run.last_at];
  }
  await client.query(RECORD_SQL, [
    projectId,
    JSON.stringify(batch),
    JSON.stringify([...sets.values()].map(({ hash, tools, last_at }) => ({ hash, tools, last_at }))),
  ]);
}

/**
 * A range's calls of runs that recorded their tool set, per model (name and version, "" for none)
 * and set: what context cost counts with the carried set instead of the registered one.
 */
export async function carriedCalls(projectId: string, range: { from: Date; to: Date }): Promise<Map<string, CarriedSet[]>> {
  const { rows } = await pool().query<{ name: string; version: string; tools: string[]; calls: number }>(
    `SELECT c.model_name AS name, coalesce(c.model_version, '') AS version, s.tools, count(*)::int AS calls
       FROM run_tool_sets r
       JOIN tool_sets s ON s.project_id = r.project_id AND s.hash = r.set_hash
       JOIN tool_calls c ON c.project_id = r.project_id AND c.run_id = r.run_id AND c.timestamp >= $2 AND c.timestamp < $3
      WHERE r.project_id = $1 AND r.last_at >= $2 AND r.first_at < $3
      GROUP BY 1, 2, r.set_hash, 3`,
    [projectId, range.from, range.to],
  );
  const byModel = new Map<string, CarriedSet[]>();
  for (const row of rows) {
    const key = modelKey(row.name, row.version);
    byModel.set(key, [...(byModel.get(key) ?? []), { tools: row.tools, calls: row.calls }]);
  }
  return byModel;
}

/** How a model and its version are keyed between the rollups' breakdown and the carried calls. */
export const modelKey = (name: string, version: string) => (version ? `${name} ${version}` : name);
