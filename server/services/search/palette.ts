// What the command palette (components/palette/) jumps to: the project's names (tools, model
// versions, recent incidents, alert rules) read once when it opens, and ids typed or pasted into it
// (calls, runs, incidents) looked up as they are typed. Tenancy: the callers are project procedures.

import { DAY_MS } from "../../../contracts/metrics";
import { pool, prisma } from "../../db/client";
import { breakdown } from "../metrics/call-figures";

/** How far back the palette's tools and model versions reach (by their calls); registered tools are always listed. */
const PALETTE_DAYS = 30;
const INCIDENTS = 100;
/** Answers per kind of id. */
const ID_MATCHES = 5;
/**
 * Rows of the primary key read past a prefix. Under the C collation every id with the prefix
 * sorts right after it; under a language collation (punctuation weighs less) ids of other
 * prefixes may sort among them, so a bounded read keeps the lookup one short index scan.
 */
const PREFIX_SCAN = 50;

export async function paletteIndex(projectId: string, now = new Date()) {
  const range = { from: new Date(now.getTime() - PALETTE_DAYS * DAY_MS), to: now };
  const [tools, models, registered, incidents, rules] = await Promise.all([
    breakdown(projectId, range, "tool"),
    breakdown(projectId, range, "model"),
    prisma().toolDefinition.findMany({ where: { projectId }, distinct: ["name"], select: { name: true }, orderBy: { name: "asc" } }),
    prisma().incident.findMany({
      where: { projectId },
      orderBy: { firedAt: "desc" },
      take: INCIDENTS,
      select: { id: true, state: true, firedAt: true, scopeTool: true, scopeModel: true, scopeVersion: true, rule: { select: { name: true } } },
    }),
    prisma().alertRule.findMany({ where: { projectId }, orderBy: { name: "asc" }, select: { id: true, name: true, enabled: true } }),
  ]);
  const calls = new Map(tools.map((t) => [t.key, t.calls]));
  for (const r of registered) if (!calls.has(r.name)) calls.set(r.name, 0);
  return {
    tools: [...calls].map(([name, n]) => ({ name, calls: n })),
    modelVersions: models.map((m) => ({ model: m.key, version: m.version, calls: m.calls })),
    incidents: incidents.map((i) => ({
      id: i.id,
      rule: i.rule.name,
      state: i.state,
      firedAt: i.firedAt.toISOString(),
      scope: { tool: i.scopeTool, model: i.scopeModel, modelVersion: i.scopeVersion },
    })),
    rules: rules.map((r) => ({ id: r.id, name: r.name, enabled: r.enabled })),
  };
}

/**
 * Calls, runs and incidents whose id is `text` or starts with it: the exact id first, then the
 * others in id order, at most ID_MATCHES of each kind.
 */
export async function lookupIds(projectId: string, text: string) {
  const [calls, runs, incidents] = await Promise.all([
    pool().query<{ id: string; run_id: string; tool: string; timestamp: Date; valid: boolean | null }>(
      `SELECT id, run_id, tool, "timestamp", valid FROM (
         (SELECT id, run_id, tool, "timestamp", valid, 0 AS o FROM tool_calls WHERE project_id = $1 AND id = $2)
         UNION ALL
         (SELECT id, run_id, tool, "timestamp", valid, 1 FROM
            (SELECT * FROM tool_calls WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT ${PREFIX_SCAN}) scanned
           WHERE starts_with(id, $2))
       ) c ORDER BY o, id LIMIT ${ID_MATCHES}`,
      [projectId, text],
    ),
    // distinct run ids from the index on (project, run, …), one index probe per run (a loose index scan)
    pool().query<{ run_id: string; calls: number; last: Date }>(
      `WITH RECURSIVE r(run_id, n) AS (
         (SELECT run_id, 1 FROM tool_calls WHERE project_id = $1 AND run_id >= $2 ORDER BY run_id LIMIT 1)
         UNION ALL
         SELECT (SELECT t.run_id FROM tool_calls t WHERE t.project_id = $1 AND t.run_id > r.run_id ORDER BY t.run_id LIMIT 1), n + 1
           FROM r WHERE r.run_id IS NOT NULL AND n < ${PREFIX_SCAN / 5}
       ),
       found AS (SELECT run_id FROM r WHERE run_id IS NOT NULL AND starts_with(run_id, $2) ORDER BY run_id <> $2, run_id LIMIT ${ID_MATCHES})
       SELECT f.run_id, count(*)::int AS calls, max(t."timestamp") AS last
         FROM found f JOIN tool_calls t ON t.project_id = $1 AND t.run_id = f.run_id
        GROUP BY f.run_id ORDER BY f.run_id <> $2, f.run_id`,
      [projectId, text],
    ),
    /^[0-9a-f-]{4,36}$/i.test(text)
      ? pool().query<{ id: string; state: string; fired_at: Date; rule: string }>(
          `SELECT i.id::text AS id, i.state, i.fired_at, r.name AS rule
             FROM incidents i JOIN alert_rules r ON r.project_id = i.project_id AND r.id = i.rule_id
            WHERE i.project_id = $1 AND starts_with(i.id::text, lower($2))
            ORDER BY i.fired_at DESC LIMIT ${ID_MATCHES}`,
          [projectId, text],
        )
      : { rows: [] },
  ]);
  return {
    calls: calls.rows.map((c) => ({ id: c.id, runId: c.run_id, tool: c.tool, timestamp: c.timestamp.toISOString(), valid: c.valid })),
    runs: runs.rows.map((r) => ({ runId: r.run_id, calls: r.calls, last: r.last.toISOString() })),
    incidents: incidents.rows.map((i) => ({ id: i.id, state: i.state, firedAt: i.fired_at.toISOString(), rule: i.rule })),
  };
}
