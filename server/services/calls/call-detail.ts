import { notFound } from "../../domain/errors";
import { prisma, type Prisma } from "../../db/client";

export const callSelect = {
  id: true,
  runId: true,
  step: true,
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

/** One call with the model's next corrected call (stored link) and the schema it was checked against. */
export async function callById(projectId: string, id: string) {
  const call = await prisma().toolCall.findUnique({ where: { projectId_id: { projectId, id } }, select: callSelect });
  if (!call) throw notFound(`No call "${id}" in this project.`);
  const [correction, schema] = await Promise.all([
    call.correctionId
      ? prisma().toolCall.findUnique({ where: { projectId_id: { projectId, id: call.correctionId } }, select: callSelect })
      : null,
    call.checkedVersion
      ? prisma().toolDefinition.findUnique({
          where: { projectId_name_version: { projectId, name: call.tool, version: call.checkedVersion } },
          select: { version: true, parameters: true, firstSeenAt: true },
        })
      : null,
  ]);
  return { ...call, correction, schema };
}
