// Stored answers of the dashboards' costly derived reads (docs/rollups.md, "Stored answers of
// derived reads"): the confusable pairs, retry spirals and parallel calls read the range's raw
// calls, so their cost grows with them. A page view over a preset range uses the stored answer
// while the freshness rule (server/domain/derived-freshness.ts) holds, else computes it live and
// stores it; the worker (server/services/jobs/work.ts) refreshes read answers once a minute. Custom
// ranges, the API and alert evaluation always read live.
import { DAY_MS, RANGE_PRESETS, type RangePreset } from "../../../contracts/metrics";
import { endOfCurrentHour, presetOf } from "../../../contracts/range";
import { answerUsable, keepsWithoutMark, needsRefresh, UNREAD_FOR_MS, usableWhateverTheMark, type WantedAnswer } from "../../domain/derived-freshness";
import { prisma, type Prisma } from "../../db/client";
import { spiralSummary, type SpiralScope } from "../metrics/spirals";
import { modelParallelCalls, toolParallelCalls, type VersionRef } from "../parallel/parallel-calls";
import { analytics } from "../analytics";
import { confusableTools } from "../tools/confusable";
import { toolDoctor } from "../tools/patterns";

type Range = { from: Date; to: Date };

/** The reads that keep stored answers, each computed from its parameters (the project's whole answer; pages filter it). */
const READS = {
  confusable: (projectId: string, range: Range) => confusableTools(projectId, range),
  spirals: (projectId: string, range: Range, p: { scope: SpiralScope; minLength?: number }) => spiralSummary(projectId, range, p.scope, p.minLength),
  "parallel-tool": (projectId: string, range: Range, p: { tool: string }) => toolParallelCalls(projectId, p.tool, range),
  "parallel-models": (projectId: string, range: Range, p: { versions: VersionRef[] }) => modelParallelCalls(projectId, p.versions, range),
  doctor: (projectId: string, range: Range, p: { tool: string }) => toolDoctor(projectId, p.tool, range),
};
export type DerivedKind = keyof typeof READS;
type ParamsOf<K extends DerivedKind> = Parameters<(typeof READS)[K]>[2];
type AnswerOf<K extends DerivedKind> = Awaited<ReturnType<(typeof READS)[K]>>;

/** An answer with when it was computed, when it is a stored one (`asOf`, ISO), else null (computed for this request). */
export type Derived<T> = { answer: T; asOf: string | null };

/**
 * The mark of a range's calls: their totals from the analytics port (calls, verdicts, corrections,
 * tokens, results and failures by kind: the rollups) and the project's registered tool versions.
 * New calls, late results and rechecked verdicts in the range change it; calls outside it do not.
 */
async function rangeMark(projectId: string, range: Range): Promise<string> {
  const [totals, tools] = await Promise.all([analytics.totals(projectId, range), prisma().toolDefinition.count({ where: { projectId } })]);
  const { costUsd: _cost, ...counts } = totals; // a float sum, whose last digits may depend on the plan
  return stableJson({ ...counts, tools });
}

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
const keyOf = (preset: RangePreset, params: unknown) => `${preset}|${stableJson(params ?? null)}`;
const parseKey = (key: string): { preset: RangePreset; params: unknown } => {
  const at = key.indexOf("|");
  return { preset: key.slice(0, at) as RangePreset, params: JSON.parse(key.slice(at + 1)) };
};
const presetRange = (preset: RangePreset, now: Date): Range => {
  const to = endOfCurrentHour(now);
  return { from: new Date(to.getTime() - RANGE_PRESETS[preset] * DAY_MS), to };
};

