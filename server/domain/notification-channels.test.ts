import { describe, expect, it } from "vitest";
import type { IncidentEvent } from "../../contracts/alerts";
import { webhookPayload, type IncidentFacts } from "./notification-channels";

const APP = "https://toolgate.example";
const LINK = `${APP}/p/loans/alerts/4f00`;

const incident = (over: Partial<IncidentFacts> = {}): IncidentFacts => ({
  id: "4f00",
  state: "firing",
  severity: "warning",
  summary: "Invalid rate 50% is above 20% for tool getloan over 15 min (40 calls).",
  value: 0.5,
  threshold: 0.2,
  calls: 40,
  scopeTool: "getloan",
  scopeModel: null,
  scopeVersion: null,
  firedAt: new Date("2026-12-01T14:02:00Z"),
  acknowledgedAt: null,
  resolvedAt: null,
  assignee: null,
  note: null,
  rule: { id: "9a00", name: "getloan invalid", metric: "invalid_rate", condition: "threshold" },
  project: { slug: "loans", name: "Loans" },
  ...over,
});

const message = (event: IncidentEvent, over: Partial<IncidentFacts> = {}, actor: string | null = null, note: string | null = null) => ({
  event,
  incident: incident(over),
  actor,
  note,
  appUrl: APP,
});

/** The body's `incident` and `rule` for `incident()` as it is. */
const INCIDENT_BODY = {
  id: "4f00",
  url: LINK,
  state: "firing",
  severity: "warning",
  summary: "Invalid rate 50% is above 20% for tool getloan over 15 min (40 calls).",
  value: 0.5,
  threshold: 0.2,
  calls: 40,
  scope: { tool: "getloan", model: null, modelVersion: null },
  firedAt: "2026-12-01T14:02:00.000Z",
  acknowledgedAt: null,
  resolvedAt: null,
  assignee: null,
  note: null,
};
const RULE_BODY = { id: "9a00", name: "getloan invalid", metric: "invalid_rate", condition: "threshold" };

describe("webhookPayload: incident events", () => {
  it("incident.fired: the summary as Slack text with the link, the incident, rule and project; no actor or note", () => {
    expect(webhookPayload(message("incident.fired"))).toEqual({
      text: `:rotating_light: [warning] Invalid rate 50% is above 20% for tool getloan over 15 min (40 calls). — ${LINK}`,
      event: "incident.fired",
      incident: INCIDENT_BODY,
      rule: RULE_BODY,
      project: { slug: "loans", name: "Loans" },
    });
  });

  it("incident.acknowledged: who acknowledged it and their note, the incident's own assignee and note beside them", () => {
    const body = webhookPayload(
      message(
        "incident.acknowledged",
        {
          state: "acknowledged",
          acknowledgedAt: new Date("2026-12-01T14:05:12Z"),
          assignee: { email: "ana@example.com", name: "Ana" },
          note: "rolling back to 2026-09",
        },
        "ana@example.com",
        "looking at the schema",
      ),
    );
    // the whole body, key order included: what receivers get byte for byte (docs/alerts.md shows it)
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        text: `:eyes: Acknowledged by ana@example.com: [warning] getloan invalid — ${LINK}`,
        event: "incident.acknowledged",
        incident: {
          ...INCIDENT_BODY,
          state: "acknowledged",
          acknowledgedAt: "2026-12-01T14:05:12.000Z",
          assignee: { email: "ana@example.com", name: "Ana" },
          note: "rolling back to 2026-09",
        },
        actor: "ana@example.com",
        note: "looking at the schema",
        rule: RULE_BODY,
        project: { slug: "loans", name: "Loans" },
      }),
    );
  });

  it("incident.acknowledged without an actor names nobody", () => {
    expect(webhookPayload(message("incident.acknowledged", { severity: "critical" })).text).toBe(`:eyes: Acknowledged: [critical] getloan invalid — ${LINK}`);
  });

  it("incident.resolved by a member names them and carries their note", () => {
    const resolvedAt = new Date("2026-12-01T15:00:00Z");
    const body = webhookPayload(message("incident.resolved", { state: "resolved", resolvedAt }, "ana@example.com", "schema fixed"));
    expect(body).toMatchObject({
      text: `:white_check_mark: Resolved by ana@example.com: [warning] getloan invalid — ${LINK}`,
      event: "incident.resolved",
      actor: "ana@example.com",
      note: "schema fixed",
      incident: { state: "resolved", resolvedAt: "2026-12-01T15:00:00.000Z" },
    });
  });

  it("incident.resolved by the evaluator says the condition cleared, with a null actor and note", () => {
    const body = webhookPayload(message("incident.resolved", { state: "resolved" }));
    expect(body.text).toBe(`:white_check_mark: Resolved (condition clear for a whole window): [warning] getloan invalid — ${LINK}`);
    expect(body).toMatchObject({ actor: null, note: null });
    expect(Object.keys(body)).toEqual(["text", "event", "incident", "actor", "note", "rule", "project"]);
  });

  it.each<IncidentEvent>(["incident.fired", "incident.acknowledged", "incident.resolved"])(
    "%s carries the incident's whole scope, and an assignee without a name as null",
    (event) => {
      const body = webhookPayload(
        message(event, {
          scopeTool: null,
          scopeModel: "gpt-5",
          scopeVersion: "2026-09",
          assignee: { email: "bo@example.com", name: "" },
          project: { slug: "a-b", name: "A B" },
        }),
      );
      if (!("incident" in body)) throw new Error("an incident event's body has an incident");
      expect(body.event).toBe(event);
      expect(body.incident.scope).toEqual({ tool: null, model: "gpt-5", modelVersion: "2026-09" });
      expect(body.incident.assignee).toEqual({ email: "bo@example.com", name: null });
      expect(body.incident.url).toBe(`${APP}/p/a-b/alerts/4f00`);
      expect(body.text.endsWith(` — ${APP}/p/a-b/alerts/4f00`)).toBe(true);
      expect(body.project).toEqual({ slug: "a-b", name: "A B" });
      expect("actor" in body).toBe(event !== "incident.fired");
    },
  );
});

describe("webhookPayload: the endpoint's test message", () => {
  it("names the project (its id, slug and name) and nothing else", () => {
    expect(JSON.stringify(webhookPayload({ event: "test", project: { id: "7c00", slug: "loans", name: "Loans" } }))).toBe(
      JSON.stringify({
        text: "Toolgate test message for project Loans (loans): webhooks work.",
        event: "test",
        project: { id: "7c00", slug: "loans", name: "Loans" },
      }),
    );
  });
});
