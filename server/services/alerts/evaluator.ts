import {
  ALERT_METRIC_LABELS,
  formatMetric,
  readAlertMetric,
  REGRESSION_RATES,
  regressionSubject,
  SAMPLE_NOUNS,
  SPIRAL_LENGTH,
  type AlertMetricName,
  type RegressionRate,
} from "../../../contracts/alerts";
import {
  checkWindow,
  evaluationTimes,
  nextTransition,
  regressionCheck,
  REGRESSION_TEST,
  ruleState,
  type Check,
  type CountsBucket,
  type RuleSpec,
  type WindowCounts,
} from "../../domain/alert-rules";
import { pool, prisma } from "../../db/client";
import { filterSql } from "../rollups/read";
import { analytics } from "../analytics";
import type { VersionCounts } from "../analytics/port";
import { matchingSilence, notifyIncident } from "./notify";
import { HOUR_MS } from "../../../contracts/metrics";
import { emptyResultSql, failures, statusesOf } from "../../../isomorphic/outcome";
import { latencies } from "../metrics/call-figures";
import { readSpirals } from "../metrics/spirals";
import { HAS_RESULT, hasResultOf } from "../rollups/tables";
import { formatCount, formatDuration, formatPValue } from "../../../contracts/format-number";

type Rule = Awaited<ReturnType<typeof loadRules>>[number];
type Scope = { tool?: string | null; model?: string | null; version?: string | null };

/** Held by the scheduled pass over all projects: one at a time across instances. */
const PASS_LOCK = "hashtext('toolgate:alert-evaluator')";
/** Held while one project is evaluated (by the pass or its Evaluate now); the two-key lock space is apart from PASS_LOCK's. */
const PROJECT_LOCK = "hashtext('toolgate:alert-evaluator'), hashtext($1::text)";
const REGRESSION_RULE_NAME = "Regression guard: new model or schema version";

type CountRow = {
  bucket: Date | null;
  calls: number;
  invalid: number;
  unchecked: number;
  corrected: number;
  category_calls: number;
  results: number;
  failed_results: number;
  empty_results: number;
};
const toCounts = (r: CountRow): WindowCounts => ({
  calls: r.calls,
  invalid: r.invalid,
  unchecked: r.unchecked,
  corrected: r.corrected,
  categoryCalls: r.category_calls,
  results: r.results,
  failedResults: r.failed_results,
  emptyResults: r.empty_results,
});

/**
 * The results, the failed ones and the empty ones (the tool error and empty result rates' counts)
 * over raw calls. They derive from isomorphic/outcome.ts (statusesOf, emptyResultSql) as the
 * rollups' own columns do (rollups/tables.ts).
 */
const FAILED_STATUSES = statusesOf("failed")
  .map((status) => `'${status}'`)
  .join(", ");
const RAW_RESULTS = `(count(*) FILTER (WHERE ${HAS_RESULT}))::float8 AS results,
  (count(*) FILTER (WHERE ${HAS_RESULT} AND result_status IN (${FAILED_STATUSES})))::float8 AS failed_results,
  (count(*) FILTER (WHERE ${HAS_RESULT} AND ${emptyResultSql("result_status", "result_summary")}))::float8 AS empty_results`;

/**
 * Counts over [from, to): windows under an hour read the raw calls (indexed by time),
 * longer ones the analytics port (whole hours, so up to one hour more than the window). With
 * `byBucket`, one row per minute (raw) or per hour (rollups) instead of one in all: the
 * rule preview (preview.ts) adds them up as these reads would.
 */
async function countRows(
  projectId: string,
  from: Date,
  to: Date,
  scope: Scope,
  category: string | null | undefined,
  raw: boolean,
  byBucket: boolean,
): Promise<{ bucket: Date | null; counts: WindowCounts }[]> {
  if (!raw) {
    const rows = await analytics.windowTotals(projectId, { from, to }, metricsScope(scope), { perHour: byBucket, category: category ?? "" });
    return rows.map((r) => ({
      bucket: r.bucket,
      counts: {
        calls: r.calls,
        invalid: r.invalid,
        unchecked: r.unchecked,
        corrected: r.corrected,
        categoryCalls: r.categoryCalls,
        results: r.results,
        failedResults: failures(r),
        emptyResults: r.emptyResults,
      },
    }));
  }
  const params: unknown[] = [projectId, from, to, category ?? ""];
  const filters = { tool: scope.tool, model_name: scope.model, model_version: scope.version };
  let sql = `SELECT ${byBucket ? "date_trunc('minute', timestamp)" : "NULL::timestamptz"} AS bucket,
                  count(*)::float8 AS calls, (count(*) FILTER (WHERE valid = false))::float8 AS invalid,
                  (count(*) FILTER (WHERE valid IS NULL))::float8 AS unchecked,
                  (count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL))::float8 AS corrected,
                  (count(*) FILTER (WHERE category = $4))::float8 AS category_calls, ${RAW_RESULTS}
             FROM tool_calls WHERE project_id = $1 AND timestamp >= $2 AND timestamp < $3${filterSql(filters, params)}`;
  if (byBucket) sql += " GROUP BY 1";
  return (await pool().query<CountRow>(sql, params)).rows.map((r) => ({ bucket: r.bucket, counts: toCounts(r) }));
}

