import { SPIRAL_LENGTH, type AlertRuleInput, type IncidentTriageInput, type SilenceInput } from "../../../contracts/alerts";
import { conflict, invalid, notFound } from "../../domain/errors";
import { prisma, type Prisma } from "../../db/client";
import { env } from "../../env";
import { resolveIncident } from "./evaluator";
import { notifyIncident } from "./notify";

const incidentSelect = {
  id: true,
  state: true,
  severity: true,
  subject: true,
  value: true,
  threshold: true,
  calls: true,
  summary: true,
  scopeTool: true,
  scopeModel: true,
  scopeVersion: true,
  windowStart: true,
  firedAt: true,
  acknowledgedAt: true,
  resolvedAt: true,
  silenced: true,
  snoozedUntil: true,
  note: true,
  assignee: { select: { id: true, email: true, name: true } },
  rule: { select: { id: true, name: true, metric: true, category: true, condition: true, windowMinutes: true, builtIn: true } },
} satisfies Prisma.IncidentSelect;

export type IncidentFilter = { state?: string; ruleId?: string; tool?: string; model?: string };

/** Open incidents first (firing, then acknowledged), newest first within each. */
export async function listIncidents(projectId: string, f: IncidentFilter) {
  const rows = await prisma().incident.findMany({
    where: {
      projectId,
      ...(f.state ? { state: f.state } : {}),
      ...(f.ruleId ? { ruleId: f.ruleId } : {}),
      ...(f.tool ? { scopeTool: f.tool } : {}),
      ...(f.model ? { scopeModel: f.model } : {}),
    },
    orderBy: { firedAt: "desc" },
    take: 500,
    select: incidentSelect,
  });
  const rank = { firing: 0, acknowledged: 1, resolved: 2 } as Record<string, number>;
  return rows.sort((a, b) => (rank[a.state] ?? 3) - (rank[b.state] ?? 3));
}

export async function incidentById(projectId: string, id: string) {
  const incident = await prisma().incident.findFirst({
    where: { projectId, id },
    select: {
      ...incidentSelect,
      events: { orderBy: { at: "asc" }, select: { kind: true, actor: true, note: true, at: true, endsAt: true } },
      deliveries: {
        orderBy: { at: "asc" },
        select: { attempt: true, statusCode: true, error: true, durationMs: true, at: true, event: true, endpoint: { select: { name: true, url: true } } },
      },
    },
  });
  if (!incident) throw notFound("No such incident in this project.");
  return incident;
}

/** Firing incidents, but not those snoozed until later (nor silenced ones: nobody was told of them). */
export async function firingCount(projectId: string, now = new Date()) {
  return prisma().incident.count({
    where: { projectId, state: "firing", silenced: false, OR: [{ snoozedUntil: null }, { snoozedUntil: { lte: now } }] },
  });
}

/** Acknowledges a firing incident and sends incident.acknowledged, in one transaction. */
export async function acknowledgeIncident(projectId: string, id: string, actor: string, note?: string) {
  const incident = await prisma().incident.findFirst({ where: { projectId, id }, select: { state: true } });
  if (!incident) throw notFound("No such incident in this project.");
  if (incident.state !== "firing") throw conflict(`This incident is ${incident.state}; only a firing incident can be acknowledged.`);
  const at = new Date();
  await prisma().$transaction(async (tx) => {
    await tx.incident.update({
      where: { projectId_id: { projectId, id } },
      data: { state: "acknowledged", acknowledgedAt: at, events: { create: { kind: "acknowledged", actor, note: note || null, at } } },
    });
    await notifyIncident(tx, { projectId, id }, "incident.acknowledged", at, { actor, note: note || null });
  });
}

/**
 * Sets who is on an incident (a member of the project, or nobody) and its note; each change goes
 * on the timeline with who made it. The new values go out with the incident's next webhook event.
 */
