// Definition lint: what a tool's definition lacks before any call has failed, one rule per finding,
// each with its severity, why, and the change as the tool before and after (a diff). The schema
// doctor (server/domain/schema-suggestions.ts) adds these to its suggestions from failed calls;
// `toolgate lint` in the SDK runs them on a file, an MCP server or a project's tools. One set of
// rules for both, so it lives here. Pure, browser-safe, no language model. docs/definition-lint.md.

import { formatPath, joinPath, parsePath } from "../contracts/json-path";
import { isPlainObject, type JsonObject } from "./tool-schema";
import { nameKey } from "./tool-names";
import { formatPercent } from "../contracts/format-number";

export type LintSeverity = "error" | "warning" | "info";

export type LintRule =
  | "description_missing"
  | "description_short"
  | "description_no_returns"
  | "description_no_usage"
  | "description_contradicts_schema"
  | "undescribed_parameter"
  | "parameter_untyped"
  | "enum_unexplained"
  | "limit_unstated"
  | "string_closed_set"
  | "number_unbounded"
  | "optional_without_default"
  | "required_not_property"
  | "nested_additional_properties"
  | "deep_nesting"
  | "name_collision"
  | "description_duplicate";

/** Each rule's severity and what it checks, in the order findings are listed. */
export const LINT_RULES: Readonly<Record<LintRule, { severity: LintSeverity; checks: string }>> = {
  description_missing: { severity: "error", checks: "the tool has no description" },
  required_not_property: { severity: "error", checks: "`required` names a key that is not among the properties" },
  name_collision: { severity: "error", checks: "another tool's name differs only by case or separators" },
  description_contradicts_schema: { severity: "error", checks: "a description says optional where the schema requires (or the reverse)" },
  description_short: { severity: "warning", checks: "the tool's description is too short to say what it does, returns and is for" },
  description_duplicate: { severity: "warning", checks: "another tool's description says nearly the same" },
  undescribed_parameter: { severity: "warning", checks: "a parameter has no description" },
  parameter_untyped: { severity: "warning", checks: "a parameter has no type (nor enum, const, $ref or combination)" },
  string_closed_set: { severity: "warning", checks: "a free string where the recorded calls send a few values only" },
  deep_nesting: { severity: "warning", checks: "objects nested more than 3 levels deep, or a schema that refers to itself" },
  description_no_returns: { severity: "info", checks: "the tool's description does not say what it returns" },
  description_no_usage: { severity: "info", checks: "the tool's description does not say when to use it (or not)" },
  enum_unexplained: { severity: "info", checks: "an enum's values are not named in its description" },
  limit_unstated: { severity: "info", checks: "a limit the schema enforces is not stated in words" },
  number_unbounded: { severity: "info", checks: "a number without a minimum or maximum" },
  optional_without_default: { severity: "info", checks: "an optional parameter without a default where the calls almost always send one value" },
  nested_additional_properties: { severity: "info", checks: "a nested object that does not say whether it takes other keys" },
};

export const SEVERITIES = ["error", "warning", "info"] as const satisfies readonly LintSeverity[];

export type ToolText = { description: string; parameters: JsonObject };

export type LintFinding = {
  id: string;
  kind: LintRule;
  severity: LintSeverity;
  /** "calls": recorded calls support the finding (see `calls`); "lint": from the definition alone */
  source: "calls" | "lint";
  /** the calls behind a finding from calls: how many support it, of how many calls of the tool */
  calls?: { supporting: number; of: number };
  /** the parameter's path ("" for the tool itself) */
  path: string;
  title: string;
  /** what was found, and why it matters */
  evidence: string;
  /** the change proposed, in words */
  change: string;
  before: ToolText;
  after: ToolText;
  /** what the change needs that only the tool's author knows (no placeholder is written for it) */
  unknown?: string;
};

/** Values the recorded calls of one tool sent: how many calls, and per parameter path the values and how often each came. */
export type ObservedCalls = { calls: number; values: Readonly<Record<string, readonly { value: unknown; count: number }[]>> };

/** A tool as the lint reads it: the shape normalizeToolInput gives. */
export type LintInput = { name: string; description?: string; parameters: JsonObject };

// ---------------------------------------------------------------------------------------------
// Schema helpers (the schema doctor uses them too)

