// Suggestions for a tool's schema and descriptions: deterministic rules over its failure patterns
// (what models got wrong, how often), then the definition lint (isomorphic/definition-lint.ts, the
// rules `toolgate lint` runs too) in one list. Each suggestion carries its evidence, the change in
// words (with its trade-off) and the tool before and after the change, for a diff. No language
// model. Pure: no I/O.

import { closeMatch } from "../../isomorphic/tool-names";
import { isPlainObject, TYPE_WORDS, validationDiffers, type JsonObject } from "../../isomorphic/tool-schema";
import {
  appendSentence,
  code,
  describe,
  descriptionOf,
  edited,
  limitsOf,
  lintTool,
  parentOf,
  schemaAt,
  stated,
  types,
  type LintFinding,
  type LintInput,
  type LintRule,
  type ObservedCalls,
  type ToolText,
} from "../../isomorphic/definition-lint";
import type { FailurePattern } from "./failure-patterns";
import { formatCount, formatPercent } from "../../contracts/format-number";

export type SuggestionKind =
  "digits_as_string" | "state_type" | "name_enum_values" | "alias_name" | "state_limit" | "missing_required" | "extra_argument" | LintRule;

/** A suggestion: a lint finding's fields, and for one from failed calls the failures it addresses and example calls. */
type Suggestion = Omit<LintFinding, "kind"> & {
  kind: SuggestionKind;
  /** failures the suggestion addresses (0 for lint) */
  failures: number;
  examples: string[];
};

/** A suggestion as the page gets it: with whether its change can alter any call's verdict (a description-only change cannot). */
export type SuggestionWithEffect = Suggestion & { changesVerdicts: boolean };

/** A pattern needs this many failures before a suggestion is made from it. */
export const MIN_FAILURES = 3;

const times = (n: number) => `${formatCount(n)} time${n === 1 ? "" : "s"}`;

/** The words that show a description names a type: the type's name, or the words TYPE_WORDS uses for it ("true or false", not "boolean"). */
const NAMED_BY: Record<string, string[]> = { boolean: ["true or false"], integer: ["integer", "whole number"] };
const namesType = (description: string, type: string) => (NAMED_BY[type] ?? [type]).some((words) => description.toLowerCase().includes(words));

