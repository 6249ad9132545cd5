import type { RegisteredTool } from "../../../isomorphic/classify";
import { invalid } from "../../domain/errors";
import { checkJsonSchema, normalizeToolInput, type ToolDefinition } from "../../../isomorphic/tool-schema";
import { timeSlicer } from "../../domain/time-slice";
import { schemaVersion } from "../../domain/schema-version";
import { pool, prisma } from "../../db/client";
import { registryResolver, verdictFor } from "../../domain/verdicts";

export type RegisterResult = { name: string; version: string; created: boolean };

/**
 * A tool definition as tools.register would store it (normalised, its schema checked, versioned
 * by its canonical hash), or why it would refuse it. A version `known` to be stored already was
 * checked when it was stored, so its schema is not checked again (that costs up to 150 ms).
 */
export function versionedTool(
  input: unknown,
  known: (name: string, version: string) => boolean = () => false,
): { ok: true; tool: ToolDefinition & { version: string } } | { ok: false; name?: string; message: string } {
  const normalized = normalizeToolInput(input);
  if (!normalized.ok) return { ok: false, message: normalized.message };
  const tool = { ...normalized.tool, version: schemaVersion(normalized.tool.parameters) };
  if (known(tool.name, tool.version)) return { ok: true, tool };
  const check = checkJsonSchema(normalized.tool.parameters);
  if (!check.ok) return { ok: false, name: normalized.tool.name, message: check.message };
  return { ok: true, tool };
}

/**
 * Stores each tool's JSON Schema, versioned by the hash of its canonical form. A schema
 * seen before keeps its version (and first-seen date); a changed one adds a version.
 * All tools are checked first, so a broken one registers none.
 */
export async function registerTools(projectId: string, inputs: unknown[], source: "api" | "otlp" = "api"): Promise<RegisterResult[]> {
  const problems: string[] = [];
  const tools: (ToolDefinition & { version: string })[] = [];
  const pause = timeSlicer(); // compiling a schema may take 150 ms (docs/limits.md), and a call may hold 500
  for (const [index, input] of inputs.entries()) {
    await pause();
    const versioned = versionedTool(input);
    if (versioned.ok) tools.push(versioned.tool);
    else problems.push(`tools[${index}]${versioned.name ? ` (${versioned.name})` : ""}: ${versioned.message}`);
  }
  if (problems.length) throw invalid(problems.join(" "));

  const results: RegisterResult[] = [];
  for (const tool of tools) {
    const { count } = await prisma().toolDefinition.createMany({
      data: [{ projectId, name: tool.name, version: tool.version, description: tool.description ?? "", parameters: tool.parameters as object, source }],
      skipDuplicates: true,
    });
    results.push({ name: tool.name, version: tool.version, created: count === 1 });
  }
  return results;
}

/** Every version of every tool of a project, newest first per name. */
export async function loadToolVersions(projectId: string) {
  const { rows } = await pool().query<RegisteredTool & { firstSeenAt: Date }>(
    `SELECT name, version, parameters, first_seen_at AS "firstSeenAt" FROM tool_definitions
      WHERE project_id = $1 ORDER BY name, first_seen_at DESC, version`,
    [projectId],
  );
  return rows;
}

export async function listTools(projectId: string) {
  return prisma().toolDefinition.findMany({
    where: { projectId },
    orderBy: [{ name: "asc" }, { firstSeenAt: "desc" }],
    select: { name: true, version: true, description: true, parameters: true, firstSeenAt: true, source: true },
  });
}

/**
 * tools.validate: the verdict ingestion would store for this call, computed by the same
 * function (verdictFor). `valid: null` when ingestion would store the call unchecked: the
 * project has no schemas yet, or the tool's stored schema cannot be compiled.
 */
export async function validateCall(projectId: string, input: { tool: string; arguments: unknown; toolVersion?: string }) {
  const registry = registryResolver(await loadToolVersions(projectId));
  const verdict = verdictFor({ tool: input.tool, arguments: input.arguments, toolVersion: input.toolVersion }, registry);
  if (verdict.checked) return verdict.checked;
  const message = registry.isEmpty
    ? "Unchecked: this project has no tool schemas yet, so ingestion stores calls without a verdict of Toolgate's own. Register the tools' JSON Schemas with tools.register."
    : `Unchecked: the stored schema of '${input.tool}' cannot be compiled, so ingestion stores this call without a verdict of Toolgate's own. Register a corrected schema with tools.register.`;
  return { valid: null, message, violations: [], version: null };
}
