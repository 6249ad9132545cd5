import { notFound } from "../../domain/errors";
import { attemptsUntilSuccess, RUN_ORDER } from "../../domain/run-order";
import { pool, prisma, type Prisma } from "../../db/client";

export const callSelect = {
  id: true,
  runId: true,
  step: true,
  turn: true,
  timestamp: true,
  receivedAt: true,
  modelProvider: true,
  modelName: true,
  modelVersion: true,
  tool: true,
  arguments: true,
  valid: true,
  category: true,
  message: true,
  harnessValid: true,
  harnessCategory: true,
  harnessMessage: true,
  checkedValid: true,
  checkedCategory: true,
  checkedMessage: true,
  checkedPath: true,
  checkedVersion: true,
  violations: true,
  verdictsDiffer: true,
  resultStatus: true,
  resultSummary: true,
  latencyMs: true,
  correctsId: true,
  correctionId: true,
  inputTokens: true,
  outputTokens: true,
  costUsd: true,
  toolVersion: true,
  metadata: true,
} satisfies Prisma.ToolCallSelect;

/** One call with the model's next corrected call (the stored link, as everywhere) and the schema it was checked against. */
export async function callById(projectId: string, id: string) {
  const call = await prisma().toolCall.findUnique({ where: { projectId_id: { projectId, id } }, select: callSelect });
  if (!call) throw notFound(`No call "${id}" in this project.`);
  const [correction, schema] = await Promise.all([
    call.correctionId ? prisma().toolCall.findUnique({ where: { projectId_id: { projectId, id: call.correctionId } }, select: callSelect }) : null,
    call.checkedVersion
      ? prisma().toolDefinition.findUnique({
          where: { projectId_name_version: { projectId, name: call.tool, version: call.checkedVersion } },
          select: { version: true, parameters: true, firstSeenAt: true },
        })
      : null,
  ]);
  const run = await prisma().toolCall.findMany({
    where: { projectId, runId: call.runId },
    select: { id: true, valid: true, correctionId: true },
    orderBy: [...RUN_ORDER],
    take: 5000,
  });
  const at = run.findIndex((c) => c.id === call.id);
  return {
    ...call,
    correction,
    schema,
    previousInRun: run[at - 1]?.id ?? null,
    nextInRun: run[at + 1]?.id ?? null,
    runLength: run.length,
    /** attempts the run needed before this tool call succeeded (null: it never did) */
    attemptsUntilSuccess: call.valid === false ? attemptsUntilSuccess(call, run) : null,
  };
}

/**
 * One stored call as JSON text, written by PostgreSQL (so that no depth or size of the
 * arguments can overflow a JSON.stringify here): the raw download behind the call page's
 * cut views. Column names as stored; null when there is no such call.
 */
export async function rawCallJson(projectId: string, id: string): Promise<string | null> {
  const { rows } = await pool().query<{ json: string }>(
    "SELECT (to_jsonb(c) - 'project_id')::text AS json FROM tool_calls c WHERE project_id = $1 AND id = $2",
    [projectId, id],
  );
  return rows[0]?.json ?? null;
}
