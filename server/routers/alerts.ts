import { z } from "zod";
import { actionNoteSchema, alertRuleInput, INCIDENT_STATES, incidentTriageInput, silenceInput, snoozeInput } from "../../contracts/alerts";
import { filterText } from "../../contracts/text-limits";
import { REGRESSION_TEST_DESCRIPTION } from "../domain/alert-rules";
import { webhookUrlFor } from "../domain/webhook-targets";
import { evaluateAlerts } from "../services/alerts/evaluator";
import {
  acknowledgeIncident,
  createRule,
  deleteRule,
  firingCount,
  incidentById,
  listIncidents,
  listRules,
  resolveIncidentByHand,
  ruleById,
  setRuleEnabled,
  snoozeIncident,
  triageIncident,
  updateRule,
  listSilences,
  createSilence,
  endSilence,
} from "../services/alerts/incidents";
import { previewRuleHistory } from "../services/alerts/preview";
import { withProjectShare } from "../services/tenancy/shares";
import { projectProcedure, router } from "../trpc/init";

const byId = z.object({ id: z.uuid() });
const withNote = byId.extend({ note: actionNoteSchema.optional() });

export const alertsRouter = router({
  incidents: projectProcedure("viewer")
    .input(
      z.object({
        state: z.enum(INCIDENT_STATES).optional(),
        ruleId: z.uuid().optional(),
        tool: filterText("tool").optional(),
        model: filterText("model").optional(),
      }),
    )
    .query(({ ctx, input }) => listIncidents(ctx.project.id, input)),
  incident: projectProcedure("viewer")
    .input(byId)
    .query(async ({ ctx, input }) => {
      const incident = await incidentById(ctx.project.id, input.id);
      // a Slack or Discord webhook URL is its credential: whole for admins, the host for the others
      const deliveries = incident.deliveries.map((d) => ({ ...d, endpoint: { ...d.endpoint, url: webhookUrlFor(ctx.role, d.endpoint.url) } }));
      return { ...incident, deliveries };
    }),
  firingCount: projectProcedure("viewer").query(({ ctx }) => firingCount(ctx.project.id)),
  acknowledge: projectProcedure("member")
    .input(withNote)
    .mutation(async ({ ctx, input }) => {
      await acknowledgeIncident(ctx.project.id, input.id, ctx.user.email, input.note);
      return { ok: true };
    }),
  resolve: projectProcedure("member")
    .input(withNote)
    .mutation(async ({ ctx, input }) => {
      await resolveIncidentByHand(ctx.project.id, input.id, ctx.user.email, input.note);
      return { ok: true };
    }),
  /** Who is on the incident (a member, or null for nobody) and its note. */
  triage: projectProcedure("member")
    .input(byId.extend(incidentTriageInput.shape))
    .mutation(({ ctx, input }) => triageIncident(ctx.project.id, input.id, ctx.user.email, input)),
  snooze: projectProcedure("member")
    .input(byId.extend(snoozeInput.shape))
    .mutation(({ ctx, input }) => snoozeIncident(ctx.project.id, input.id, ctx.user.email, input.minutes, input.note)),
  rule: projectProcedure("viewer")
    .input(byId)
    .query(({ ctx, input }) => ruleById(ctx.project.id, input.id)),
  /** The drafted rule over the last days with the evaluator's logic: "would have fired 3 times". */
  preview: projectProcedure("viewer")
    .input(z.object({ rule: alertRuleInput, days: z.number().int().min(1).max(14).default(7) }))
    .query(({ ctx, input }) => withProjectShare(ctx.project, "alerts.preview", () => previewRuleHistory(ctx.project.id, input.rule, input.days))),
  silences: projectProcedure("viewer").query(({ ctx }) => listSilences(ctx.project.id)),
  silence: projectProcedure("member")
    .input(z.object({ silence: silenceInput }))
    .mutation(({ ctx, input }) => createSilence(ctx.project.id, ctx.user.email, input.silence)),
  endSilence: projectProcedure("member")
    .input(byId)
    .mutation(async ({ ctx, input }) => {
      await endSilence(ctx.project.id, input.id);
      return { ok: true };
    }),
  rules: projectProcedure("viewer").query(async ({ ctx }) => ({ rules: await listRules(ctx.project.id), regressionTest: REGRESSION_TEST_DESCRIPTION })),
  createRule: projectProcedure("admin")
    .input(z.object({ rule: alertRuleInput }))
    .mutation(({ ctx, input }) => createRule(ctx.project.id, input.rule)),
  updateRule: projectProcedure("admin")
    .input(byId.extend({ rule: alertRuleInput }))
    .mutation(async ({ ctx, input }) => {
      await updateRule(ctx.project.id, input.id, input.rule);
      return { ok: true };
    }),
  setRuleEnabled: projectProcedure("admin")
    .input(byId.extend({ enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await setRuleEnabled(ctx.project.id, input.id, input.enabled);
      return { ok: true };
    }),
  deleteRule: projectProcedure("admin")
    .input(byId)
    .mutation(async ({ ctx, input }) => {
      await deleteRule(ctx.project.id, input.id);
      return { ok: true };
    }),
  /** Runs the evaluator for this project now (it also runs every minute on its own). */
  evaluateNow: projectProcedure("admin").mutation(async ({ ctx }) => {
    const report = await withProjectShare(ctx.project, "alerts.evaluateNow", () => evaluateAlerts({ projectId: ctx.project.id }));
    return report ? { evaluated: report.rules, fired: report.fired.length, resolved: report.resolved } : { evaluated: 0, fired: 0, resolved: 0, busy: true };
  }),
});