/** The subschema at a path such as `items[].qty` (through properties and items), or undefined. */
export function schemaAt(parameters: unknown, path: string): JsonObject | undefined {
  const segments = parsePath(path.replace(/\[\]/g, "[0]"));
  if (!segments) return undefined;
  let current: unknown = parameters;
  for (const segment of segments) {
    if (!isPlainObject(current)) return undefined;
    if (typeof segment === "number") {
      const items = current.items;
      current = Array.isArray(items) ? items[0] : items;
    } else {
      current = isPlainObject(current.properties) ? current.properties[segment] : undefined;
    }
  }
  return isPlainObject(current) ? current : undefined;
}

/** A copy of the tool with the subschema at `path` (or the tool's schema for "") changed by `edit`. */
export function edited(tool: ToolText, path: string, edit: (schema: JsonObject) => void): ToolText {
  const copy = structuredClone(tool);
  const target = schemaAt(copy.parameters, path);
  if (target) edit(target);
  return copy;
}

export function appendSentence(text: unknown, sentence: string): string {
  const base = typeof text === "string" ? text.trim() : "";
  return base ? `${/[.!?]$/.test(base) ? base : `${base}.`} ${sentence}` : sentence;
}

export const describe = (sentence: string) => (schema: JsonObject) => {
  schema.description = appendSentence(schema.description, sentence);
};

export const descriptionOf = (schema: JsonObject | undefined) => (typeof schema?.description === "string" ? schema.description : "");
export const types = (schema: JsonObject): string[] => [schema.type ?? []].flat().map(String);
export const code = (text: string) => `\`${text}\``;

/** Every property below `schema` (through properties and array items), parents first. */
function walkProperties(schema: JsonObject, path: string, visit: (schema: JsonObject, path: string) => void) {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(properties)) {
    if (!isPlainObject(child)) continue;
    const at = joinPath(path, name);
    visit(child, at);
    walkProperties(child, at, visit);
    if (isPlainObject(child.items)) {
      visit(child.items, `${at}[]`);
      walkProperties(child.items, `${at}[]`, visit);
    }
  }
}

