import { lintTool, scoreTool } from "../../../isomorphic/definition-lint";
import { likelyTool } from "../../../isomorphic/tool-names";
import { isPlainObject } from "../../../isomorphic/tool-schema";
import { toolSetTokens } from "../../domain/context-cost";
import { suggestSchemaChanges } from "../../domain/schema-suggestions";
import { daysOf, encodePattern, groupPatterns, type FailurePattern, type PatternDayRow } from "../../domain/failure-patterns";
import { pool } from "../../db/client";
import { analytics } from "../analytics";
import { dayOf } from "../rollups/tables";
import { observedValues } from "./observed";
import { latestDefinitions, listTools } from "./registry";

export type Range = { from: Date; to: Date };

/** Patterns that get example call ids (the table shows the largest ones). */
const WITH_EXAMPLES = 20;
const EXAMPLES = 3;

/**
 * A tool's invalid calls over a range, grouped by pattern (category, path, kind of value sent),
 * per UTC day, with how many the model tried again and how many of those next attempts were valid
 * (isomorphic/recovery.ts). Its own calls come from the partial index of invalid calls alone (tool,
 * time, pattern, correction, id, and whether the correction recovered the call: `recovered`, the
 * rollups' rule stored by the pairing statement, server/services/ingest/write-calls.ts);
 * names the model misspelled for it (unknown tools close to its name) from the daily call
 * rollups, their recovery from the error-message rollups.
 */
export async function failurePatterns(
  projectId: string,
  tool: string,
  range: Range,
  registered: { names: string[]; parameters?: unknown },
): Promise<FailurePattern[]> {
  const [own, aliases] = await Promise.all([ownPatternDays(projectId, tool, range), misspelledNameDays(projectId, tool, range, registered.names)]);
  const patterns = groupPatterns([...own, ...aliases.rows], daysOf(range.from, range.to), registered.parameters);
  const top = patterns.slice(0, WITH_EXAMPLES);
  const aliasKeys = new Set(aliases.rows.map((r) => r.pattern));
  const examples = await exampleIds(
    projectId,
    tool,
    range,
    top.filter((p) => !aliasKeys.has(p.key)).map((p) => p.key),
    aliases.names,
  );
  for (const p of top) p.examples = (aliasKeys.has(p.key) ? examples.byName.get(p.kind) : examples.byPattern.get(p.key)) ?? [];
  return patterns;
}

/**
 * The schema doctor of a tool (the tool page, `tools.patterns`, and `tools.doctor` for read keys):
 * its failure patterns over the range and what to change in its newest schema version, from
 * those patterns and a lint of the schema.
 */
export async function toolDoctor(projectId: string, tool: string, range: Range) {
  const versions = await listTools(projectId); // newest first per name
  const latest = versions.find((v) => v.name === tool);
  const names = [...new Set(versions.map((v) => v.name))];
  const [patterns, observed] = await Promise.all([
    failurePatterns(projectId, tool, range, { names, parameters: latest?.parameters }),
    observedValues(projectId, tool, range),
  ]);
  const parameters = latest && isPlainObject(latest.parameters) ? latest.parameters : undefined;
  const definitions = latestDefinitions(versions);
  const own = definitions.find((d) => d.name === tool);
  const set = toolSetTokens(definitions);
  return {
    version: latest?.version ?? null,
    patterns,
    /** the newest definition's lint score (from the definition alone, as `toolgate lint` gives it) and its tokens in every model call, beside the whole registered set's */
    definition: own
      ? {
          score: scoreTool(lintTool(own, { others: definitions })).score,
          tokens: set.tools.find((t) => t.name === own.name)!.tokens,
          setTokens: set.total,
          tools: definitions.length,
          tokenizer: set.tokenizer,
        }
      : null,
    /** what to change in the newest schema version, from these patterns, the values its newest calls sent and a lint of the schema */
    suggestions:
      latest && parameters ? suggestSchemaChanges({ tool, description: latest.description, parameters, patterns, others: definitions, observed }) : [],
  };
}

