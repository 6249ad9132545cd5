// The corpus of public tool definitions (README.md here), read as the lint reads them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { LintInput } from "../../isomorphic/definition-lint";
import { readPastedTools } from "../../isomorphic/pasted-tools";
import { normalizeToolInput } from "../../isomorphic/tool-schema";

const here = import.meta.dirname;

/**
 * BFCL writes Python-style type names ("dict", "float", "tuple", "any"); its harness maps them to
 * JSON Schema's before a request (GORILLA_TO_OPENAPI in bfcl_eval/constants/type_mappings.py).
 * The same mapping, for the names this corpus uses, so that the lint sees what a model is sent.
 */
const BFCL_TYPES: Record<string, string> = { dict: "object", float: "number", tuple: "array", any: "string", list: "array", bool: "boolean" };

function openapiTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openapiTypes);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === "type" && typeof value === "string" ? (BFCL_TYPES[value] ?? value) : openapiTypes(value)]),
  );
}

function definitions(tools: unknown[]): LintInput[] {
  return tools.map((tool) => {
    const read = normalizeToolInput(tool);
    if (!read.ok) throw new Error(read.message);
    return read.tool;
  });
}

/** Each tool set of the corpus: the MCP servers' tools/list results and the BFCL API suites, by file. */
export function corpus(): { set: string; tools: LintInput[] }[] {
  const sets: { set: string; tools: LintInput[] }[] = [];
  for (const file of readdirSync(path.join(here, "mcp"))
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const read = readPastedTools(readFileSync(path.join(here, "mcp", file), "utf8"));
    if (!read.ok) throw new Error(read.message);
    sets.push({ set: `mcp/${file}`, tools: definitions(read.tools) });
  }
  for (const file of readdirSync(path.join(here, "bfcl"))
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const lines = readFileSync(path.join(here, "bfcl", file), "utf8")
      .split("\n")
      .filter(Boolean);
    sets.push({ set: `bfcl/${file}`, tools: definitions(lines.map((line) => openapiTypes(JSON.parse(line)))) });
  }
  return sets;
}
