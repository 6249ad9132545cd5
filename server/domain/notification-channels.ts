import type { IncidentEvent } from "../../contracts/alerts";

/**
 * What alert notifications say, channel by channel. Pure: which endpoints a message goes to,
 * the job queue, retries, signing and the refusal of internal targets are
 * server/services/alerts/channels.ts (one delivery path for every channel kind).
 *
 * Adding a channel kind (Slack, PagerDuty, …) is two steps, and the compiler refuses the first
 * without the second: its payload type in `ChannelPayloads` with a builder beside
 * `webhookPayload` here, and its entry in `CHANNELS` (server/services/alerts/channels.ts).
 */

/** An incident as a message shows it: the stored incident with its assignee, rule and project. */
export type IncidentFacts = {
  id: string;
  state: string;
  severity: string;
  summary: string;
  value: number;
  threshold: number;
  calls: number;
  scopeTool: string | null;
  scopeModel: string | null;
  scopeVersion: string | null;
  firedAt: Date;
  acknowledgedAt: Date | null;
  resolvedAt: Date | null;
  assignee: { email: string; name: string } | null;
  note: string | null;
  rule: { id: string; name: string; metric: string; condition: string };
  project: { slug: string; name: string };
};

/** What a channel is asked to say: an incident event, or the "Send test" of an endpoint. */
export type ChannelMessage =
  | {
      event: IncidentEvent;
      incident: IncidentFacts;
      /** who acknowledged or resolved it (their email); null for the evaluator and for incident.fired */
      actor: string | null;
      /** the note given with the acknowledge or resolve */
      note: string | null;
      /** the server's public address (TOOLGATE_PUBLIC_URL), without a trailing slash */
      appUrl: string;
    }
  | { event: "test"; project: { id: string; slug: string; name: string } };

const HEADLINES: Record<IncidentEvent, (i: IncidentFacts, actor: string | null) => string> = {
  "incident.fired": (i) => `:rotating_light: [${i.severity}] ${i.summary}`,
  "incident.acknowledged": (i, actor) => `:eyes: Acknowledged${actor ? ` by ${actor}` : ""}: [${i.severity}] ${i.rule.name}`,
  "incident.resolved": (i, actor) =>
    `:white_check_mark: Resolved${actor ? ` by ${actor}` : " (condition clear for a whole window)"}: [${i.severity}] ${i.rule.name}`,
};

/**
 * The generic webhook's body: a Slack-compatible `text` (the line a Slack incoming webhook
 * shows) plus the details as JSON for any other receiver; docs/alerts.md describes it. The
 * queue adds `deliveryId` to an incident event's body.
 */
export function webhookPayload(message: ChannelMessage) {
  if (message.event === "test") {
    const { id, slug, name } = message.project;
    return { text: `Toolgate test message for project ${name} (${slug}): webhooks work.`, event: message.event, project: { id, slug, name } };
  }
  const { event, incident, actor, note } = message;
  const link = `${message.appUrl}/p/${incident.project.slug}/alerts/${incident.id}`;
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

/** Each channel kind and what its builder returns; the kinds are its keys. */
export type ChannelPayloads = {
  webhook: ReturnType<typeof webhookPayload>;
};
export type ChannelKind = keyof ChannelPayloads;
