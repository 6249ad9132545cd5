import type { RegisteredTool } from "../../../isomorphic/classify";
import { invalid } from "../../domain/errors";
import { checkJsonSchema, describeValue, isPlainObject, normalizeToolInput, type JsonObject, type ToolDefinition } from "../../../isomorphic/tool-schema";
import { timeSlicer } from "../time-slice";
import { schemaVersion } from "../../domain/schema-version";
import { pool, prisma } from "../../db/client";
import { registryResolver, verdictFor } from "../../domain/verdicts";
import { readPastedTools } from "../../../isomorphic/pasted-tools";
import { NOT_CHECKED_COUNTED } from "../../../contracts/tools";

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
export async function registerTools(projectId: string, inputs: unknown[], source: "api" | "ui" = "api"): Promise<RegisterResult[]> {
  const problems: string[] = [];
  const tools: (ToolDefinition & { version: string; source: string })[] = [];
  const pause = timeSlicer(); // compiling a schema may take 150 ms (docs/limits.md), and a call may hold 500
  for (const [index, input] of inputs.entries()) {
    await pause();
    const versioned = versionedTool(input);
    const mcp = mcpSource(input);
    if (!versioned.ok) problems.push(`tools[${index}]${versioned.name ? ` (${versioned.name})` : ""}: ${versioned.message}`);
    else if (mcp !== undefined && !mcp.ok) problems.push(`tools[${index}] (${versioned.tool.name}): ${mcp.message}`);
    else tools.push({ ...versioned.tool, source: mcp?.source ?? source });
  }
  if (problems.length) throw invalid(problems.join(" "));
  return storeTools(projectId, tools);
}

/** Stores tools already versioned (and checked) by versionedTool; a version stored before is kept as it was. */
export async function storeTools(projectId: string, tools: (ToolDefinition & { version: string; source: string })[]): Promise<RegisterResult[]> {
  const results: RegisterResult[] = [];
  for (const tool of tools) {
    const { count } = await prisma().toolDefinition.createMany({
      data: [
        { projectId, name: tool.name, version: tool.version, description: tool.description ?? "", parameters: tool.parameters as object, source: tool.source },
      ],
      skipDuplicates: true,
    });
    results.push({ name: tool.name, version: tool.version, created: count === 1 });
  }
  // a new version changes what the schema doctor suggests and which tools can be confused: the
  // project's stored answers of derived reads (docs/rollups.md) are computed again on the next view
  if (results.some((r) => r.created)) await prisma().derivedAnswer.deleteMany({ where: { projectId } });
  return results;
}

/**
 * A tool's own `source` field: only the MCP gateway sends one, `mcp:<serverInfo.name>` (the server
 * the schema was read from). undefined when the tool has none.
 */
function mcpSource(input: unknown): { ok: true; source: string } | { ok: false; message: string } | undefined {
  const value = isPlainObject(input) ? input.source : undefined;
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^mcp:[^\p{Cc}]{1,200}$/u.test(value)) return { ok: true, source: value };
  return {
    ok: false,
    message: `Error: 'source' must be "mcp:" followed by the MCP server's name (1 to 200 characters), you sent ${describeValue(value)}. Leave 'source' out unless the schema was read from an MCP server.`,
  };
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

/** The newest version of each tool (listTools holds them newest first per name), as the definition lint reads them. */
export function latestDefinitions(versions: Awaited<ReturnType<typeof listTools>>): { name: string; description: string; parameters: JsonObject }[] {
  const seen = new Set<string>();
  return versions.flatMap((v) => {
    if (seen.has(v.name) || !isPlainObject(v.parameters)) return [];
    seen.add(v.name);
    return [{ name: v.name, description: v.description, parameters: v.parameters }];
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
    : `${verdict.unchecked ?? "Unchecked: Toolgate could not check this call."} Ingestion stores this call without a verdict of Toolgate's own.`;
  return { valid: null, message, violations: [], version: null };
}

/**
 * The browser's form: definitions pasted or uploaded as JSON (readPastedTools says which shapes),
 * registered exactly as tools.register registers them. `name` names a plain JSON Schema's tool.
 */
export async function registerPasted(projectId: string, text: string, name?: string): Promise<RegisterResult[]> {
  const read = readPastedTools(text, name);
  if (!read.ok) throw invalid(read.message);
  return registerTools(projectId, read.tools, "ui");
}

/** At most this many tools without a schema are listed, the most called first. */
const UNREGISTERED_SHOWN = 50;

/**
 * The tools the project's calls name (all time, from the daily rollups) that have no registered
 * schema and still have calls stored without a verdict (unchecked: before the project had any
 * schema), the most called first, each with how many such calls, counted up to
 * NOT_CHECKED_COUNTED; and whether the project has any schema at all. A name whose calls all got
 * a verdict (unknown tool, once other tools have schemas) is not listed: the Tools page's
 * "Unknown tool names" shows those.
 */
export async function unregisteredTools(projectId: string) {
  const { rows } = await pool().query<{ tool: string; calls: string; notChecked: number }>(
    `WITH seen AS (
       SELECT tool, sum(calls) AS calls FROM call_rollups_daily r
        WHERE project_id = $1 AND NOT EXISTS (SELECT FROM tool_definitions d WHERE d.project_id = $1 AND d.name = r.tool)
        GROUP BY tool ORDER BY 2 DESC, 1 LIMIT ${UNREGISTERED_SHOWN}
     ), counted AS (
       SELECT tool, calls, (SELECT count(*) FROM (SELECT FROM tool_calls c WHERE c.project_id = $1 AND c.tool = seen.tool AND c.checked_valid IS NULL
                                                   LIMIT ${NOT_CHECKED_COUNTED}) x)::int AS "notChecked"
         FROM seen
     )
     SELECT * FROM counted WHERE "notChecked" > 0 ORDER BY calls DESC, tool`,
    [projectId],
  );
  const anySchema = await prisma().toolDefinition.findFirst({ where: { projectId }, select: { name: true } });
  return { anySchema: anySchema !== null, tools: rows.map((r) => ({ tool: r.tool, calls: Number(r.calls), notChecked: r.notChecked })) };
}
