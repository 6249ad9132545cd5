import { likelyTool } from "../../isomorphic/tool-names";
import { code, OVERLAP_CHANGE, overlappingDescriptions } from "../../isomorphic/definition-lint";
import { formatPercent } from "../../contracts/format-number";

// Confusable tools: pairs of registered tools that models mix up, from two kinds of evidence in
// the recorded runs (docs/schema-doctor.md, "Confusable tools"):
//
// - a switch: a call to tool A was refused (invalid) or failed (result status "error") and the
//   run's next call went to tool B with at least one argument name of A's call. A workflow that
//   moves from A to B anyway (getloan, then searchpayments by the same loan number) is not a
//   mix-up: a pair counts only when such a call of B follows a failed A more often than it
//   follows a successful A (SWITCH_LIFT times as often, or never after a success);
// - an ambiguous name: an unknown tool name that the project's name matcher (likelyTool) reads as
//   A, and as B once A is set aside: about as close to either;
// - overlapping descriptions: the two registered descriptions nearly repeat each other, by the
//   definition lint's rule (description_duplicate in isomorphic/definition-lint.ts), before any run.

/** One transition of a run: a call of `tool` and the run's next call, of `next`, with their argument names. */
export type Transition = {
  runId: string;
  id: string;
  tool: string;
  failed: boolean;
  arguments: string[];
  nextId: string;
  next: string;
  nextArguments: string[];
};
/** Transitions counted per (tool, next) after successful calls whose next call shared an argument name: the workflow's own rate. */
export type TransitionCount = { tool: string; next: string; calls: number };
export type ToolCallCount = { tool: string; failed: number; succeeded: number };
export type UnknownName = { name: string; calls: number };

/** B after a failed A must be at least this many times as frequent as after a successful A. */
const SWITCH_LIFT = 2;
/** Fewer switches than this are chance. */
const MIN_SWITCHES = 2;
const EXAMPLES = 5;

export type ConfusablePair = {
  /** the two tools, by name */
  tools: [string, string];
  /** failed-then-switched calls, both directions */
  switches: number;
  /** per direction: from → to, how many, the argument names they shared, and the share of `from`'s failures that switched */
  directions: { from: string; to: string; switches: number; sharedArguments: string[]; switchRate: number; afterSuccessRate: number }[];
  /** unknown names about as close to either tool, with their calls */
  ambiguousNames: UnknownName[];
  /** the two descriptions nearly repeat each other (the lint's description_duplicate): their word overlap and the words both use; null when they do not */
  descriptionOverlap: { score: number; sharedWords: string[] } | null;
  /** the evidence: runs with a switch (newest first as given), each with the two calls */
  runs: { runId: string; failedId: string; switchedId: string; from: string; to: string }[];
  /** switches plus the ambiguous names' calls: the ranking (then the description overlap: a pair with only that ranks after every pair with runs) */
  score: number;
  /** what to change in the names or descriptions */
  advice: string;
};

const key = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

