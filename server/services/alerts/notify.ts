import type { IncidentEvent } from "../../../contracts/alerts";
import type { ChannelMessage } from "../../domain/notification-channels";
import { env } from "../../env";
import type { Prisma } from "../../db/client";
import { jobs, QUEUES, stableUuid, type DeliveryJob, type SqlExecutor } from "../jobs/boss";
import { endpointChannel } from "./channels";

type Tx = Prisma.TransactionClient;

const publicUrl = () => env().TOOLGATE_PUBLIC_URL?.replace(/\/+$/, "") ?? `http://localhost:${env().PORT}`;

const incidentWithRule = {
  assignee: { select: { email: true, name: true } },
  rule: { select: { id: true, name: true, metric: true, condition: true, webhookIds: true } },
  project: { select: { slug: true, name: true } },
} satisfies Prisma.IncidentInclude;

/** pg-boss's parameters for Prisma's raw query: objects as JSON text, undefined as NULL. */
const sqlValue = (v: unknown) => (v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v);

/**
 * Queues one delivery job per webhook an incident event goes to (the rule's endpoints, or every
 * enabled endpoint when the rule names none), carrying the body the endpoint's channel builds
 * (channels.ts), in the caller's transaction: the jobs exist exactly when the change of the
 * incident commits. The job id is derived from (event, incident, endpoint), so each event of an
 * incident is sent once. A silenced incident is sent nowhere. Adds a "notified" entry to the
 * timeline, 1 ms after `at` (the timeline sorts by time).
 */
export async function notifyIncident(
  tx: Tx,
  ref: { projectId: string; id: string },
  event: IncidentEvent,
  at: Date,
  { actor = null, note = null }: { actor?: string | null; note?: string | null } = {},
) {
  const incident = await tx.incident.findUniqueOrThrow({ where: { projectId_id: { projectId: ref.projectId, id: ref.id } }, include: incidentWithRule });
  if (incident.silenced) return;
  const endpoints = (await tx.webhookEndpoint.findMany({ where: { projectId: ref.projectId, enabled: true }, select: { id: true } })).filter(
    (w) => !incident.rule.webhookIds.length || incident.rule.webhookIds.includes(w.id),
  );
  if (!endpoints.length) return;
  const boss = await jobs();
  const db: SqlExecutor = { executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe(text, ...values.map(sqlValue)) }) };
  const message: ChannelMessage = { event, incident, actor, note, appUrl: publicUrl() };
  for (const endpoint of endpoints) {
    const payload = endpointChannel().payload(message);
    const deliveryId = stableUuid(event, incident.id, endpoint.id);
    const job: DeliveryJob = { projectId: ref.projectId, endpointId: endpoint.id, incidentId: incident.id, event, payload: { ...payload, deliveryId } };
    await boss.send(QUEUES.delivery, job, { id: deliveryId, db });
  }
  await tx.incidentEvent.create({
    data: {
      projectId: ref.projectId,
      incidentId: incident.id,
      kind: "notified",
      note: `${event} queued for ${endpoints.length} webhook(s)`,
      at: new Date(at.getTime() + 1),
    },
  });
}

/**
 * The silence that covers a new incident of this rule and scope, if any: one naming the rule,
 * or a scope whose every field set matches. Judged on the clock, not the evaluated time: a
 * silence is about what is sent now (an evaluation that catches up on missed windows sends
 * nothing under a silence made since, and everything once it ended).
 */
export async function matchingSilence(tx: Tx, projectId: string, ruleId: string, scope: { tool?: string | null; model?: string | null }) {
  const silences = await tx.alertSilence.findMany({ where: { projectId, endsAt: { gt: new Date() } } });
  return (
    silences.find(
      (s) =>
        s.ruleId === ruleId ||
        (!s.ruleId && (s.scopeTool || s.scopeModel) && (!s.scopeTool || s.scopeTool === scope.tool) && (!s.scopeModel || s.scopeModel === scope.model)),
    ) ?? null
  );
}
