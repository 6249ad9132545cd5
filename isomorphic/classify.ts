import { categoryRank, type Category } from "../contracts/categories";
import { compiledTool, ToolSchemaError } from "./compiled-tools";
import { explain } from "./explain-errors";
import { likelyTool, rankToolNames } from "./tool-names";
import { checkSchemaCost, describeValue, evaluationProblem, isPlainObject, storedKeyOrder, truncate, type JsonObject } from "./tool-schema";
import { toViolation, type Violation } from "./violation-messages";

export { ToolSchemaError, type Violation };

export interface RegisteredTool {
  name: string;
  version: string;
  parameters: object;
}

export interface ToolRegistry {
  names: string[];
  get(name: string): { version: string; parameters: object } | undefined;
}

export interface Verdict {
  valid: boolean;
  category?: Category;
  message?: string;
  path?: string;
  violations: Violation[];
}

export function registryFrom(tools: RegisteredTool[]): ToolRegistry {
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  return { names: [...byName.keys()], get: (name) => byName.get(name) };
}

/**
 * The verdict on one tool request. Never yields `not_allowed`: that is a policy decision only the
 * harness can make. Throws ToolSchemaError when the registered schema cannot be compiled, or cannot
 * be evaluated on these arguments.
 */
export function classifyCall(input: { tool: string; arguments: unknown; registry: ToolRegistry }): Verdict {
  const { tool, registry } = input;
  const entry = registry.get(tool);
  const violations: Violation[] = [];

  const parsed = parseArguments(input.arguments);
  if (!parsed.ok) {
    // the schema as stored, when it is one Toolgate can read (an MCP server's has not been checked yet)
    const readable = entry && checkSchemaCost(entry.parameters as JsonObject).ok;
    const example = readable ? exampleArguments(storedKeyOrder(entry.parameters)) : '{"name": "value"}';
    violations.push({
      category: "malformed_arguments",
      path: "",
      keyword: "json",
      message: `Error: the arguments must be a JSON object, you sent ${parsed.sent}. Send the arguments as a JSON object such as ${example}.`,
    });
  }
  if (!entry) violations.push(unknownTool(tool, registry.names));
  if (!parsed.ok || !entry) return verdictOf(violations);

  const compiled = compiledTool(tool, entry.version, entry.parameters);
  try {
    if (compiled.validate(parsed.value)) return verdictOf([]);
    const seen = new Set<string>();
    for (const error of explain(compiled, compiled.validate.errors ?? [])) {
      const violation = toViolation(error, tool, parsed.value);
      const key = `${violation.category}|${violation.path}|${violation.message}`;
      if (!seen.has(key)) violations.push(violation);
      seen.add(key);
    }
  } catch (error) {
    // A schema whose evaluation overflows on some arguments only (registration tries it on {}):
    // this call cannot be checked, the schema stays usable for others.
    if (error instanceof RangeError)
      throw new ToolSchemaError(`the schema of ${tool}@${entry.version} cannot be evaluated on these arguments: ${evaluationProblem(error)}`);
    throw error;
  }
  return verdictOf(violations);
}

function verdictOf(violations: Violation[]): Verdict {
  const [first, ...rest] = violations;
  if (!first) return { valid: true, violations: [] };
  const primary = rest.reduce((best, v) => (categoryRank(v.category) < categoryRank(best.category) ? v : best), first);
  return { valid: false, category: primary.category, message: primary.message, ...(primary.path ? { path: primary.path } : {}), violations };
}

// ---------------------------------------------------------------------------------------------
// Arguments and tool names

function parseArguments(args: unknown): { ok: true; value: JsonObject } | { ok: false; sent: string } {
  let value = args;
  if (typeof args === "string") {
    if (args.trim() === "") return { ok: false, sent: "an empty string" };
    try {
      value = JSON.parse(args);
    } catch {
      return { ok: false, sent: `text that is not valid JSON: ${truncate(args)}` };
    }
  }
  return isPlainObject(value) ? { ok: true, value } : { ok: false, sent: describeValue(value) };
}

/** A small example call built from the schema: its required properties (at most 3), else its first property. */
function exampleArguments(parameters: object): string {
  const schema = parameters as JsonObject;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
  const keys = required.length > 0 ? required.slice(0, 3) : Object.keys(properties).slice(0, 1);
  return `{${keys.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(sampleValue(properties[key]))}`).join(", ")}}`;
}

function sampleValue(schema: unknown): unknown {
  if (!isPlainObject(schema)) return "...";
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = [schema.type].flat()[0];
  if (type === "number" || type === "integer") return typeof schema.minimum === "number" ? schema.minimum : 1;
  const samples: Record<string, unknown> = { boolean: true, array: [], object: {}, null: null };
  return Object.hasOwn(samples, String(type)) ? samples[String(type)] : "...";
}

const SHOWN_TOOLS = 10;

function unknownTool(tool: string, names: string[]): Violation {
  if (names.length === 0) {
    const message = `Error: no tool named '${truncate(tool)}'. No tools are registered; register the tool's schema before calling it.`;
    return { category: "unknown_tool", path: "", keyword: "tool", message };
  }
  const shown = rankToolNames(tool, names).slice(0, SHOWN_TOOLS);
  const list =
    names.length <= SHOWN_TOOLS
      ? `Available tools: ${shown.join(", ")}.`
      : `The closest of the ${names.length} tools: ${shown.join(", ")} and ${names.length - SHOWN_TOOLS} more.`;
  const meant = likelyTool(tool, names);
  const fix = meant ? ` Did you mean '${meant}'?` : " Call one of these instead.";
  return { category: "unknown_tool", path: "", keyword: "tool", message: `Error: no tool named '${truncate(tool)}'. ${list}${fix}` };
}