export async function triageIncident(projectId: string, id: string, actor: string, input: IncidentTriageInput) {
  const incident = await prisma().incident.findFirst({ where: { projectId, id }, select: { assigneeId: true, note: true } });
  if (!incident) throw notFound("No such incident in this project.");
  const data: Prisma.IncidentUncheckedUpdateInput = {};
  const events: { kind: string; note: string | null }[] = [];
  if (input.assigneeId !== undefined && input.assigneeId !== incident.assigneeId) {
    let email: string | null = null;
    if (input.assigneeId !== null) {
      const member = await prisma().membership.findFirst({ where: { projectId, userId: input.assigneeId }, select: { user: { select: { email: true } } } });
      if (!member) throw invalid(`User ${input.assigneeId} is not a member of this project: assign one of its members (Settings → Members lists them).`);
      email = member.user.email;
    }
    data.assigneeId = input.assigneeId;
    events.push({ kind: "assigned", note: email });
  }
  const note = input.note === undefined ? undefined : input.note || null;
  if (note !== undefined && note !== incident.note) {
    data.note = note;
    events.push({ kind: "noted", note });
  }
  if (!events.length) return { changed: false };
  const at = new Date();
  await prisma().incident.update({
    where: { projectId_id: { projectId, id } },
    data: { ...data, events: { create: events.map((e) => ({ ...e, actor, at })) } },
  });
  return { changed: true };
}

/**
 * Snoozes an open incident for a while: it stays open (firing or acknowledged) but leaves the
 * firing count, and shows "snoozed until" with who and why on its page. A later snooze replaces it.
 */
export async function snoozeIncident(projectId: string, id: string, actor: string, minutes: number, note?: string) {
  const incident = await prisma().incident.findFirst({ where: { projectId, id }, select: { state: true } });
  if (!incident) throw notFound("No such incident in this project.");
  if (incident.state === "resolved") throw conflict("This incident is resolved; only an open incident can be snoozed.");
  const at = new Date();
  const until = new Date(at.getTime() + minutes * 60_000);
  await prisma().incident.update({
    where: { projectId_id: { projectId, id } },
    data: {
      snoozedUntil: until,
      events: { create: { kind: "snoozed", actor, note: note || null, endsAt: until, at } },
    },
  });
  return { snoozedUntil: until };
}

// ---- silences ----

/** Silences that have not ended, soonest end first, with the rule they name. */
export async function listSilences(projectId: string, now = new Date()) {
  return prisma().alertSilence.findMany({
    where: { projectId, endsAt: { gt: now } },
    orderBy: { endsAt: "asc" },
    select: {
      id: true,
      ruleId: true,
      scopeTool: true,
      scopeModel: true,
      reason: true,
      createdBy: true,
      createdAt: true,
      endsAt: true,
      rule: { select: { name: true } },
    },
  });
}

/** Silences a rule, or a scope (tool and/or model), for `minutes`: incidents still fire and are recorded, silenced, without webhooks. */
export async function createSilence(projectId: string, actor: string, input: SilenceInput) {
  if (input.ruleId && !(await prisma().alertRule.count({ where: { projectId, id: input.ruleId } }))) throw notFound("No such rule in this project.");
  const now = new Date();
  return prisma().alertSilence.create({
    data: {
      projectId,
      ruleId: input.ruleId ?? null,
      scopeTool: input.ruleId ? null : input.tool || null,
      scopeModel: input.ruleId ? null : input.model || null,
      reason: input.reason,
      createdBy: actor,
      createdAt: now,
      endsAt: new Date(now.getTime() + input.minutes * 60_000),
    },
  });
}

/** Ends a silence now (it stays in no list: the incidents it covered say who silenced them). */
export async function endSilence(projectId: string, id: string) {
  const { count } = await prisma().alertSilence.updateMany({ where: { projectId, id, endsAt: { gt: new Date() } }, data: { endsAt: new Date() } });
  if (!count) throw notFound("No such active silence in this project.");
}

