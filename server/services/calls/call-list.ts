import { to as copyTo } from "pg-copy-streams";
import type { CallsFilter } from "../../../contracts/metrics";
import { invalid as invalidInput } from "../../domain/errors";
import { RUN_ORDER } from "../../domain/pairing";
import { pool, prisma, type Prisma } from "../../db/client";
import { callSelect } from "./call-detail";

/** Prisma filter for the calls explorer; every filter is indexed or narrows an indexed scan. */
function callsWhere(projectId: string, f: CallsFilter): Prisma.ToolCallWhereInput {
  return {
    projectId,
    timestamp: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lt: new Date(f.to) } : {}) },
    ...(f.tool ? { tool: f.tool } : {}),
    ...(f.model ? { modelName: f.model } : {}),
    ...(f.modelVersion ? { modelVersion: f.modelVersion } : {}),
    ...(f.valid === "invalid" ? { valid: false } : f.valid === "valid" ? { NOT: { valid: false } } : {}),
    ...(f.category ? { category: f.category } : {}),
    ...(f.runId ? { runId: f.runId } : {}),
    ...(f.q ? { message: { contains: f.q, mode: "insensitive" as const } } : {}),
    ...(f.disagree ? { verdictsDiffer: true } : {}),
  };
}

const listSelect = {
  id: true,
  runId: true,
  step: true,
  timestamp: true,
  modelName: true,
  modelVersion: true,
  tool: true,
  valid: true,
  category: true,
  message: true,
  verdictsDiffer: true,
  correctionId: true,
} satisfies Prisma.ToolCallSelect;

const encodeCursor = (c: { timestamp: Date; id: string }) => Buffer.from(JSON.stringify([c.timestamp.toISOString(), c.id])).toString("base64url");
function decodeCursor(cursor: string) {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string];
    return { timestamp: new Date(timestamp), id };
  } catch {
    throw invalidInput("The page cursor is not one this server gave out: start from the first page.");
  }
}

/** Newest first, paged by a (timestamp, id) cursor. */
export async function listCalls(projectId: string, filter: CallsFilter, cursor: string | undefined, limit: number) {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const rows = await prisma().toolCall.findMany({
    where: {
      AND: [callsWhere(projectId, filter), after ? { OR: [{ timestamp: { lt: after.timestamp } }, { timestamp: after.timestamp, id: { lt: after.id } }] } : {}],
    },
    orderBy: [{ timestamp: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: listSelect,
  });
  const page = rows.slice(0, limit);
  return { calls: page, nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
}

const CSV_COLUMNS = [
  "id",
  "run_id",
  "step",
  "timestamp",
  "model_provider",
  "model_name",
  "model_version",
  "tool",
  "arguments",
  "valid",
  "category",
  "message",
  "harness_valid",
  "harness_category",
  "checked_valid",
  "checked_category",
  "checked_path",
  "correction_id",
  "result_status",
  "latency_ms",
  "input_tokens",
  "output_tokens",
  "cost_usd",
];

/**
 * The filtered calls as CSV, streamed by PostgreSQL's own CSV writer (COPY … TO STDOUT),
 * so no row limit and no rows held in memory. COPY takes no bind parameters: values are
 * escaped with the driver's escapeLiteral.
 */
export async function streamCallsCsv(projectId: string, f: CallsFilter): Promise<ReadableStream<Uint8Array>> {
  const client = await pool().connect();
  const lit = (v: string) => client.escapeLiteral(v);
  const clauses = [`project_id = ${lit(projectId)}::uuid`];
  if (f.from) clauses.push(`timestamp >= ${lit(f.from)}::timestamptz`);
  if (f.to) clauses.push(`timestamp < ${lit(f.to)}::timestamptz`);
  if (f.tool) clauses.push(`tool = ${lit(f.tool)}`);
  if (f.model) clauses.push(`model_name = ${lit(f.model)}`);
  if (f.modelVersion) clauses.push(`model_version = ${lit(f.modelVersion)}`);
  if (f.valid === "invalid") clauses.push("valid = false");
  if (f.valid === "valid") clauses.push("valid IS DISTINCT FROM false");
  if (f.category) clauses.push(`category = ${lit(f.category)}`);
  if (f.runId) clauses.push(`run_id = ${lit(f.runId)}`);
  if (f.q) clauses.push(`message ILIKE ${lit(`%${f.q.replace(/[\\%_]/g, "\\$&")}%`)}`);
  if (f.disagree) clauses.push("verdicts_differ");
  const sql = `COPY (SELECT ${CSV_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM tool_calls WHERE ${clauses.join(" AND ")}
    ORDER BY timestamp DESC, id DESC) TO STDOUT WITH (FORMAT csv, HEADER true)`;
  const stream = client.query(copyTo(sql));
  let released = false;
  const release = (error?: Error) => {
    if (!released) client.release(error);
    released = true;
  };
  return new ReadableStream({
    start(controller) {
      stream.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      stream.on("end", () => {
        release();
        controller.close();
      });
      stream.on("error", (error) => {
        release(error);
        controller.error(error);
      });
    },
    cancel() {
      stream.destroy();
      release(new Error("client went away"));
    },
  });
}

/** Every call of one run, in run order, with the run's totals. */
export async function runTimeline(projectId: string, runId: string) {
  const calls = await prisma().toolCall.findMany({ where: { projectId, runId }, select: callSelect, orderBy: [...RUN_ORDER], take: 5000 });
  if (!calls.length) return null;
  const successes = calls.filter((c) => c.valid !== false).length;
  return { runId, calls, attempts: calls.length, successes, invalid: calls.length - successes };
}