/** Items grouped by a key, the groups in the order of their first items. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.values()];
}

const KEYWORD_LIMIT: Record<string, string> = {
  minLength: "length",
  maxLength: "length",
  minimum: "range",
  maximum: "range",
  exclusiveMinimum: "range",
  exclusiveMaximum: "range",
  minItems: "items",
  maxItems: "items",
  uniqueItems: "uniqueItems",
  pattern: "pattern",
  format: "format",
};

// ---------------------------------------------------------------------------------------------
// From the failure patterns

type Context = { tool: string; text: ToolText; patterns: FailurePattern[] };

function fromPatterns({ tool, text, patterns }: Context): Suggestion[] {
  const suggestions: Suggestion[] = [];
  // One suggestion per path (and limit): the patterns that lead to the same one add up.
  const base = (group: FailurePattern[]) => ({
    source: "calls" as const,
    severity: "warning" as const,
    failures: group.reduce((s, p) => s + p.failures, 0),
    examples: group.flatMap((p) => p.examples).slice(0, 3),
    before: text,
  });
  const seen = (group: FailurePattern[]) =>
    `sent ${times(group.reduce((s, p) => s + p.failures, 0))} (${formatPercent(
      group.reduce((s, p) => s + p.share, 0),
      { digits: 0 },
    )} of the tool's failures)`;
  const labels = (group: FailurePattern[]) => group.map((p) => p.label).join("; ");
  const frequent = patterns.filter((p) => p.failures >= MIN_FAILURES);

  for (const group of groupBy(
    frequent.filter((p) => p.category === "wrong_type" && p.path),
    (p) => p.path,
  )) {
    const path = group[0]!.path;
    const schema = schemaAt(text.parameters, path);
    if (!schema) continue;
    const wanted = types(schema);
    const description = descriptionOf(schema);
    const numberForString = (p: FailurePattern) => wanted.length === 1 && wanted[0] === "string" && (p.kind === "integer" || p.kind === "number");
    const numbers = group.filter(numberForString);
    if (numbers.length && !/as a string|in quotes|quoted/i.test(description)) {
      const digits = typeof schema.pattern === "string" && /\[0-9\]|\\d/.test(schema.pattern);
      const example = digits ? ' (for example "4471")' : "";
      suggestions.push({
        ...base(numbers),
        id: `digits_as_string:${path}`,
        kind: "digits_as_string",
        path,
        title: `Say that ${code(path)} is ${digits ? "digits" : "text"}, as a string`,
        evidence: `A number instead of a string at ${code(path)}: ${seen(numbers)}.`,
        change: `Add "${digits ? "Digits, as a string" : "Text, as a string"}${example}" to the description of ${code(path)}. Alternative: accept both types (type ["string", "integer"]) and convert in the tool — fewer refusals, but leading zeros are lost and every consumer must handle two types.`,
        after: edited(text, path, describe(`${digits ? "Digits" : "Text"}, as a string${example}; not a number.`)),
      });
    }
    const others = group.filter((p) => !numberForString(p));
    if (!others.length || !wanted.length || wanted.some((t) => namesType(description, t))) continue;
    const words = wanted.map((t) => TYPE_WORDS[t] ?? t);
    suggestions.push({
      ...base(others),
      id: `state_type:${path}`,
      kind: "state_type",
      path,
      title: `Name the type of ${code(path)} in its description`,
      evidence: `${labels(others)}: ${seen(others)}.`,
      change: `Say "${words.join(" or ")}" in the description of ${code(path)}; models read descriptions more closely than types.`,
      after: edited(text, path, describe(`Send ${words.join(" or ")}.`)),
    });
  }

  // Values outside an enum, per path: near misses (case, plural, typo) and other words the model uses.
  for (const group of groupBy(
    patterns.filter((p) => p.category === "invalid_choice" && p.path),
    (p) => p.path,
  )) {
    const path = group[0]!.path;
    const failures = group.reduce((s, p) => s + p.failures, 0);
    const schema = schemaAt(text.parameters, path);
    const allowed = Array.isArray(schema?.enum) ? schema.enum.filter((v): v is string => typeof v === "string") : [];
    if (failures < MIN_FAILURES || !schema || !allowed.length) continue;
    const description = descriptionOf(schema);
    if (allowed.every((v) => description.includes(v))) continue;
    const sent = group.map((p) => {
      let value: unknown;
      try {
        value = JSON.parse(p.kind);
      } catch {
        value = p.kind;
      }
      const v = String(value);
      const relation = allowed.find((a) => a.toLowerCase() === v.toLowerCase())
        ? "other case"
        : allowed.find((a) => a === v.replace(/e?s$/, "") || `${a}s` === v)
          ? "plural"
          : closeMatch(v, allowed)
            ? `typo of ${closeMatch(v, allowed)}`
            : "another word";
      return `${JSON.stringify(v)} ×${p.failures} (${relation})`;
    });
    const near = sent.some((s) => !s.endsWith("(another word)"));
    suggestions.push({
      ...base(group),
      id: `name_enum_values:${path}`,
      kind: "name_enum_values",
      path,
      title: `Name the allowed values of ${code(path)} in its description`,
      evidence: `Values outside ${allowed.join(", ")} at ${code(path)}: ${sent.join(", ")}.`,
      change: `List the values in the description of ${code(path)}.${near ? " For the near misses, the harness could also normalise (lower-case, singular) before validating — at the cost of accepting what the schema says is wrong." : " When one of these words means an allowed value, say which in the description."}`,
      after: edited(text, path, describe(`One of: ${allowed.join(", ")}.`)),
    });
  }

  // Names the model misspells for this tool.
  const aliases = frequent.filter((p) => p.category === "unknown_tool" && p.kind && p.kind !== tool);
  if (aliases.length) {
    suggestions.push({
      ...base(aliases),
      id: "alias_name",
      kind: "alias_name",
      path: "",
      title: `Accept ${aliases.map((p) => code(p.kind)).join(", ")} as ${aliases.length > 1 ? "aliases" : "an alias"} of ${code(tool)}`,
      evidence:
        aliases.map((p) => `${code(p.kind)} ×${p.failures}`).join(", ") +
        ` (${formatPercent(
          aliases.reduce((s, p) => s + p.share, 0),
          { digits: 0 },
        )} of the tool's failures).`,
      change: `Route ${aliases.length > 1 ? "these names" : "this name"} to ${tool} in the harness, or rename the tool to the spelling models use (e.g. ${code(aliases[0]!.kind)}) and keep the old name as the alias. Saying the exact name in the description also helps.`,
      after: { ...text, description: appendSentence(text.description, `Call this tool exactly as "${tool}".`) },
    });
  }

  for (const group of groupBy(
    frequent.filter((p) => p.category === "out_of_range" && p.path),
    (p) => `${p.path}\t${KEYWORD_LIMIT[p.kind]}`,
  )) {
    const { path, kind } = group[0]!;
    const schema = schemaAt(text.parameters, path);
    const family = KEYWORD_LIMIT[kind];
    const limit = schema && limitsOf(schema).find((l) => l.keyword === family);
    if (!schema || !limit || stated(descriptionOf(schema), limit)) continue;
    suggestions.push({
      ...base(group),
      id: `state_limit:${path}:${family}`,
      kind: "state_limit",
      path,
      title: `State the limit of ${code(path)}: ${limit.words}`,
      evidence: `${labels(group)}: ${seen(group)}; the description does not say ${limit.words}.`,
      change: `Add "${limit.words}" to the description of ${code(path)}. If the limit is not a real one, widen it instead (a dry run shows which calls that would let through).`,
      after: edited(text, path, describe(`${limit.words[0]!.toUpperCase()}${limit.words.slice(1)}.`)),
    });
  }

  for (const p of frequent.filter((p) => p.category === "missing_argument" && p.path)) {
    const schema = schemaAt(text.parameters, p.path);
    if (/required|always send|must send/i.test(descriptionOf(schema))) continue;
    suggestions.push({
      ...base([p]),
      id: `missing_required:${p.path}`,
      kind: "missing_required",
      path: p.path,
      title: `Make ${code(p.path)} optional with a default, or say it is required`,
      evidence: `${code(p.path)} left out ${times(p.failures)} (${formatPercent(p.share, { digits: 0 })} of the tool's failures).`,
      change: `If most calls would use one value, give ${code(p.path)} a default and drop it from "required". Otherwise start its description with "Required:" and say where the value comes from.`,
      after: schema
        ? edited(text, p.path, (s) => (s.description = `Required: ${descriptionOf(s) || `the ${parentOf(text.parameters, p.path)?.name ?? p.path}`}`))
        : text,
    });
  }

  for (const p of frequent.filter((p) => p.category === "extra_argument" && p.path)) {
    const place = parentOf(text.parameters, p.path);
    if (!place?.parent) continue;
    suggestions.push({
      ...base([p]),
      id: `extra_argument:${p.path}`,
      kind: "extra_argument",
      path: p.path,
      title: `Models keep sending ${code(p.path)}: does ${code(tool)} lack it?`,
      evidence: `${code(p.path)} sent ${times(p.failures)} though the schema has no such argument (${formatPercent(p.share, { digits: 0 })} of the tool's failures).`,
      change: `If the tool could use it, add ${code(place.name)} to the schema (below it accepts any value; give it its type and description). If not, say in the description what the tool does not take, e.g. "Takes only ${Object.keys(isPlainObject(place.parent.properties) ? place.parent.properties : {}).join(", ")}."`,
      after: edited(text, place.parentPath, (s) => {
        s.properties = { ...(isPlainObject(s.properties) ? s.properties : {}), [place.name]: {} };
      }),
      unknown: `what ${code(place.name)} means to ${code(tool)}, and its type`,
    });
  }
  return suggestions;
}

/**
 * Suggestions for one tool: from its failure patterns first (most failures first), then the
 * definition lint (most severe first), without a lint finding that a suggestion from the calls
 * already covers. `others` are the project's other tools (for the rules between tools),
 * `observed` the values the tool's calls sent.
 */
export function suggestSchemaChanges(input: {
  tool: string;
  description: string;
  parameters: JsonObject;
  patterns: FailurePattern[];
  others?: readonly LintInput[];
  observed?: ObservedCalls;
}): SuggestionWithEffect[] {
  const text: ToolText = { description: input.description, parameters: input.parameters };
  const fromCalls = fromPatterns({ tool: input.tool, text, patterns: input.patterns }).sort((a, b) => b.failures - a.failures || (a.id < b.id ? -1 : 1));
  const covered = new Set(fromCalls.map((s) => s.path));
  const linted: Suggestion[] = lintTool({ name: input.tool, ...text }, { others: input.others, observed: input.observed })
    .filter((s) => !(covered.has(s.path) && (s.kind === "limit_unstated" || s.kind === "enum_unexplained")))
    .map((s) => ({ ...s, failures: 0, examples: [] }));
  return [...fromCalls, ...linted].map((s) => ({ ...s, changesVerdicts: validationDiffers(s.before.parameters, s.after.parameters) }));
}