export const readsRaw = (from: Date, to: Date) => to.getTime() - from.getTime() < HOUR_MS;

export async function windowCounts(projectId: string, from: Date, to: Date, scope: Scope, category?: string | null): Promise<WindowCounts> {
  const [row] = await countRows(projectId, from, to, scope, category, readsRaw(from, to), false);
  return row!.counts;
}

/** The counts of [from, to) in buckets: minutes from the raw calls, or hours from the rollups. */
export async function bucketCounts(
  projectId: string,
  from: Date,
  to: Date,
  scope: Scope,
  category: string | null | undefined,
  raw: boolean,
): Promise<CountsBucket[]> {
  const rows = await countRows(projectId, from, to, scope, category, raw, true);
  return rows.map((r) => ({ start: r.bucket!.getTime(), counts: r.counts }));
}

/** The latency p95 of [from, to) in scope, from the rollups' histograms (metrics/call-figures.ts `latencies`: whole hours). */
export async function latencyCounts(projectId: string, from: Date, to: Date, scope: Scope): Promise<Pick<WindowCounts, "timed" | "p95">> {
  const summary = (await latencies(projectId, { from, to }, "none", metricsScope(scope))).get("");
  return { timed: summary?.timed ?? 0, p95: summary?.p95 ?? null };
}

const metricsScope = (scope: Scope) => ({ tool: scope.tool ?? undefined, model: scope.model ?? undefined, modelVersion: scope.version ?? undefined });
const spiralScope = (scope: Scope) => ({ tool: scope.tool, model: scope.model, modelVersion: scope.version });

/** What a rule's metric needs besides the counts: the latency p95, or the spirals of its length. */
async function apartCounts(projectId: string, metric: AlertMetricName, spiralLength: number | null, from: Date, to: Date, scope: Scope) {
  if (metric === "latency_p95") return latencyCounts(projectId, from, to, scope);
  if (metric === "spirals")
    return { spirals: (await readSpirals(projectId, { from, to }, spiralScope(scope), spiralLength ?? SPIRAL_LENGTH.default)).spirals.length };
  return {};
}

/** The spirals of a preview's whole range, for each window to count its own (server/domain/spirals.ts spiralsInWindow). */
export const previewSpirals = (projectId: string, from: Date, to: Date, scope: Scope, spiralLength: number) =>
  readSpirals(projectId, { from, to }, spiralScope(scope), spiralLength);

async function loadRules(projectId?: string) {
  return prisma().alertRule.findMany({
    where: { enabled: true, ...(projectId ? { projectId } : {}) },
    include: { project: { select: { slug: true, name: true } } },
  });
}

/** Every project gets the regression guard, on by default. */
async function ensureRegressionGuards(projectId?: string) {
  await pool().query(
    `INSERT INTO alert_rules (id, project_id, name, metric, condition, window_minutes, min_calls, severity, built_in)
     SELECT gen_random_uuid(), p.id, $1, 'regression', 'significance', 60, ${REGRESSION_TEST.minCalls}, 'critical', true
       FROM projects p
      WHERE ($2::uuid IS NULL OR p.id = $2) AND NOT EXISTS (SELECT 1 FROM alert_rules r WHERE r.project_id = p.id AND r.built_in)`,
    [REGRESSION_RULE_NAME, projectId ?? null],
  );
}

export const ruleSpec = (rule: Pick<Rule, "metric" | "condition" | "threshold" | "factor" | "windowMinutes" | "minCalls">): RuleSpec => ({
  metric: readAlertMetric(rule.metric),
  condition: rule.condition === "threshold" ? { kind: "threshold", threshold: rule.threshold ?? 0 } : { kind: "baseline_factor", factor: rule.factor ?? 2 },
  windowMinutes: rule.windowMinutes,
  minCalls: rule.minCalls,
});