async function ownPatternDays(projectId: string, tool: string, range: Range): Promise<PatternDayRow[]> {
  const { rows } = await pool().query<{ pattern: string | null; day: Date; failures: number; followed: number; recovered: number }>(
    `SELECT c.pattern, ${dayOf("c.timestamp")} AS day, count(*)::int AS failures, count(c.correction_id)::int AS followed,
            count(*) FILTER (WHERE c.recovered)::int AS recovered
       FROM tool_calls c WHERE c.project_id = $1 AND c.tool = $2 AND c.valid = false AND c.timestamp >= $3 AND c.timestamp < $4
      GROUP BY 1, 2`,
    [projectId, tool, range.from, range.to],
  );
  return rows.map((r) => ({
    pattern: r.pattern ?? encodePattern({ category: "", path: "", kind: "" }),
    day: r.day.toISOString(),
    failures: r.failures,
    followed: r.followed,
    recovered: r.recovered,
  }));
}

/** Unknown tool names that are a likely misspelling of `tool` (the classifier's own rule), per day, from the call rollups. */
async function misspelledNameDays(projectId: string, tool: string, range: Range, names: string[]) {
  if (!names.includes(tool)) return { rows: [], names: [] };
  const rows = (await analytics.series(projectId, range, "day", "tool", { category: "unknown_tool" })).map((r) => ({
    tool: r.key,
    day: r.bucket,
    failures: r.invalid,
  }));
  const registered = new Set(names);
  const close = new Map<string, boolean>();
  const isAlias = (name: string) => {
    if (!close.has(name)) close.set(name, !registered.has(name) && likelyTool(name, names) === tool);
    return close.get(name)!;
  };
  const aliasRows = rows.filter((r) => isAlias(r.tool));
  const aliasNames = [...new Set(aliasRows.map((r) => r.tool))];
  const recovery = await aliasRecovery(projectId, range, aliasNames);
  return {
    names: aliasNames,
    rows: aliasRows.map((r) => ({
      pattern: encodePattern({ category: "unknown_tool", path: "", kind: r.tool }),
      day: r.day,
      failures: r.failures,
      ...(recovery.get(`${r.tool}\t${r.day}`) ?? { followed: 0, recovered: 0 }),
    })),
  };
}

/** Followed and recovered per misspelled name and day, from the error-message rollups (every invalid call has a message row, "" included). */
async function aliasRecovery(projectId: string, range: Range, names: string[]) {
  const byNameDay = new Map<string, { followed: number; recovered: number }>();
  if (!names.length) return byNameDay;
  for (const r of await analytics.messageFollowUpsPerDay(projectId, range, names))
    byNameDay.set(`${r.tool}\t${r.day.toISOString()}`, { followed: r.followed, recovered: r.recovered });
  return byNameDay;
}

/** The newest few call ids of each pattern (of the tool itself) and of each misspelled name. */
async function exampleIds(projectId: string, tool: string, range: Range, patterns: string[], names: string[]) {
  const [byPattern, byName] = await Promise.all([
    patterns.length
      ? pool().query<{ key: string; ids: string[] }>(
          `SELECT p.key, array(SELECT id FROM tool_calls
                                WHERE project_id = $1 AND tool = $2 AND valid = false AND timestamp >= $3 AND timestamp < $4 AND pattern = p.key
                                ORDER BY timestamp DESC LIMIT ${EXAMPLES}) AS ids
             FROM unnest($5::text[]) AS p(key)`,
          [projectId, tool, range.from, range.to, patterns],
        )
      : { rows: [] },
    names.length
      ? pool().query<{ key: string; ids: string[] }>(
          `SELECT n.key, array(SELECT id FROM tool_calls
                                WHERE project_id = $1 AND tool = n.key AND valid = false AND timestamp >= $2 AND timestamp < $3
                                ORDER BY timestamp DESC LIMIT ${EXAMPLES}) AS ids
             FROM unnest($4::text[]) AS n(key)`,
          [projectId, range.from, range.to, names],
        )
      : { rows: [] },
  ]);
  return { byPattern: new Map(byPattern.rows.map((r) => [r.key, r.ids])), byName: new Map(byName.rows.map((r) => [r.key, r.ids])) };
}