/** Computes a read and stores it (the mark read before it: calls landing during the read make it stale). */
async function computeAndStore<K extends DerivedKind>(projectId: string, kind: K, key: string, range: Range, params: ParamsOf<K>, now = new Date()) {
  const through = await rangeMark(projectId, range);
  const answer = (await (READS[kind] as (p: string, r: Range, q: ParamsOf<K>) => Promise<AnswerOf<K>>)(projectId, range, params)) as AnswerOf<K>;
  // JSON as the page would get it from a stored row (dates as strings): stored and live answers are alike
  const stored = JSON.parse(JSON.stringify(answer)) as Prisma.InputJsonValue;
  const row = { rangeFrom: range.from, rangeTo: range.to, computedAt: now, through, readAt: now, answer: stored };
  await prisma().derivedAnswer.upsert({
    where: { projectId_kind_key: { projectId, kind, key } },
    create: { projectId, kind, key, ...row },
    update: row,
  });
  return stored as AnswerOf<K>;
}

/** A page view marks an answer read at most this often (one write per answer per 10 minutes, not per view). */
const READ_MARK_EVERY_MS = 10 * 60_000;

/**
 * A page's derived read: over a preset range, the stored answer when the freshness rule allows
 * it, else computed now and stored; over any other range, computed now and not stored.
 */
export async function derivedAnswer<K extends DerivedKind>(
  projectId: string,
  kind: K,
  range: Range,
  params?: ParamsOf<K>,
  now = new Date(),
): Promise<Derived<AnswerOf<K>>> {
  const preset = presetOf(range, now);
  if (!preset) return { answer: (await READS[kind](projectId, range, params as never)) as AnswerOf<K>, asOf: null };
  const key = keyOf(preset, params);
  const stored = await prisma().derivedAnswer.findUnique({ where: { projectId_kind_key: { projectId, kind, key } } });
  // the range's mark only when the answer's age asks for it (a young answer stands whatever arrived since)
  if (stored && (usableWhateverTheMark(stored, range, now) || answerUsable(stored, { ...range, through: await rangeMark(projectId, range) }, now))) {
    if (now.getTime() - stored.readAt.getTime() > READ_MARK_EVERY_MS) {
      await prisma().derivedAnswer.updateMany({ where: { projectId, kind, key }, data: { readAt: now } });
    }
    return { answer: stored.answer as AnswerOf<K>, asOf: stored.computedAt.toISOString() };
  }
  return { answer: await computeAndStore(projectId, kind, key, range, params as ParamsOf<K>, now), asOf: null };
}

/**
 * The worker's refresh (every minute): each stored answer read in the last day that would not be
 * usable by the next run (new calls in its range, its hour over, or old) is computed again for its
 * preset's current range; answers unread for a day are deleted. A range's mark is read once per
 * project and range in a run (a project's answers of one preset share it), and not at all for
 * answers young enough to stand whatever arrived. Stops after `budgetMs`.
 */
export async function refreshDerivedAnswers(now = new Date(), budgetMs = 45_000) {
  const stopAt = Date.now() + budgetMs;
  const removed = await prisma().derivedAnswer.deleteMany({ where: { readAt: { lt: new Date(now.getTime() - UNREAD_FOR_MS) } } });
  const rows = await prisma().derivedAnswer.findMany({
    select: { projectId: true, kind: true, key: true, rangeFrom: true, rangeTo: true, computedAt: true, through: true },
    orderBy: { computedAt: "asc" },
  });
  const marks = new Map<string, Promise<string>>();
  const markOf = (projectId: string, range: Range) => {
    const key = `${projectId}|${range.from.toISOString()}|${range.to.toISOString()}`;
    if (!marks.has(key)) marks.set(key, rangeMark(projectId, range));
    return marks.get(key)!;
  };
  let refreshed = 0;
  for (const row of rows) {
    if (Date.now() > stopAt) break;
    const { preset, params } = parseKey(row.key);
    if (!(preset in RANGE_PRESETS) || !(row.kind in READS)) continue;
    const range = presetRange(preset, now);
    if (keepsWithoutMark(row, range, now)) continue;
    const wanted: WantedAnswer = { ...range, through: await markOf(row.projectId, range) };
    if (!needsRefresh(row, wanted, now)) continue;
    await computeAndStore(row.projectId, row.kind as DerivedKind, row.key, range, params as never, new Date());
    refreshed++;
  }
  return { stored: rows.length, refreshed, removed: removed.count };
}