export async function resolveIncidentByHand(projectId: string, id: string, actor: string, note?: string) {
  const incident = await prisma().incident.findFirst({ where: { projectId, id }, select: { state: true } });
  if (!incident) throw notFound("No such incident in this project.");
  if (incident.state === "resolved") throw conflict("This incident is already resolved.");
  await resolveIncident(projectId, id, new Date(), actor, note || null);
}

// ---- rules ----

export async function listRules(projectId: string) {
  return prisma().alertRule.findMany({ where: { projectId }, orderBy: [{ builtIn: "desc" }, { createdAt: "asc" }] });
}

export async function ruleById(projectId: string, id: string) {
  const rule = await prisma().alertRule.findFirst({ where: { projectId, id } });
  if (!rule) throw notFound("No such alert rule in this project.");
  return rule;
}

function ruleData(input: AlertRuleInput) {
  return {
    name: input.name,
    metric: input.metric,
    category: input.metric === "category_rate" ? (input.category ?? null) : null,
    spiralLength: input.metric === "spirals" ? (input.spiralLength ?? SPIRAL_LENGTH.default) : null,
    scopeTool: input.scope.tool || null,
    scopeModel: input.scope.model || null,
    scopeVersion: input.scope.modelVersion || null,
    condition: input.condition,
    threshold: input.condition === "threshold" ? (input.threshold ?? null) : null,
    factor: input.condition === "baseline_factor" ? (input.factor ?? null) : null,
    baselineMinutes: input.condition === "baseline_factor" ? (input.baselineMinutes ?? null) : null,
    windowMinutes: input.windowMinutes,
    minCalls: input.minCalls,
    severity: input.severity,
    webhookIds: input.webhookIds,
  };
}

async function checkWebhooks(projectId: string, ids: string[]) {
  if (!ids.length) return;
  const found = await prisma().webhookEndpoint.count({ where: { projectId, id: { in: ids } } });
  if (found !== ids.length) throw invalid("A chosen webhook is not one of this project's endpoints.");
}

/**
 * Adds a rule unless the project has TOOLGATE_MAX_ALERT_RULES of its own already (the built-in
 * regression guard does not count): each rule is evaluated every minute, so the cap bounds
 * a project's turn in the evaluation pass. Creations of one project queue on a transaction
 * lock, so two at once cannot both take the last place.
 */
export async function createRule(projectId: string, input: AlertRuleInput) {
  await checkWebhooks(projectId, input.webhookIds);
  const max = env().TOOLGATE_MAX_ALERT_RULES;
  return prisma().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolgate:alert-rules'), hashtext(${projectId}::text))`;
    if ((await tx.alertRule.count({ where: { projectId, builtIn: false } })) >= max) {
      throw conflict(
        `This project already has ${max} alert rules, the most allowed (TOOLGATE_MAX_ALERT_RULES on the server). Delete or edit an existing rule, or ask the operator to raise the limit.`,
      );
    }
    return tx.alertRule.create({ data: { projectId, ...ruleData(input) } });
  });
}

export async function updateRule(projectId: string, id: string, input: AlertRuleInput) {
  await checkWebhooks(projectId, input.webhookIds);
  const { count } = await prisma().alertRule.updateMany({ where: { projectId, id, builtIn: false }, data: ruleData(input) });
  if (!count) throw notFound("No such editable rule in this project (the regression guard can only be switched on or off).");
}

export async function setRuleEnabled(projectId: string, id: string, enabled: boolean) {
  const { count } = await prisma().alertRule.updateMany({ where: { projectId, id }, data: { enabled } });
  if (!count) throw notFound("No such rule in this project.");
}

export async function deleteRule(projectId: string, id: string) {
  const { count } = await prisma().alertRule.deleteMany({ where: { projectId, id, builtIn: false } });
  if (!count) throw notFound("No such rule in this project (the regression guard cannot be deleted; switch it off instead).");
}