/** The object schemas of a tool (its own and nested ones) with their paths. */
function objectSchemas(parameters: JsonObject): { schema: JsonObject; path: string }[] {
  const found = [{ schema: parameters, path: "" }];
  walkProperties(parameters, "", (schema, path) => {
    if (types(schema).includes("object") || isPlainObject(schema.properties) || Array.isArray(schema.required)) found.push({ schema, path });
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Limits in words

const WORDS_FOR_FORMAT: Record<string, string> = {
  date: "a date as YYYY-MM-DD",
  "date-time": "a date and time such as 2026-10-02T09:30:00Z",
  time: "a time such as 09:30:00Z",
  email: "an email address",
  uri: "a full URL",
  uuid: "a UUID",
};

export type Limit = { words: string; numbers: number[]; keyword: string };

/** The limits a schema sets, as words a model can follow, and the numbers they need stated. */
export function limitsOf(schema: JsonObject): Limit[] {
  const n = (v: unknown) => (typeof v === "number" ? v : undefined);
  const limits: Limit[] = [];
  const [minL, maxL] = [n(schema.minLength), n(schema.maxLength)];
  if (minL !== undefined || maxL !== undefined) {
    const words =
      minL !== undefined && maxL !== undefined
        ? `${minL} to ${maxL} characters`
        : minL !== undefined
          ? `at least ${minL} characters`
          : `at most ${maxL} characters`;
    limits.push({ words, numbers: [minL, maxL].filter((x): x is number => x !== undefined), keyword: "length" });
  }
  const low = n(schema.minimum) ?? n(schema.exclusiveMinimum);
  const high = n(schema.maximum) ?? n(schema.exclusiveMaximum);
  if (low !== undefined || high !== undefined) {
    const lowWords = n(schema.minimum) !== undefined ? `at least ${low}` : low !== undefined ? `more than ${low}` : "";
    const highWords = n(schema.maximum) !== undefined ? `at most ${high}` : high !== undefined ? `less than ${high}` : "";
    limits.push({
      words: [lowWords, highWords].filter(Boolean).join(" and "),
      numbers: [low, high].filter((x): x is number => x !== undefined),
      keyword: "range",
    });
  }
  const [minI, maxI] = [n(schema.minItems), n(schema.maxItems)];
  if (minI !== undefined || maxI !== undefined) {
    const words =
      minI !== undefined && maxI !== undefined ? `${minI} to ${maxI} items` : minI !== undefined ? `at least ${minI} items` : `at most ${maxI} items`;
    limits.push({ words, numbers: [minI, maxI].filter((x): x is number => x !== undefined), keyword: "items" });
  }
  if (schema.uniqueItems === true) limits.push({ words: "no item twice", numbers: [], keyword: "uniqueItems" });
  if (typeof schema.pattern === "string") limits.push({ words: patternWords(schema.pattern), numbers: [], keyword: "pattern" });
  if (typeof schema.format === "string")
    limits.push({ words: WORDS_FOR_FORMAT[schema.format] ?? `in ${schema.format} format`, numbers: [], keyword: "format" });
  return limits;
}

function patternWords(pattern: string): string {
  if (/^\^\[0-9\]\+\$$|^\^\\d\+\$$/.test(pattern)) return "digits only";
  return `matching the pattern ${pattern}`;
}

/** How a description may write a number: as JSON does (100000, 0.5) or with thousands separators (100,000). */
function spellings(x: number): string[] {
  const plain = String(x);
  const grouped = x.toLocaleString("en-US", { maximumFractionDigits: 20 });
  return [...new Set([plain, grouped])].map((n) => n.replace(/[.]/g, "\\."));
}

/** Whether a description already states a limit: its numbers, or for a pattern or format some words about it. */
export function stated(description: string, limit: Limit): boolean {
  const text = description.toLowerCase();
  if (limit.numbers.length) return limit.numbers.every((x) => new RegExp(`(?<![0-9.,])(${spellings(x).join("|")})(?![0-9]|[.,][0-9])`).test(text));
  switch (limit.keyword) {
    case "pattern":
      return /digit|pattern|format|e\.g\.|for example|such as|hh:mm|yyyy/.test(text);
    case "format":
      return /format|yyyy|iso|e\.g\.|for example|such as|address|url|uuid/.test(text);
    case "uniqueItems":
      return /twice|duplicate|unique|repeat/.test(text);
    default:
      return text.includes(limit.words.toLowerCase());
  }
}

// ---------------------------------------------------------------------------------------------
// The tool's own description

/** Fewer words than this, and a description cannot say what the tool does, returns and is for. */
const SHORT_DESCRIPTION_WORDS = 6;
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Words that say what a tool gives back. */
const RETURNS =
  /\b(returns?|returning|gives? back|responds? with|yields?|outputs?|results?|response|lists?|shows?|displays?|reports?|retrieves?|fetch(es)?|gets?|reads?|finds?|searches|looks? up|provides?|tells?|calculates?|computes?|converts?|counts?|echo(es)?|generates?)\b/i;
/**
 * Words that say when to use a tool, or when not to. Not "should" or "must" (they are said of
 * arguments: "the patterns should be glob-style"), nor "is used to" without the tool as its
 * subject (BFCL's "the Message API, which is used to manage …" describes the API).
 */
const USAGE =
  /\b(use (this|it|when|for|to|only|instead)|(this tool|this|it|tool) (is|can be) (used|useful) (for|when|to)|can be used for|useful (for|when)|when(ever)? (you|the user|a user|asked|needed)|if (you|the user) (want|wants|need|needs|ask|asks)|only (if|when|for)|do not use|don't use|not for|instead of)/i;

function descriptionRules(tool: LintInput, text: ToolText): LintFinding[] {
  const base = { source: "lint" as const, path: "", before: text };
  const description = text.description.trim();
  if (!description) {
    return [
      {
        ...base,
        ...rule("description_missing"),
        id: "description_missing",
        title: `Describe ${code(tool.name)}`,
        evidence: `${code(tool.name)} has no description: the model chooses it by its name and parameters alone.`,
        change: "Say in one or two sentences what the tool does, what it returns, and when to use it (and when not).",
        after: text,
        unknown: "what the tool does, returns and is for",
      },
    ];
  }
  const findings: LintFinding[] = [];
  const count = words(description).length;
  if (count < SHORT_DESCRIPTION_WORDS) {
    findings.push({
      ...base,
      ...rule("description_short"),
      id: "description_short",
      title: `Say more about ${code(tool.name)} than "${description}"`,
      evidence: `The description has ${count} word${count === 1 ? "" : "s"} (fewer than ${SHORT_DESCRIPTION_WORDS}): too few to say what the tool returns and when to use it.`,
      change: 'Add what the tool returns and when to use it, e.g. "Returns … Use it when …; do not use it to …".',
      after: text,
      unknown: "what the tool returns and when to use it",
    });
  }
  if (!RETURNS.test(description)) {
    findings.push({
      ...base,
      ...rule("description_no_returns"),
      id: "description_no_returns",
      title: `Say what ${code(tool.name)} returns`,
      evidence: "The description does not say what the tool gives back, so the model cannot tell whether its answer will hold what it needs.",
      change: 'Add a sentence "Returns …" naming what the answer holds (the fields, or the text).',
      after: text,
      unknown: "what the tool returns",
    });
  }
  if (!USAGE.test(description)) {
    findings.push({
      ...base,
      ...rule("description_no_usage"),
      id: "description_no_usage",
      title: `Say when to use ${code(tool.name)}`,
      evidence: "The description does not say when to use the tool, or when not to, so the model cannot choose between it and a similar one.",
      change: 'Add "Use it when …" and, where another tool is close, "Do not use it to … (use … instead)".',
      after: text,
      unknown: "when the tool should and should not be used",
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** Objects nested deeper than this (counted in property names on the path) are hard for models to fill. */
const MAX_DEPTH = 3;
/** Calls needed before the values they send count as evidence. */
const MIN_CALLS = 20;
/** A free string whose calls sent at most this many distinct values is a closed set. */
const CLOSED_SET_MAX = 10;
/** Share of the tool's calls that sent one value for an optional parameter to suggest it as its default. */
const DEFAULT_SHARE = 0.9;

/**
 * A real number is often an operand any value of which is right (`add(a, b)`): it is asked for a
 * range only when its name or description makes it a quantity with bounds. An integer (a count, a
 * page, an id) always is.
 */
const QUANTITY =
  /\b(count|number of|how many|limit|max(imum)?|min(imum)?|size|quantity|price|amount|cost|percent(age)?|ratio|probability|score|weight|duration|timeout|seconds|minutes|hours|days|delay|interval)\b/i;

const rule = (kind: LintRule) => ({ kind, severity: LINT_RULES[kind].severity });
const isTyped = (schema: JsonObject) => ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "properties", "items"].some((k) => k in schema);
const isChoice = (schema: JsonObject) => "enum" in schema || "const" in schema;
const requiredOf = (schema: JsonObject | undefined): string[] =>
  Array.isArray(schema?.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
const depthOf = (path: string) => (parsePath(path.replace(/\[\]/g, "[0]")) ?? []).filter((s) => typeof s === "string").length;

/** The parent object's schema, its path and the property's name. */
export function parentOf(parameters: JsonObject, path: string): { parent: JsonObject | undefined; name: string; parentPath: string } | undefined {
  const segments = parsePath(path.replace(/\[\]/g, "[0]")) ?? [];
  const name = segments.pop();
  if (typeof name !== "string") return undefined;
  const parentPath = formatPath(segments).replace(/\[0\]/g, "[]");
  return { parent: schemaAt(parameters, parentPath), name, parentPath };
}

/** "optional" said of a parameter (not "not optional"). */
const SAYS_OPTIONAL = /(?<!\bnot |\bnon-)\boptional\b/i;
/** "required" said of the parameter itself: "Required:", "(required)", "This is required", "is required.". */
const SAYS_REQUIRED = /^\s*\(?required\)?\b|\(required\)|\b(this|it|field|parameter|argument|value) is required\b/i;

function parameterRules(text: ToolText, observed: ObservedCalls | undefined): LintFinding[] {
  const findings: LintFinding[] = [];
  const base = { source: "lint" as const, before: text };
  walkProperties(text.parameters, "", (schema, path) => {
    const isItem = path.endsWith("[]");
    const description = descriptionOf(schema);
    const at = isItem ? path.slice(0, -2) : path;
    const place = isItem ? undefined : parentOf(text.parameters, path);
    const required = place ? requiredOf(place.parent).includes(place.name) : false;
    if (!isItem && !description) {
      findings.push({
        ...base,
        ...rule("undescribed_parameter"),
        id: `undescribed_parameter:${path}`,
        path,
        title: `Describe ${code(path)}`,
        evidence: `${code(path)} has no description: the model has only its name${types(schema).length ? ` and type (${types(schema).join(", ")})` : ""} to go on.`,
        change: `Say what ${code(path)} is for, where its value comes from and, if it is optional, what happens without it.`,
        after: text,
        unknown: `what ${code(path)} is for and where its value comes from`,
      });
    }
    if (!isTyped(schema)) {
      findings.push({
        ...base,
        ...rule("parameter_untyped"),
        id: `parameter_untyped:${path}`,
        path,
        title: `Give ${code(path)} a type`,
        evidence: `${code(path)} has no type: any value is valid, so a wrong one is never refused with a message the model can act on.`,
        change: `Add "type" (and, for a string from a known list, "enum") to ${code(path)}.`,
        after: text,
        unknown: `the type of ${code(path)}`,
      });
    }
    const values = Array.isArray(schema.enum) ? schema.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))) : [];
    // An enum inside an array is explained by the array's description.
    const explainedBy = isItem ? `${description} ${descriptionOf(schemaAt(text.parameters, at))}` : description;
    if (values.length && !values.every((v) => explainedBy.includes(v))) {
      findings.push({
        ...base,
        ...rule("enum_unexplained"),
        id: `enum_unexplained:${path}`,
        path: at,
        title: `Explain the values of ${code(at)}`,
        evidence: `${code(at)} allows ${values.join(", ")}, but its description ${explainedBy.trim() ? "does not name them all" : "is empty"}.`,
        change: `Name the values and when to use each; models guess synonyms (e.g. "pending" for "open") when they only see a type.`,
        after: edited(text, at, describe(`${isItem ? "Each item is one" : "One"} of: ${values.join(", ")}.`)),
      });
    }
    for (const limit of limitsOf(schema)) {
      if (stated(explainedBy, limit)) continue;
      findings.push({
        ...base,
        ...rule("limit_unstated"),
        id: `limit_unstated:${path}:${limit.keyword}`,
        path: at,
        title: `State the limit of ${code(path)} in words: ${limit.words}`,
        evidence: `The schema enforces ${limit.words} at ${code(path)}; the description does not say so.`,
        change: `Add "${limit.words}" to the description of ${code(at)}: a limit the model cannot see is one it will break.`,
        after: edited(text, at, describe(`${isItem ? "Each item: " : ""}${limit.words[0]!.toUpperCase()}${limit.words.slice(1)}.`)),
      });
    }
    const kind = types(schema);
    if (
      kind.length &&
      kind.every((t) => t === "number" || t === "integer") &&
      (kind.includes("integer") || QUANTITY.test(`${path.replace(/[_\-.[\]]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2")} ${description}`)) &&
      !isChoice(schema) &&
      !limitsOf(schema).some((l) => l.keyword === "range")
    ) {
      findings.push({
        ...base,
        ...rule("number_unbounded"),
        id: `number_unbounded:${path}`,
        path,
        title: `Give ${code(path)} a range`,
        evidence: `${code(path)} is ${kind.join(" or ")} without "minimum" or "maximum": a negative, zero or huge value passes validation and reaches the tool.`,
        change: `Set "minimum" and "maximum" to what the tool accepts, and say them in the description.`,
        after: text,
        unknown: `the smallest and largest value ${code(path)} accepts`,
      });
    }
    if (!isItem && !required && !isChoice(schema) && SAYS_REQUIRED.test(description)) {
      findings.push(contradiction(text, path, `says it is required, but it is not in "required"`, "optional"));
    }
    if (!isItem && required && SAYS_OPTIONAL.test(description)) {
      findings.push(contradiction(text, path, `says it is optional, but "required" lists it`, "required"));
    }
    const sent = observed?.values[path];
    if (!observed || !sent || observed.calls < MIN_CALLS) return;
    const sends = sent.reduce((s, v) => s + v.count, 0);
    const ranked = [...sent].sort((a, b) => b.count - a.count || (JSON.stringify(a.value) < JSON.stringify(b.value) ? -1 : 1));
    const plainString = kind.length === 1 && kind[0] === "string" && !isChoice(schema) && !("format" in schema) && !("pattern" in schema);
    if (
      plainString &&
      sends >= MIN_CALLS &&
      ranked.length <= CLOSED_SET_MAX &&
      ranked.length * 5 <= sends &&
      ranked.every((v) => typeof v.value === "string")
    ) {
      const seen = ranked.map((v) => v.value as string);
      findings.push({
        ...rule("string_closed_set"),
        source: "calls",
        calls: { supporting: sends, of: observed.calls },
        before: text,
        id: `string_closed_set:${path}`,
        path,
        title: `Make ${code(path)} an enum of the ${seen.length} values the calls send`,
        evidence: `${code(path)} is a free string, but ${sends} calls sent only ${ranked.map((v) => `${JSON.stringify(v.value)} ×${v.count}`).join(", ")}.`,
        change: `If these are all the values the tool takes, list them as "enum" (and name them in the description); a model's synonym is then refused with the list instead of reaching the tool.`,
        after: edited(text, path, (s) => {
          s.enum = seen;
          describe(`One of: ${seen.join(", ")}.`)(s);
        }),
      });
    }
    const top = ranked[0];
    if (!isItem && !required && !("default" in schema) && top && top.count >= DEFAULT_SHARE * observed.calls) {
      findings.push({
        ...rule("optional_without_default"),
        source: "calls",
        calls: { supporting: top.count, of: observed.calls },
        before: text,
        id: `optional_without_default:${path}`,
        path,
        title: `Give ${code(path)} the default ${JSON.stringify(top.value)}`,
        evidence: `${code(path)} is optional without a default, yet ${top.count} of ${observed.calls} calls (${formatPercent(top.count / observed.calls, { digits: 0 })}) sent ${JSON.stringify(top.value)}.`,
        change: `Declare "default": ${JSON.stringify(top.value)} and say it in the description; the model can then leave it out and the tool behaves the same.`,
        after: edited(text, path, (s) => {
          s.default = top.value;
          describe(`Default ${JSON.stringify(top.value)}.`)(s);
        }),
      });
    }
  });
  return findings;
}

function contradiction(text: ToolText, path: string, what: string, is: "required" | "optional"): LintFinding {
  const kind: LintRule = "description_contradicts_schema";
  return {
    ...rule(kind),
    // "optional" on a required parameter makes the model leave it out: an invalid call; the reverse only wastes a question
    severity: is === "required" ? "error" : "warning",
    source: "lint",
    id: `${kind}:${path}`,
    path,
    title: `The description of ${code(path)} ${what}`,
    evidence: `The description of ${code(path)} ${what}; the model reads the words, the validator the schema.`,
    change:
      is === "required"
        ? `Either drop ${code(path)} from "required" (and give it a default) or remove "optional" from its description.`
        : `Either add ${code(path)} to "required" or remove "required" from its description.`,
    before: text,
    after: text,
    unknown: `whether ${code(path)} is required`,
  };
}

function structureRules(text: ToolText): LintFinding[] {
  const findings: LintFinding[] = [];
  const base = { source: "lint" as const, before: text };
  for (const { schema, path } of objectSchemas(text.parameters)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const strays = requiredOf(schema).filter((name) => !Object.hasOwn(properties, name));
    if (strays.length) {
      findings.push({
        ...base,
        ...rule("required_not_property"),
        id: `required_not_property:${path}`,
        path,
        title: `${path ? code(path) : "The schema"} requires ${strays.map(code).join(", ")}, which ${strays.length === 1 ? "is not a property" : "are not properties"}`,
        evidence: `"required" lists ${strays.map((s) => JSON.stringify(s)).join(", ")}, but the properties are ${Object.keys(properties).map(code).join(", ") || "none"}: the model is told nothing about ${strays.length === 1 ? "it" : "them"}, and every call without ${strays.length === 1 ? "it" : "them"} is refused.`,
        change: `Remove ${strays.map(code).join(", ")} from "required", or add ${strays.length === 1 ? "it" : "them"} to "properties" with a type and description (a misspelt name is the usual cause).`,
        after: edited(text, path, (s) => {
          s.required = requiredOf(s).filter((name) => !strays.includes(name));
        }),
      });
    }
    if (
      path &&
      !("additionalProperties" in schema) &&
      !("unevaluatedProperties" in schema) &&
      (types(schema).includes("object") || isPlainObject(schema.properties))
    ) {
      findings.push({
        ...base,
        ...rule("nested_additional_properties"),
        id: `nested_additional_properties:${path}`,
        path,
        title: `Say whether ${code(path)} takes other keys`,
        evidence: `${code(path)} is an object without "additionalProperties": keys the model invents there are accepted silently.`,
        change: `Set "additionalProperties": false so that an invented key is refused with a message naming the allowed ones; or true (or a schema) when free keys are intended — then say so in the description.`,
        after: edited(text, path, (s) => (s.additionalProperties = false)),
      });
    }
  }
  let deepest = "";
  walkProperties(text.parameters, "", (_schema, path) => {
    if (depthOf(path) > depthOf(deepest)) deepest = path;
  });
  const loop = selfReference(text.parameters);
  if (depthOf(deepest) > MAX_DEPTH || loop) {
    findings.push({
      ...base,
      ...rule("deep_nesting"),
      id: "deep_nesting",
      path: loop ? "" : deepest,
      title: loop ? `The schema refers to itself (${code(loop)})` : `Flatten ${code(deepest)}: ${depthOf(deepest)} levels deep`,
      evidence: loop
        ? `${code(loop)} leads back to a schema that contains it: the model must build a tree of unknown depth, and many providers refuse recursive schemas.`
        : `${code(deepest)} is ${depthOf(deepest)} objects deep (more than ${MAX_DEPTH}): models drop or misplace keys deep in a structure.`,
      change: loop
        ? "Replace the recursion by a flat list (items with a parent id), or bound the depth with separate schemas per level."
        : "Lift the inner fields to the top (e.g. `shipping_city` instead of `order.shipping.address.city`), or split the tool in two.",
      after: text,
      unknown: "how to flatten the structure",
    });
  }
  return findings;
}

/** The first `$ref` (as its JSON pointer) that leads back to a schema on its own way down, or undefined. */
function selfReference(root: JsonObject): string | undefined {
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      node = isPlainObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    }
    return node;
  };
  const visit = (node: unknown, refs: readonly string[], depth: number): string | undefined => {
    if (depth > 64) return undefined;
    if (Array.isArray(node)) {
      for (const item of node) {
        const found = visit(item, refs, depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    if (!isPlainObject(node)) return undefined;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        if (refs.includes(value)) return value;
        const found = visit(resolve(value), [...refs, value], depth + 1);
        if (found) return found;
      } else if (key !== "$defs" && key !== "definitions" && key !== "enum" && key !== "const" && key !== "default" && key !== "examples") {
        const found = visit(value, refs, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(root, ["#"], 0);
}

// ---------------------------------------------------------------------------------------------
// Between tools

/** Two descriptions this similar (Jaccard of their word sets) are near-duplicates. */
const DUPLICATE_SIMILARITY = 0.8;

type Described = { name: string; description?: string };

function similarity(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return both / (a.size + b.size - both || 1);
}

/**
 * Words in more than half of a set's descriptions (of four tools or more): the text a suite repeats
 * in every tool ("This tool belongs to the ticketing system … Tool description:"), left out when
 * descriptions are compared, so that only what each says of itself counts.
 */
function sharedWords(tools: readonly Described[]): Set<string> {
  if (tools.length < 4) return new Set();
  const frequency = new Map<string, number>();
  for (const tool of tools) for (const w of new Set(words(tool.description ?? ""))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  return new Set([...frequency].filter(([, n]) => n > tools.length / 2).map(([w]) => w));
}

/** Another tool whose description nearly repeats a tool's: the overlap (Jaccard of their own words) and the words both use, in the tool's order. */
export type DescriptionOverlap = { name: string; score: number; sharedWords: string[] };

/**
 * The tools of `others` whose descriptions nearly repeat `tool`'s (the rule `description_duplicate`),
 * most overlap first: words the whole set repeats are left out, and a description of fewer than
 * SHORT_DESCRIPTION_WORDS own words is too short to compare.
 */
export function overlappingDescriptions(tool: Described, others: readonly Described[]): DescriptionOverlap[] {
  const common = sharedWords(others);
  const distinct = (text: string | undefined) => new Set(words(text ?? "").filter((w) => !common.has(w)));
  const own = distinct(tool.description);
  if (own.size < SHORT_DESCRIPTION_WORDS) return [];
  return others
    .filter((o) => o.name !== tool.name)
    .map((o) => {
      const theirs = distinct(o.description);
      return { name: o.name, score: similarity(own, theirs), sharedWords: [...own].filter((w) => theirs.has(w)) };
    })
    .filter((o) => o.score >= DUPLICATE_SIMILARITY)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
}

/** What to change when two descriptions overlap: the lint finding's and the confusable pair's advice. */
export const OVERLAP_CHANGE =
  "Start each description with what sets the tool apart (what it returns, its input, when to prefer it), and say when to use the other one instead.";

function betweenRules(tool: LintInput, text: ToolText, others: readonly LintInput[]): LintFinding[] {
  const findings: LintFinding[] = [];
  const base = { source: "lint" as const, path: "", before: text, after: text };
  const twins = others.filter((o) => o.name !== tool.name && nameKey(o.name) === nameKey(tool.name)).map((o) => o.name);
  if (twins.length) {
    findings.push({
      ...base,
      ...rule("name_collision"),
      id: "name_collision",
      title: `${code(tool.name)} differs from ${twins.map(code).join(", ")} only by case or separators`,
      evidence: `Models normalise case and separators when they recall a name: a call meant for one of these goes to the other.`,
      change: `Rename one of them to say how it differs (e.g. ${code(`${tool.name}_by_id`)}), or merge them into one tool.`,
      unknown: "how the tools differ",
    });
  }
  const near = overlappingDescriptions(tool, others);
  if (near.length) {
    findings.push({
      ...base,
      ...rule("description_duplicate"),
      id: "description_duplicate",
      title: `The description of ${code(tool.name)} nearly repeats ${near.map((n) => code(n.name)).join(", ")}`,
      evidence: `Word overlap ${near.map((n) => `${formatPercent(n.score, { digits: 0 })} with ${code(n.name)}`).join(", ")}: the model cannot tell from the words which tool to call.`,
      change: OVERLAP_CHANGE,
      unknown: "what sets the tools apart",
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------

const ORDER = Object.keys(LINT_RULES) as LintRule[];
/** Most severe first, then in the order of LINT_RULES; within a rule, in the schema's order (the sort is stable). */
const bySeverity = (a: LintFinding, b: LintFinding) =>
  SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind);

/**
 * The findings for one tool, most severe first. `others` are the tools beside it (for the rules
 * between tools: names and descriptions); `observed`, the values its recorded calls sent.
 */
export function lintTool(tool: LintInput, options: { others?: readonly LintInput[]; observed?: ObservedCalls } = {}): LintFinding[] {
  const text: ToolText = { description: tool.description ?? "", parameters: tool.parameters };
  return [
    ...descriptionRules(tool, text),
    ...parameterRules(text, options.observed),
    ...structureRules(text),
    ...betweenRules(tool, text, options.others ?? []),
  ].sort(bySeverity);
}

/** A finding's change as two lines, before and after: the description, or the schema at its path; none when nothing changes. */
export function findingDiff(f: LintFinding): string[] {
  if (JSON.stringify(f.before) === JSON.stringify(f.after)) return [];
  if (f.before.description !== f.after.description)
    return [`- description: ${JSON.stringify(f.before.description)}`, `+ description: ${JSON.stringify(f.after.description)}`];
  const at = (parameters: unknown) => JSON.stringify((f.path ? schemaAt(parameters, f.path) : parameters) ?? null);
  const where = f.path || "parameters";
  return [`- ${where}: ${at(f.before.parameters)}`, `+ ${where}: ${at(f.after.parameters)}`];
}

/** Each tool of a set with its findings, the tools in the order given. */
export function lintTools(tools: readonly LintInput[], observed: Readonly<Record<string, ObservedCalls>> = {}): { tool: string; findings: LintFinding[] }[] {
  return tools.map((tool) => ({ tool: tool.name, findings: lintTool(tool, { others: tools, observed: observed[tool.name] }) }));
}

// ---------------------------------------------------------------------------------------------
// The score (docs/definition-lint.md)

/** What one finding of each severity takes off a tool's 100 points. */
const SEVERITY_POINTS: Readonly<Record<LintSeverity, number>> = { error: 20, warning: 8, info: 2 };

/** One line of a score's explanation: a rule's findings at one severity and the points they took. */
export type ScoreLine = { kind: LintRule; severity: LintSeverity; count: number; points: number };

/**
 * A tool's definition score: 100 less, for each rule (and severity), its points for the first
 * finding and half of them for each further one, at most twice its points; never below 0. Ten
 * undescribed parameters cost a tool more than one, but do not hide every other rule.
 */
export function scoreTool(findings: readonly Pick<LintFinding, "kind" | "severity">[]): { score: number; lines: ScoreLine[] } {
  const counts = new Map<string, ScoreLine>();
  for (const f of findings) {
    const key = `${f.kind}\t${f.severity}`;
    const line = counts.get(key) ?? { kind: f.kind, severity: f.severity, count: 0, points: 0 };
    line.count++;
    const w = SEVERITY_POINTS[f.severity];
    line.points = Math.min(2 * w, w + ((line.count - 1) * w) / 2);
    counts.set(key, line);
  }
  const lines = [...counts.values()];
  return { score: Math.max(0, 100 - lines.reduce((s, l) => s + l.points, 0)), lines };
}

/** A set's score: the mean of its tools' scores, rounded down (100 for no tools), with each tool's. */
export function scoreTools(results: readonly { tool: string; findings: readonly Pick<LintFinding, "kind" | "severity">[] }[]): {
  score: number;
  tools: { tool: string; score: number; lines: ScoreLine[] }[];
} {
  const tools = results.map((r) => ({ tool: r.tool, ...scoreTool(r.findings) }));
  return { score: tools.length ? Math.floor(tools.reduce((s, t) => s + t.score, 0) / tools.length) : 100, tools };
}
