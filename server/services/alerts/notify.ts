import type { IncidentEvent } from "../../../contracts/alerts";
import { env } from "../../env";
import type { Prisma } from "../../db/client";
import { jobs, QUEUES, stableUuid, type DeliveryJob, type SqlExecutor } from "../jobs/boss";

type Tx = Prisma.TransactionClient;

const publicUrl = () => env().TOOLGATE_PUBLIC_URL?.replace(/\/+$/, "") ?? `http://localhost:${env().PORT}`;

const incidentWithRule = {
  assignee: { select: { email: true, name: true } },
  rule: { select: { id: true, name: true, metric: true, condition: true, webhookIds: true } },
  project: { select: { slug: true, name: true } },
} satisfies Prisma.IncidentInclude;
type IncidentWithRule = Prisma.IncidentGetPayload<{ include: typeof incidentWithRule }>;

const HEADLINES: Record<IncidentEvent, (i: IncidentWithRule, actor: string | null) => string> = {
  "incident.fired": (i) => `:rotating_light: [${i.severity}] ${i.summary}`,
  "incident.acknowledged": (i, actor) => `:eyes: Acknowledged${actor ? ` by ${actor}` : ""}: [${i.severity}] ${i.rule.name}`,
  "incident.resolved": (i, actor) =>
    `:white_check_mark: Resolved${actor ? ` by ${actor}` : " (condition clear for a whole window)"}: [${i.severity}] ${i.rule.name}`,
};

/** The webhook body of an incident event (Slack-compatible `text`, plus the details as JSON); docs/api.md describes it. */
function incidentPayload(incident: IncidentWithRule, event: IncidentEvent, actor: string | null, note: string | null) {
  const link = `${publicUrl()}/p/${incident.project.slug}/alerts/${incident.id}`;
  return {
    text: `${HEADLINES[event](incident, actor)} — ${link}`,
    event,
    incident: {
      id: incident.id,
      url: link,
      state: incident.state,
      severity: incident.severity,
      summary: incident.summary,
      value: incident.value,
      threshold: incident.threshold,
      calls: incident.calls,
      scope: { tool: incident.scopeTool, model: incident.scopeModel, modelVersion: incident.scopeVersion },
      firedAt: incident.firedAt.toISOString(),
      acknowledgedAt: incident.acknowledgedAt?.toISOString() ?? null,
      resolvedAt: incident.resolvedAt?.toISOString() ?? null,
      assignee: incident.assignee ? { email: incident.assignee.email, name: incident.assignee.name || null } : null,
      note: incident.note,
    },
    ...(event === "incident.fired" ? {} : { actor, note }),
    rule: { id: incident.rule.id, name: incident.rule.name, metric: incident.rule.metric, condition: incident.rule.condition },
    project: { slug: incident.project.slug, name: incident.project.name },
  };
}

/** pg-boss's parameters for Prisma's raw query: objects as JSON text, undefined as NULL. */
const sqlValue = (v: unknown) => (v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v);

/**
 * Queues one delivery job per webhook an incident event goes to (the rule's endpoints, or every
 * enabled endpoint when the rule names none), in the caller's transaction: the jobs exist
 * exactly when the change of the incident commits. The job id is derived from (event,
 * incident, endpoint), so each event of an incident is sent once. A silenced incident is sent
 * nowhere. Adds a "notified" entry to the timeline, 1 ms after `at` (the timeline sorts by time).
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
  const payload = incidentPayload(incident, event, actor, note);
  const db: SqlExecutor = { executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe(text, ...values.map(sqlValue)) }) };
  for (const endpoint of endpoints) {
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