type Fired = { id: string; projectId: string; summary: string; silenced: boolean };

/**
 * Creates the incident and, in the same transaction, its incident.fired deliveries
 * (notify.ts). Under a matching silence it is recorded as silenced and sent nowhere.
 */
async function openIncident(rule: Rule, check: Check, now: Date, subject: string, scope: Scope, summary: string): Promise<Fired> {
  return prisma().$transaction(async (tx) => {
    const silence = await matchingSilence(tx, rule.projectId, rule.id, scope);
    const incident = await tx.incident.create({
      data: {
        projectId: rule.projectId,
        ruleId: rule.id,
        subject,
        state: "firing",
        severity: rule.severity,
        value: check.value ?? 0,
        threshold: check.threshold ?? 0,
        calls: Math.round(check.calls),
        scopeTool: scope.tool ?? null,
        scopeModel: scope.model ?? null,
        scopeVersion: scope.version ?? null,
        summary,
        windowStart: new Date(now.getTime() - rule.windowMinutes * 60_000),
        firedAt: now,
        silenced: !!silence,
        events: {
          create: [
            { kind: "fired", note: summary, at: now },
            ...(silence
              ? [
                  {
                    kind: "silenced",
                    actor: silence.createdBy,
                    note: silence.reason,
                    endsAt: silence.endsAt,
                    at: new Date(now.getTime() + 1),
                  },
                ]
              : []),
          ],
        },
      },
    });
    await notifyIncident(tx, incident, "incident.fired", now);
    return { id: incident.id, projectId: incident.projectId, summary: incident.summary, silenced: incident.silenced };
  });
}

function describeScope(scope: Scope) {
  const parts = [scope.tool && `tool ${scope.tool}`, scope.model && `model ${scope.model}${scope.version ? ` ${scope.version}` : ""}`].filter(Boolean);
  return parts.length ? parts.join(", ") : "the whole project";
}

/** What the rules page shows of the last evaluation: its state (ruleState decides), value, threshold and calls. */
const lastCheck = (check: Check, openAfter: boolean) => ({
  lastState: ruleState(check, openAfter),
  lastValue: check.value,
  lastThreshold: check.threshold,
  lastCalls: check.calls,
});

/** Evaluates one threshold/baseline rule at each time it is due. */
async function evaluateRule(rule: Rule, now: Date, fired: Fired[]) {
  const spec = ruleSpec(rule);
  const scope = { tool: rule.scopeTool, model: rule.scopeModel, version: rule.scopeVersion };
  let open = await prisma().incident.findFirst({
    where: { projectId: rule.projectId, ruleId: rule.id, subject: "", state: { not: "resolved" } },
    select: { id: true },
  });
  let clearSince = rule.clearSince;
  let resolved = 0;
  let last: Check | null = null;
  for (const at of evaluationTimes(rule.lastEvaluatedAt, now, rule.windowMinutes)) {
    const from = new Date(at.getTime() - rule.windowMinutes * 60_000);
    const current = {
      ...(await windowCounts(rule.projectId, from, at, scope, rule.category)),
      ...(await apartCounts(rule.projectId, spec.metric, rule.spiralLength, from, at, scope)),
    };
    const baseline =
      spec.condition.kind === "baseline_factor" && rule.baselineMinutes
        ? await windowCounts(rule.projectId, new Date(from.getTime() - rule.baselineMinutes * 60_000), from, scope, rule.category)
        : undefined;
    const check = checkWindow(spec, current, baseline);
    last = check;
    const transition = nextTransition(check, { open: !!open, clearSince }, at, rule.windowMinutes);
    if (transition.action === "fire") {
      const { metric } = spec;
      const what = metric === "spirals" ? ` of ${rule.spiralLength ?? SPIRAL_LENGTH.default}+ failed attempts` : rule.category ? ` (${rule.category})` : "";
      const summary = `${ALERT_METRIC_LABELS[metric]}${what} ${formatMetric(metric, check.value ?? 0)} is above ${formatMetric(metric, check.threshold ?? 0)} for ${describeScope(scope)} over ${formatDuration(rule.windowMinutes * 60_000)} (${formatCount(check.calls)} ${SAMPLE_NOUNS[metric]}).`;
      const incident = await openIncident(rule, check, at, "", scope, summary);
      fired.push(incident);
      open = { id: incident.id };
      clearSince = null;
    } else if (transition.action === "resolve" && open) {
      await resolveIncident(rule.projectId, open.id, at, null, `Condition clear for a whole window (${formatDuration(rule.windowMinutes * 60_000)}).`);
      resolved++;
      open = null;
      clearSince = null;
    } else if (transition.action === "none") {
      clearSince = transition.clearSince;
    }
  }
  await prisma().alertRule.update({
    where: { projectId_id: { projectId: rule.projectId, id: rule.id } },
    data: { lastEvaluatedAt: now, clearSince, ...lastCheck(last!, !!open) },
  });
  return resolved;
}