/** The ranked pairs of registered `tools` (names) from a range's transitions and unknown names, and from their `descriptions` (the newest of each tool). */
export function confusablePairs(input: {
  tools: readonly string[];
  descriptions?: readonly { name: string; description?: string }[];
  transitions: readonly Transition[];
  afterSuccess: readonly TransitionCount[];
  counts: readonly ToolCallCount[];
  unknownNames: readonly UnknownName[];
}): ConfusablePair[] {
  const registered = new Set(input.tools);
  const counts = new Map(input.counts.map((c) => [c.tool, c]));
  const successRate = new Map(input.afterSuccess.map((t) => [`${t.tool}\t${t.next}`, t.calls / Math.max(1, counts.get(t.tool)?.succeeded ?? 0)]));
  const pairs = new Map<string, Omit<ConfusablePair, "score" | "advice" | "switches">>();
  const pairOf = (a: string, b: string) => {
    const tools = key(a, b);
    const id = tools.join("\t");
    if (!pairs.has(id)) pairs.set(id, { tools, directions: [], ambiguousNames: [], descriptionOverlap: null, runs: [] });
    return pairs.get(id)!;
  };

  const byDirection = new Map<string, Transition[]>();
  for (const t of input.transitions) {
    if (!t.failed || t.tool === t.next || !registered.has(t.tool) || !registered.has(t.next)) continue;
    if (!t.arguments.some((name) => t.nextArguments.includes(name))) continue;
    const id = `${t.tool}\t${t.next}`;
    byDirection.set(id, [...(byDirection.get(id) ?? []), t]);
  }
  for (const [id, switched] of byDirection) {
    const [from, to] = id.split("\t") as [string, string];
    const switchRate = switched.length / Math.max(1, counts.get(from)?.failed ?? switched.length);
    const afterSuccessRate = successRate.get(id) ?? 0;
    if (switched.length < MIN_SWITCHES || switchRate < SWITCH_LIFT * afterSuccessRate) continue;
    const shared = new Set(switched.flatMap((t) => t.arguments.filter((name) => t.nextArguments.includes(name))));
    const pair = pairOf(from, to);
    pair.directions.push({ from, to, switches: switched.length, sharedArguments: [...shared].sort(), switchRate, afterSuccessRate });
    pair.runs.push(...switched.map((t) => ({ runId: t.runId, failedId: t.id, switchedId: t.nextId, from, to })));
  }

  for (const unknown of input.unknownNames) {
    if (registered.has(unknown.name)) continue;
    const first = likelyTool(unknown.name, input.tools);
    const second =
      first &&
      likelyTool(
        unknown.name,
        input.tools.filter((name) => name !== first),
      );
    if (first && second) pairOf(first, second).ambiguousNames.push(unknown);
  }

  const described = (input.descriptions ?? []).filter((d) => registered.has(d.name));
  for (const tool of described) {
    for (const near of overlappingDescriptions(tool, described)) {
      const pair = pairOf(tool.name, near.name);
      // seen from either tool (the short-description floor is the tool's own): the higher overlap, with the words as that tool orders them
      if (!pair.descriptionOverlap || near.score > pair.descriptionOverlap.score)
        pair.descriptionOverlap = { score: near.score, sharedWords: near.sharedWords };
    }
  }

  const overlap = (p: ConfusablePair) => p.descriptionOverlap?.score ?? 0;
  return [...pairs.values()]
    .map((p) => {
      const switches = p.directions.reduce((sum, d) => sum + d.switches, 0);
      const runs = p.runs.slice(0, EXAMPLES);
      return { ...p, runs, switches, score: switches + p.ambiguousNames.reduce((sum, n) => sum + n.calls, 0), advice: advise(p) };
    })
    .sort((a, b) => b.score - a.score || overlap(b) - overlap(a) || (a.tools.join() < b.tools.join() ? -1 : 1));
}

function advise(p: Omit<ConfusablePair, "score" | "advice" | "switches">): string {
  const [a, b] = p.tools;
  const parts: string[] = [];
  for (const d of p.directions) {
    const shared = d.sharedArguments.map(code).join(", ");
    parts.push(
      `After a refused or failed call to ${code(d.from)}, models switched to ${code(d.to)} with ${shared} (${d.switches} runs): they are not sure which of the two takes ${shared}. ` +
        `Say in each description what the tool does with ${shared} and when to use the other instead (e.g. in ${code(d.from)}'s: "Not for …: use ${d.to}").`,
    );
  }
  if (p.ambiguousNames.length)
    parts.push(
      `${p.ambiguousNames.map((n) => code(n.name)).join(", ")} ${p.ambiguousNames.length === 1 ? "is" : "are"} as close to ${code(a)} as to ${code(b)}: ` +
        "give the two names words that say how they differ (a verb and an object each), not a letter or a plural apart.",
    );
  const o = p.descriptionOverlap;
  if (o) parts.push(`The descriptions of ${code(a)} and ${code(b)} share ${formatPercent(o.score, { digits: 0 })} of their words. ${OVERLAP_CHANGE}`);
  return parts.join(" ");
}