type Side = "new" | "old";
const RATE_PHRASES: Record<RegressionRate, string> = { invalid_rate: "an invalid rate", tool_error_rate: "a tool error rate" };

/**
 * The regression guard's verdict on one version pair (of a model, or of a tool's schema): for each
 * of REGRESSION_RATES on which the new version is significantly worse, one incident per version and
 * rate (ops resolve it by hand), its summary counting the calls as `nouns` says.
 */
async function fireRegressions(
  rule: Rule,
  now: Date,
  fired: Fired[],
  pair: { of: "model" | "schema"; name: string; newVersion: string; oldVersion: string; counts: VersionCounts },
  nouns: Record<RegressionRate, string>,
  scope: Scope,
) {
  const { of, name, newVersion, oldVersion, counts } = pair;
  const versionWord = of === "schema" ? "schema " : "";
  for (const rate of REGRESSION_RATES) {
    const [bad, all] = rate === "invalid_rate" ? (["invalid", "calls"] as const) : (["failed", "results"] as const);
    const check = regressionCheck(
      { invalid: counts[`old_${bad}`], calls: counts[`old_${all}`] },
      { invalid: counts[`new_${bad}`], calls: counts[`new_${all}`] },
      { ...REGRESSION_TEST, minCalls: rule.minCalls },
    );
    if (!check.breach) continue;
    const subject = regressionSubject(of, name, newVersion, rate);
    if (await prisma().incident.findFirst({ where: { projectId: rule.projectId, ruleId: rule.id, subject }, select: { id: true } })) continue;
    const pText = formatPValue(check.pValue);
    const summary = `Regression: ${name} ${versionWord}${newVersion} has ${RATE_PHRASES[rate]} of ${formatMetric(rate, check.value ?? 0)} against ${formatMetric(rate, check.threshold ?? 0)} for ${versionWord}${oldVersion} (${formatCount(counts[`new_${all}`])} vs ${formatCount(counts[`old_${all}`])} ${nouns[rate]}, p ${pText.startsWith("<") ? pText : `= ${pText}`}).`;
    fired.push(await openIncident(rule, check, now, subject, scope, summary));
  }
}

/**
 * The regression guard: the newest version of each model against its previous version, on each
 * of REGRESSION_RATES: the invalid rate over each version's checked calls (unchecked calls are
 * neither valid nor invalid and count on neither side), and the tool error rate over its results
 * (the previous version's before the new one appeared).
 */
async function evaluateRegressions(rule: Rule, now: Date, fired: Fired[]) {
  const rows = await analytics.modelVersionPairs(rule.projectId, now);
  for (const row of rows)
    await fireRegressions(
      rule,
      now,
      fired,
      { of: "model", name: row.model, newVersion: row.newVersion, oldVersion: row.oldVersion, counts: row.counts },
      SAMPLE_NOUNS,
      { model: row.model, version: row.newVersion },
    );
}

/**
 * The same guard for tool schemas: the calls checked against a tool's newest schema version
 * against those checked against its previous one, over the last 30 days, on each of
 * REGRESSION_RATES (the tool error rate over the calls that reported a result).
 */
async function evaluateSchemaRegressions(rule: Rule, now: Date, fired: Fired[]) {
  const counts = (side: Side) => {
    const of = `c.checked_version = p.${side}_version`;
    return [
      `(count(*) FILTER (WHERE ${of}))::float8 AS ${side}_calls`,
      `(count(*) FILTER (WHERE ${of} AND c.valid = false))::float8 AS ${side}_invalid`,
      `(count(*) FILTER (WHERE ${of} AND ${hasResultOf("c")}))::float8 AS ${side}_results`,
      `(count(*) FILTER (WHERE ${of} AND ${hasResultOf("c")} AND c.result_status IN (${FAILED_STATUSES})))::float8 AS ${side}_failed`,
    ];
  };
  const { rows } = await pool().query<{ tool: string; new_version: string; old_version: string } & VersionCounts>(
    `WITH ranked AS (
       SELECT name, version, row_number() OVER (PARTITION BY name ORDER BY first_seen_at DESC, version DESC) AS rank
         FROM tool_definitions WHERE project_id = $1
     ), pairs AS (
       SELECT n.name AS tool, n.version AS new_version, o.version AS old_version
         FROM ranked n JOIN ranked o ON o.name = n.name AND o.rank = 2 WHERE n.rank = 1
     )
     SELECT p.tool, p.new_version, p.old_version, ${[...counts("new"), ...counts("old")].join(", ")}
       FROM pairs p JOIN tool_calls c ON c.project_id = $1 AND c.tool = p.tool
        AND c.timestamp >= $2::timestamptz - interval '30 days' AND c.timestamp <= $2
      GROUP BY 1, 2, 3`,
    [rule.projectId, now],
  );
  for (const row of rows)
    await fireRegressions(
      rule,
      now,
      fired,
      { of: "schema", name: row.tool, newVersion: row.new_version, oldVersion: row.old_version, counts: row },
      { invalid_rate: "calls", tool_error_rate: "results" },
      { tool: row.tool },
    );
}

/** Resolves an incident (by the evaluator or by hand) and sends incident.resolved, in one transaction. */
export async function resolveIncident(projectId: string, id: string, at: Date, actor: string | null, note: string | null) {
  await prisma().$transaction(async (tx) => {
    await tx.incident.update({
      where: { projectId_id: { projectId, id } },
      data: { state: "resolved", resolvedAt: at, events: { create: { kind: "resolved", actor, note, at } } },
    });
    await notifyIncident(tx, { projectId, id }, "incident.resolved", at, { actor, note });
  });
}

/** The regression guard's state: firing while one of its incidents is open (it has no single value). */
async function recordGuardState(rule: Rule, now: Date) {
  const open = await prisma().incident.count({ where: { projectId: rule.projectId, ruleId: rule.id, state: { not: "resolved" } } });
  await prisma().alertRule.update({
    where: { projectId_id: { projectId: rule.projectId, id: rule.id } },
    data: { lastEvaluatedAt: now, lastState: open ? "firing" : "ok", lastValue: null, lastThreshold: null, lastCalls: null },
  });
}

export type EvaluationReport = { rules: number; fired: Fired[]; resolved: number };

/** Rules of one project at a time, in the order they were loaded. */
function byProject(rules: Rule[]) {
  const out = new Map<string, Rule[]>();
  for (const rule of rules) out.set(rule.projectId, [...(out.get(rule.projectId) ?? []), rule]);
  return out;
}

/**
 * One evaluation pass: every minute from the job queue's schedule over all projects, or
 * "Evaluate now" for one project. Each project is evaluated under its own PostgreSQL advisory
 * lock, so a project is evaluated by one pass at a time across instances while other projects
 * go on: Evaluate now returns null (busy) only while that same project is being evaluated,
 * and the scheduled pass skips a project whose Evaluate now is running. The scheduled pass
 * also holds a lock of its own (null when another instance's pass has it). A project has at
 * most TOOLGATE_MAX_ALERT_RULES rules, which bounds its turn.
 */
export async function evaluateAlerts({ now = new Date(), projectId }: { now?: Date; projectId?: string } = {}): Promise<EvaluationReport | null> {
  const client = await pool().connect();
  const tryLock = async (lock: string, params: unknown[] = []) =>
    (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${lock}) AS locked`, params)).rows[0]?.locked === true;
  const wholePass = !projectId;
  try {
    if (wholePass && !(await tryLock(PASS_LOCK))) return null;
    try {
      await ensureRegressionGuards(projectId);
      const rules = await loadRules(projectId);
      const report: EvaluationReport = { rules: 0, fired: [], resolved: 0 };
      const projects = projectId ? new Map([[projectId, rules]]) : byProject(rules);
      for (const [project, projectRules] of projects) {
        if (!(await tryLock(PROJECT_LOCK, [project]))) {
          if (wholePass) continue; // its own Evaluate now is running it
          return null;
        }
        try {
          for (const rule of projectRules) {
            if (rule.metric === "regression") {
              await evaluateRegressions(rule, now, report.fired);
              await evaluateSchemaRegressions(rule, now, report.fired);
              await recordGuardState(rule, now);
            } else report.resolved += await evaluateRule(rule, now, report.fired);
          }
          report.rules += projectRules.length;
        } finally {
          await client.query(`SELECT pg_advisory_unlock(${PROJECT_LOCK})`, [project]);
        }
      }
      return report;
    } finally {
      if (wholePass) await client.query(`SELECT pg_advisory_unlock(${PASS_LOCK})`);
    }
  } finally {
    client.release();
  }
}
