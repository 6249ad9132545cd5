import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { GETLOAN_INVALID_RULE, invalidBurst, LOAN_TOOLS, makeEvent } from "../../../test/events";
import { waitFor } from "../../../test/wait";
import { pool, prisma } from "../../db/client";
import { startWorker } from "../jobs/work";
import { evaluateAlerts } from "./evaluator";
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from "../../../contracts/alerts";
import { verifySignature } from "./channels";
import { incidentRanges, planIncident, prepareIncident, type IncidentInput } from "../../../components/alerts/incident-view";
import { formatDateTimeZoned } from "../../../isomorphic/time-zone";

/** The incident page's timeline of an incident as alerts.incident gives it, in the viewer's zone (the page's own preparer; no metrics). */
function timelineIn(incident: IncidentInput, zone: string) {
  const now = new Date();
  const plan = planIncident(incident);
  const ranges = incidentRanges(incident, plan, null, now);
  const data = { lookback: null, series: null, categorySeries: null, tools: [], categories: [] };
  return prepareIncident({ slug: "p", role: "viewer", incident, now, plan, ranges, zone, ...data }).timeline;
}

/** A local webhook receiver that answers with the given status codes in turn (then 200). */
function receiver(statuses: number[] = []) {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses[received.length - 1] ?? 200;
      res.end();
    });
  });
  return new Promise<{ url: string; received: typeof received; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => server.close() }),
    ),
  );
}

const now = new Date(); // the real clock: timeline entries written at delivery time must sort after "fired"
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();

async function burstProject(statuses: number[] = []) {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  const owner = await p.asOwner();
  const hook = await receiver(statuses);
  const endpoint = await owner.webhooks.create({ project: p.project.slug, name: "ops", url: hook.url });
  await owner.alerts.createRule({ project: p.project.slug, rule: GETLOAN_INVALID_RULE });
  const events = [
    ...invalidBurst(now),
    ...Array.from({ length: 30 }, (_, i) => makeEvent({ timestamp: minutesAgo(8 - i * 0.2), tool: "listopenloans", arguments: { status: "open" } })),
  ];
  await api.ingest.batch({ events });
  return { ...p, owner, hook, endpoint };
}

const deliveries = (incidentId: string) =>
  prisma().webhookDelivery.findMany({ where: { incidentId }, orderBy: { at: "asc" }, select: { attempt: true, statusCode: true } });

describe("alert evaluation", () => {
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });
  // this file's worker: what the app's background work would be
  let worker: Awaited<ReturnType<typeof startWorker>>;
  beforeAll(async () => {
    worker = await startWorker({ schedules: false });
  });
  afterAll(() => worker.stop());

  it("a burst of invalid calls for one tool opens exactly one incident and delivers one signed webhook", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired).toHaveLength(1);
    await waitFor(() => p.hook.received.length, "the webhook");

    const again = await evaluateAlerts({ now: new Date(now.getTime() + 60_000), projectId: p.project.id });
    expect(again?.fired).toHaveLength(0);

    const incidents = await p.owner.alerts.incidents({ project: p.project.slug });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ state: "firing", scopeTool: "getloan", value: 0.5, threshold: 0.2, calls: 40 });

    expect(p.hook.received).toHaveLength(1);
    const { headers, body } = p.hook.received[0]!;
    expect(verifySignature(p.endpoint.secret, body, String(headers[SIGNATURE_HEADER.toLowerCase()]))).toBe(true);
    expect(verifySignature("whsec_wrong", body, String(headers[SIGNATURE_HEADER.toLowerCase()]))).toBe(false);
    const payload = JSON.parse(body);
    expect(payload.deliveryId).toBe(headers[DELIVERY_ID_HEADER.toLowerCase()]);
    expect(payload.text).toMatch(/Invalid rate 50.00% is above 20.00% for tool getloan/);
    expect(payload.incident).toMatchObject({ id: incidents[0]!.id, value: 0.5, threshold: 0.2, scope: { tool: "getloan" } });
    expect(payload.incident.url).toMatch(new RegExp(`/p/${p.project.slug}/alerts/${incidents[0]!.id}$`));

    const detail = await p.owner.alerts.incident({ project: p.project.slug, id: incidents[0]!.id });
    expect(detail.events.map((e) => e.kind)).toEqual(["fired", "notified"]);
  });

  it("retries a failing receiver with backoff: fails twice, succeeds on the third attempt, all logged", async () => {
    const p = await burstProject([500, 503]);
    cleanup.push(p.hook.close);
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    await waitFor(() => p.hook.received.length === 3, "three attempts");
    const detail = await p.owner.alerts.incident({ project: p.project.slug, id: report!.fired[0]!.id });
    expect(detail.deliveries.map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    // one delivery id across the attempts: what receivers dedupe on
    expect(new Set(p.hook.received.map((r) => r.headers[DELIVERY_ID_HEADER.toLowerCase()])).size).toBe(1);
  });

  it("a delivery survives a restart: fails, the worker stops, a new worker finishes it; every attempt is logged", async () => {
    const p = await burstProject([500, 500]);
    cleanup.push(p.hook.close);
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    const id = report!.fired[0]!.id;
    const job = () => pool().query("SELECT state, retry_count FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'incidentId' = $1", [id]);
    // the first attempt failed and the job waits for its retry, in PostgreSQL
    await waitFor(async () => (await job()).rows[0]?.state === "retry", "the job to wait for its retry");
    // the app stops: nothing in memory survives, only the job row
    await worker.stop(false);
    expect(await deliveries(id)).toEqual([{ attempt: 1, statusCode: 500 }]);
    // the app starts again: a new worker (a new pg-boss) finds the job and finishes it
    worker = await startWorker({ schedules: false });
    await waitFor(async () => (await job()).rows[0]?.state === "completed", "the delivery to complete", 30_000);
    expect((await deliveries(id)).map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(p.hook.received).toHaveLength(3);
  });

  it("acknowledge needs a member (a viewer cannot); resolve works; the timeline says who and what was sent", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    const id = report!.fired[0]!.id;
    const viewer = await p.member("viewer");
    const member = await p.member("member");
    await expect(viewer.alerts.acknowledge({ project: p.project.slug, id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // an over-long note is refused whole, saying the limit and what was sent: nothing is stored cut
    await expect(member.alerts.acknowledge({ project: p.project.slug, id, note: "n".repeat(1001) })).rejects.toThrow(
      "the note is at most 1,000 characters; you sent 1,001: shorten it (nothing is cut)",
    );
    await member.alerts.acknowledge({ project: p.project.slug, id, note: "looking at the getloan schema" });
    await expect(member.alerts.acknowledge({ project: p.project.slug, id })).rejects.toThrow(/acknowledged/);
    await member.alerts.resolve({ project: p.project.slug, id });
    const detail = await viewer.alerts.incident({ project: p.project.slug, id });
    expect(detail.state).toBe("resolved");
    expect(detail.events.map((e) => [e.kind, e.actor])).toEqual([
      ["fired", null],
      ["notified", null],
      ["acknowledged", member.user.email],
      ["notified", null],
      ["resolved", member.user.email],
      ["notified", null],
    ]);
    expect(detail.events.filter((e) => e.kind === "notified").map((e) => e.note)).toEqual([
      "incident.fired queued for 1 webhook(s)",
      "incident.acknowledged queued for 1 webhook(s)",
      "incident.resolved queued for 1 webhook(s)",
    ]);
  });

  it("a restarted evaluator does not fire the same incident again, and resolves after a clean window", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    await evaluateAlerts({ now, projectId: p.project.id });
    await waitFor(() => p.hook.received.length, "the webhook");
    // a restart: nothing in memory, only what the database holds; 40 minutes later
    const later = await evaluateAlerts({ now: new Date(now.getTime() + 40 * 60_000), projectId: p.project.id });
    expect(later?.fired).toHaveLength(0);
    // the missed windows were evaluated: the burst left the window, clean for 15+ minutes
    expect(later?.resolved).toBe(1);
    expect(await prisma().incident.count({ where: { projectId: p.project.id } })).toBe(1);
    expect(p.hook.received).toHaveLength(1);
  });

  it("records each rule's state where the evaluator decides: firing, not enough calls (with the minimum), no data, pending, ok", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    // the "getloan > 10 % over 1 h" rule of the issue: 40 calls under its 50-call minimum
    const quiet = await p.owner.alerts.createRule({
      project: slug,
      rule: { ...GETLOAN_INVALID_RULE, name: "quiet", threshold: 0.1, windowMinutes: 60, minCalls: 50 },
    });
    const typo = await p.owner.alerts.createRule({ project: slug, rule: { ...GETLOAN_INVALID_RULE, name: "typo", scope: { tool: "get_loan" } } });
    await evaluateAlerts({ now, projectId: p.project.id });
    const state = async (id: string) => (await p.owner.alerts.rule({ project: slug, id })) as Record<string, unknown>;
    const firing = (await p.owner.alerts.rules({ project: slug })).rules.find((r) => r.name === "getloan invalid")!;
    expect(await state(firing.id)).toMatchObject({ lastState: "firing", lastValue: 0.5, lastThreshold: 0.2, lastCalls: 40 });
    expect(await state(quiet.id)).toMatchObject({ lastState: "not_enough_calls", lastValue: 0.5, lastCalls: 40, minCalls: 50 });
    expect(await state(typo.id)).toMatchObject({ lastState: "no_data", lastValue: null, lastCalls: 0 });
    expect((await state(quiet.id)).lastEvaluatedAt).toEqual(now);
    // 20 minutes on, the burst has left the 15-minute window: clear, but not for a whole window yet
    await evaluateAlerts({ now: new Date(now.getTime() + 20 * 60_000), projectId: p.project.id });
    expect(await state(firing.id)).toMatchObject({ lastState: "pending", lastCalls: 0 });
    await evaluateAlerts({ now: new Date(now.getTime() + 40 * 60_000), projectId: p.project.id });
    // resolved after a whole clean window; no calls at all in the window now
    expect(await state(firing.id)).toMatchObject({ lastState: "no_data" });
    const guard = (await p.owner.alerts.rules({ project: slug })).rules.find((r) => r.builtIn)!;
    expect(guard).toMatchObject({ lastState: "ok" });
  });

  it("the preview runs the evaluator's logic over past buckets: the burst would have fired once, the 50-call rule never", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    const preview = await p.owner.alerts.preview({ project: slug, rule: GETLOAN_INVALID_RULE, days: 1 });
    expect(preview).toMatchObject({ fired: 1, stepMinutes: 5, days: 1 });
    expect(preview.points.filter((pt) => pt.state === "firing").length).toBeGreaterThan(0);
    expect(Math.max(...preview.points.map((pt) => pt.value ?? 0))).toBe(0.5);
    const quiet = await p.owner.alerts.preview({ project: slug, rule: { ...GETLOAN_INVALID_RULE, threshold: 0.1, windowMinutes: 60, minCalls: 50 }, days: 1 });
    expect(quiet.fired).toBe(0);
    expect(quiet.stepMinutes).toBe(60);
    expect(quiet.points.some((pt) => pt.state === "not_enough_calls")).toBe(true);
    // the same rule with a 10-call minimum fires in the preview, read from the hourly rollups
    const hourly = await p.owner.alerts.preview({ project: slug, rule: { ...GETLOAN_INVALID_RULE, threshold: 0.1, windowMinutes: 60 }, days: 1 });
    expect(hourly.fired).toBe(1);
    // a viewer may look; what the preview says equals what the evaluator records for the same window
    const viewer = await p.member("viewer");
    const last = (await viewer.alerts.preview({ project: slug, rule: { ...GETLOAN_INVALID_RULE, threshold: 0.1, windowMinutes: 60 }, days: 1 })).points.at(-1)!;
    const rule = await p.owner.alerts.createRule({ project: slug, rule: { ...GETLOAN_INVALID_RULE, name: "hourly", threshold: 0.1, windowMinutes: 60 } });
    await evaluateAlerts({ now: new Date(last.at), projectId: p.project.id });
    expect(await p.owner.alerts.rule({ project: slug, id: rule.id })).toMatchObject({ lastValue: last.value, lastThreshold: last.threshold });
  });

  it("acknowledge and resolve send incident.acknowledged and incident.resolved, signed, logged, with who and the note", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    const id = (await evaluateAlerts({ now, projectId: p.project.id }))!.fired[0]!.id;
    await waitFor(() => p.hook.received.length === 1, "incident.fired");
    const member = await p.member("member");
    await member.alerts.acknowledge({ project: slug, id, note: "on it" });
    await waitFor(() => p.hook.received.length === 2, "incident.acknowledged");
    await member.alerts.resolve({ project: slug, id, note: "schema fixed" });
    await waitFor(() => p.hook.received.length === 3, "incident.resolved");
    const bodies = p.hook.received.map((r) => {
      expect(verifySignature(p.endpoint.secret, r.body, String(r.headers[SIGNATURE_HEADER.toLowerCase()]))).toBe(true);
      return { header: r.headers["x-toolgate-event"], ...JSON.parse(r.body) };
    });
    expect(bodies.map((b) => [b.header, b.event])).toEqual([
      ["incident.fired", "incident.fired"],
      ["incident.acknowledged", "incident.acknowledged"],
      ["incident.resolved", "incident.resolved"],
    ]);
    expect(bodies[1]).toMatchObject({ actor: member.user.email, note: "on it", incident: { id, state: "acknowledged" } });
    expect(bodies[1].text).toMatch(new RegExp(`Acknowledged by ${member.user.email}`));
    expect(bodies[2]).toMatchObject({ actor: member.user.email, note: "schema fixed", incident: { id, state: "resolved" } });
    expect(bodies[2].incident.resolvedAt).toEqual(expect.any(String));
    expect(new Set(bodies.map((b) => b.deliveryId)).size).toBe(3);
    await waitFor(async () => (await deliveries(id)).length === 3, "three logged deliveries");
    const detail = await member.alerts.incident({ project: slug, id });
    expect(detail.deliveries.map((d) => [d.event, d.statusCode])).toEqual([
      ["incident.fired", 200],
      ["incident.acknowledged", 200],
      ["incident.resolved", 200],
    ]);
  });

  it("'Send test' POSTs one signed test message naming the project, logged without an incident", async () => {
    const { project, asOwner } = await makeProject();
    const owner = await asOwner();
    const hook = await receiver();
    cleanup.push(hook.close);
    const endpoint = await owner.webhooks.create({ project: project.slug, name: "ops", url: hook.url });
    expect(await owner.webhooks.sendTest({ project: project.slug, id: endpoint.id })).toEqual({ delivered: true, statusCode: 200, error: null });
    expect(hook.received).toHaveLength(1);
    const [{ headers, body }] = hook.received as [(typeof hook.received)[number]];
    expect(body).toBe(
      JSON.stringify({
        text: `Toolgate test message for project ${project.name} (${project.slug}): webhooks work.`,
        event: "test",
        project: { id: project.id, slug: project.slug, name: project.name },
      }),
    );
    expect(verifySignature(endpoint.secret, body, String(headers[SIGNATURE_HEADER.toLowerCase()]))).toBe(true);
    expect([headers["x-toolgate-event"], headers["content-type"], headers[DELIVERY_ID_HEADER.toLowerCase()]]).toEqual(["test", "application/json", undefined]);
    const logged = await prisma().webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      select: { event: true, incidentId: true, attempt: true, statusCode: true },
    });
    expect(logged).toEqual([{ event: "test", incidentId: null, attempt: 1, statusCode: 200 }]);
  });

  it("an incident gets an assignee (a member) and a note: on its timeline, in the list, in the next webhook; a viewer or a non-member is refused", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    const id = (await evaluateAlerts({ now, projectId: p.project.id }))!.fired[0]!.id;
    await waitFor(() => p.hook.received.length === 1, "incident.fired");
    const member = await p.member("member");
    const viewer = await p.member("viewer");
    const outsider = await (await makeProject()).member("member");

    await expect(viewer.alerts.triage({ project: slug, id, note: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(member.alerts.triage({ project: slug, id, assigneeId: outsider.user.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/is not a member of this project/),
    });
    await expect(member.alerts.triage({ project: slug, id, note: "n".repeat(2001) })).rejects.toThrow(
      /the note is at most 2,000 characters; you sent 2,001: shorten it \(nothing is cut\)/,
    );

    expect(await member.alerts.triage({ project: slug, id, assigneeId: member.user.id, note: "  rolling back to 2026-09  " })).toEqual({ changed: true });
    expect(await member.alerts.triage({ project: slug, id, assigneeId: member.user.id })).toEqual({ changed: false });
    const [listed] = await viewer.alerts.incidents({ project: slug });
    expect(listed).toMatchObject({ id, note: "rolling back to 2026-09", assignee: { id: member.user.id, email: member.user.email } });
    const detail = await viewer.alerts.incident({ project: slug, id });
    expect(detail.events.filter((e) => e.kind === "assigned" || e.kind === "noted").map((e) => [e.kind, e.actor, e.note])).toEqual([
      ["assigned", member.user.email, member.user.email],
      ["noted", member.user.email, "rolling back to 2026-09"],
    ]);

    await member.alerts.acknowledge({ project: slug, id });
    await waitFor(() => p.hook.received.length === 2, "incident.acknowledged");
    const acknowledged = JSON.parse(p.hook.received[1]!.body);
    expect(acknowledged.incident).toMatchObject({ assignee: { email: member.user.email }, note: "rolling back to 2026-09" });
    expect(JSON.parse(p.hook.received[0]!.body).incident).toMatchObject({ assignee: null, note: null });

    // nobody again, the note cleared; a member who leaves the project is unassigned
    await member.alerts.triage({ project: slug, id, assigneeId: null, note: " " });
    expect(await viewer.alerts.incident({ project: slug, id })).toMatchObject({ assignee: null, note: null });
    await member.alerts.triage({ project: slug, id, assigneeId: member.user.id });
    await p.owner.members.remove({ project: slug, userId: member.user.id });
    expect(await viewer.alerts.incident({ project: slug, id })).toMatchObject({ assignee: null });
  });

  it("the evaluator's own resolve sends incident.resolved too", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    await evaluateAlerts({ now, projectId: p.project.id });
    await evaluateAlerts({ now: new Date(now.getTime() + 40 * 60_000), projectId: p.project.id });
    // fired and resolved are delivered by separate jobs: they may arrive in either order
    const bodies = () => p.hook.received.map((r) => JSON.parse(r.body) as { event: string; actor: string | null });
    await waitFor(() => bodies().some((b) => b.event === "incident.resolved"), "incident.resolved");
    expect(bodies().find((b) => b.event === "incident.resolved")).toMatchObject({ event: "incident.resolved", actor: null });
    expect(bodies().filter((b) => b.event === "incident.resolved")).toHaveLength(1);
  });

  it("a silenced rule or scope still records its incidents, marked silenced with who and why, and sends no webhook", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    const member = await p.member("member");
    const viewer = await p.member("viewer");
    await expect(viewer.alerts.silence({ project: slug, silence: { tool: "getloan", minutes: 60, reason: "x" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const silence = await member.alerts.silence({ project: slug, silence: { tool: "getloan", minutes: 60, reason: "planned getloan migration" } });
    expect(await viewer.alerts.silences({ project: slug })).toMatchObject([{ id: silence.id, scopeTool: "getloan", createdBy: member.user.email }]);
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired).toMatchObject([{ silenced: true }]);
    const detail = await member.alerts.incident({ project: slug, id: report!.fired[0]!.id });
    expect(detail).toMatchObject({ state: "firing", silenced: true });
    expect(detail.events.map((e) => [e.kind, e.actor])).toEqual([
      ["fired", null],
      ["silenced", member.user.email],
    ]);
    expect(detail.events[1]!.note).toMatch(/planned getloan migration/);
    // the page shows the silence's end in the viewer's zone, like every other time on it
    const silenced = timelineIn(detail, "America/New_York").find((e) => e.kind === "silenced")!;
    expect(silenced.note).toBe(`no webhooks: silenced until ${formatDateTimeZoned(silence.endsAt, "America/New_York")} (planned getloan migration)`);
    expect(silenced.note).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d E[SD]T \(/);
    // acknowledging and resolving a silenced incident sends nothing either; it is not in the firing count
    expect(await member.alerts.firingCount({ project: slug })).toBe(0);
    await member.alerts.acknowledge({ project: slug, id: detail.id });
    await member.alerts.resolve({ project: slug, id: detail.id });
    await new Promise((r) => setTimeout(r, 1500)); // the worker polls every second: give a wrong delivery time to arrive
    expect(p.hook.received).toHaveLength(0);

    // a silence of another tool does not cover it; a silence of the rule does; ending a silence lifts it
    const q = await burstProject();
    cleanup.push(q.hook.close);
    const qMember = await q.member("member");
    await qMember.alerts.silence({ project: q.project.slug, silence: { tool: "listopenloans", minutes: 60, reason: "noise" } });
    const ruleId = (await q.owner.alerts.rules({ project: q.project.slug })).rules.find((r) => !r.builtIn)!.id;
    const byRule = await qMember.alerts.silence({ project: q.project.slug, silence: { ruleId, minutes: 30, reason: "tuning" } });
    await qMember.alerts.endSilence({ project: q.project.slug, id: byRule.id });
    expect((await qMember.alerts.silences({ project: q.project.slug })).map((s) => s.scopeTool)).toEqual(["listopenloans"]);
    expect((await evaluateAlerts({ now, projectId: q.project.id }))?.fired).toMatchObject([{ silenced: false }]);
    await waitFor(() => q.hook.received.length === 1, "the unsilenced incident's webhook");
  });

  it("a snoozed incident stays open, leaves the firing count until the snooze ends, and says who snoozed it", async () => {
    const p = await burstProject();
    cleanup.push(p.hook.close);
    const slug = p.project.slug;
    const id = (await evaluateAlerts({ now, projectId: p.project.id }))!.fired[0]!.id;
    const member = await p.member("member");
    expect(await member.alerts.firingCount({ project: slug })).toBe(1);
    const { snoozedUntil } = await member.alerts.snooze({ project: slug, id, minutes: 60, note: "after the deploy" });
    expect(snoozedUntil.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(await member.alerts.firingCount({ project: slug })).toBe(0);
    const detail = await member.alerts.incident({ project: slug, id });
    expect(detail).toMatchObject({ state: "firing", snoozedUntil });
    expect(detail.events.at(-1)).toMatchObject({ kind: "snoozed", actor: member.user.email });
    expect(detail.events.at(-1)!.note).toMatch(/after the deploy/);
    expect(timelineIn(detail, "Asia/Kolkata").at(-1)!.note).toBe(`until ${formatDateTimeZoned(snoozedUntil, "Asia/Kolkata")}: after the deploy`);
    // once the snooze ends it counts again
    await prisma().incident.update({ where: { projectId_id: { projectId: p.project.id, id } }, data: { snoozedUntil: new Date(Date.now() - 1000) } });
    expect(await member.alerts.firingCount({ project: slug })).toBe(1);
    await member.alerts.resolve({ project: slug, id });
    await expect(member.alerts.snooze({ project: slug, id, minutes: 60 })).rejects.toThrow(/resolved; only an open incident can be snoozed/);
  });

  it("one pass at a time across instances, and one evaluation of a project at a time (advisory locks)", async () => {
    const p = await makeProject();
    const other = new pg.Client({ connectionString: inject("databaseUrl") });
    await other.connect();
    try {
      await other.query("SELECT pg_advisory_lock(hashtext('toolgate:alert-evaluator'))");
      expect(await evaluateAlerts({ now })).toBeNull();
      await other.query("SELECT pg_advisory_lock(hashtext('toolgate:alert-evaluator'), hashtext($1::text))", [p.project.id]);
      expect(await evaluateAlerts({ now, projectId: p.project.id })).toBeNull();
    } finally {
      await other.end();
    }
    expect(await evaluateAlerts({ now, projectId: p.project.id })).not.toBeNull();
  });

  it("one project's pass never makes another project's Evaluate now busy", async () => {
    const a = await burstProject();
    const b = await burstProject();
    // hold A's pass open deterministically: its rule's row is locked, so the pass waits at the rule's last update
    const other = new pg.Client({ connectionString: inject("databaseUrl") });
    await other.connect();
    await other.query("BEGIN");
    await other.query("SELECT 1 FROM alert_rules WHERE project_id = $1 AND NOT built_in FOR NO KEY UPDATE", [a.project.id]);
    const passA = evaluateAlerts({ now, projectId: a.project.id });
    try {
      await waitFor(async () => {
        const { rows } = await pool().query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE%alert_rules%'`,
        );
        return rows[0].n > 0;
      }, "project A's pass to wait on its rule");
      const reportB = await b.owner.alerts.evaluateNow({ project: b.project.slug });
      expect(reportB).toMatchObject({ fired: 1 });
      expect(reportB).not.toHaveProperty("busy");
      // the same project is busy while its own pass runs
      expect(await a.owner.alerts.evaluateNow({ project: a.project.slug })).toMatchObject({ busy: true });
    } finally {
      await other.query("COMMIT");
      await other.end();
    }
    expect((await passA)?.fired).toHaveLength(1);
  });

  it("caps the rules of a project with a clear error", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    await prisma().alertRule.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        projectId: p.project.id,
        name: `rule ${i}`,
        metric: "invalid_rate",
        condition: "threshold",
        threshold: 0.5,
        windowMinutes: 15,
      })),
    });
    await expect(owner.alerts.createRule({ project: p.project.slug, rule: GETLOAN_INVALID_RULE })).rejects.toThrow(/100 alert rules.*TOOLGATE_MAX_ALERT_RULES/);
    // room again once one goes
    const [first] = await owner.alerts.rules({ project: p.project.slug }).then((r) => r.rules.filter((x) => !x.builtIn));
    await owner.alerts.deleteRule({ project: p.project.slug, id: first!.id });
    await expect(owner.alerts.createRule({ project: p.project.slug, rule: GETLOAN_INVALID_RULE })).resolves.toMatchObject({ name: "getloan invalid" });
  });

  it("unchecked calls are neither valid nor invalid for the evaluator and the preview: rates over checked calls, an all-unchecked window has no data", async () => {
    // no schema registered: a call is checked only when its harness sent a verdict (outcome)
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    const owner = await p.asOwner();
    const slug = p.project.slug;
    const refused = { valid: false, category: "wrong_type", message: "loannumber must be a string" };
    await api.ingest.batch({
      events: [
        // getloan: 12 refused by the harness, 48 nobody checked: 12 of 12 checked calls invalid (not 12 of 60 = 20 %)
        ...Array.from({ length: 12 }, (_, i) => makeEvent({ timestamp: minutesAgo(10 - i * 0.5), outcome: refused })),
        ...Array.from({ length: 48 }, (_, i) => makeEvent({ timestamp: minutesAgo(10 - i * 0.2) })),
        // listopenloans: 30 calls, none checked
        ...Array.from({ length: 30 }, (_, i) => makeEvent({ timestamp: minutesAgo(8 - i * 0.2), tool: "listopenloans", arguments: { status: "open" } })),
      ],
    });
    const getloan = await owner.alerts.createRule({ project: slug, rule: GETLOAN_INVALID_RULE });
    const unchecked = await owner.alerts.createRule({
      project: slug,
      rule: { ...GETLOAN_INVALID_RULE, name: "listopenloans invalid", threshold: 0, minCalls: 0, scope: { tool: "listopenloans" } },
    });
    // 12 checked calls under a 20-call minimum: not enough (the 48 unchecked ones do not make up the number)
    const twenty = await owner.alerts.createRule({ project: slug, rule: { ...GETLOAN_INVALID_RULE, name: "twenty", minCalls: 20 } });

    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired.map((f) => f.summary)).toEqual(["Invalid rate 100.00% is above 20.00% for tool getloan over 15 min (12 checked calls)."]);
    const state = (id: string) => owner.alerts.rule({ project: slug, id }) as Promise<Record<string, unknown>>;
    expect(await state(getloan.id)).toMatchObject({ lastState: "firing", lastValue: 1, lastCalls: 12 });
    expect(await state(unchecked.id)).toMatchObject({ lastState: "no_data", lastValue: null, lastCalls: 0 });
    expect(await state(twenty.id)).toMatchObject({ lastState: "not_enough_calls", lastValue: 1, lastCalls: 12 });

    // the preview (the backtest of a drafted rule) reads the same buckets: raw minutes and hourly rollups
    for (const windowMinutes of [15, 60]) {
      const fires = await owner.alerts.preview({ project: slug, rule: { ...GETLOAN_INVALID_RULE, windowMinutes }, days: 1 });
      expect(fires.fired).toBe(1);
      expect(Math.max(...fires.points.map((pt) => pt.value ?? 0))).toBe(1);
      const none = await owner.alerts.preview({
        project: slug,
        rule: { ...GETLOAN_INVALID_RULE, threshold: 0, minCalls: 0, windowMinutes, scope: { tool: "listopenloans" } },
        days: 1,
      });
      expect(none.fired).toBe(0);
      expect(none.points.every((pt) => pt.value === null && pt.state === "no_data")).toBe(true);
    }
  });

  it("the regression guard compares checked calls: unchecked calls of the new version do not dilute its invalid rate", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    const at = (h: number) => new Date(now.getTime() - (24 - h) * 3_600_000).toISOString();
    const v = (version: string) => ({ provider: "acme", name: "acme-large", version });
    // no schema: the harness's verdict checks a call; without one it is unchecked
    const checked = (n: number, invalidEvery: number, version: string, hour: number) =>
      Array.from({ length: n }, (_, i) =>
        makeEvent({ model: v(version), timestamp: at(hour), outcome: i % invalidEvery === 0 ? { valid: false, category: "wrong_type" } : { valid: true } }),
      );
    await api.ingest.batch({ events: checked(300, 10, "old", 1) });
    // the new version: 100 of 200 checked calls invalid (50 % against 10 %), and 800 calls nobody checked
    await api.ingest.batch({ events: [...checked(200, 2, "new", 6), ...Array.from({ length: 800 }, () => makeEvent({ model: v("new"), timestamp: at(6) }))] });
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired.map((f) => f.summary)).toEqual([
      expect.stringMatching(
        /^Regression: acme-large new has an invalid rate of 50.00% against 10.00% for old \(200 vs 300 checked calls, p (< 0\.001|= 0\.\d{3})\)\.$/,
      ),
    ]);
  });

  it("the regression guard flags a clearly worse new model version, and not a tiny sample", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const at = (h: number) => new Date(now.getTime() - (24 - h) * 3_600_000).toISOString();
    const v = (version: string) => ({ provider: "acme", name: "acme-large", version });
    const batch = (n: number, invalidEvery: number, version: string, hour: number) =>
      Array.from({ length: n }, (_, i) =>
        makeEvent({ model: v(version), timestamp: at(hour), arguments: i % invalidEvery === 0 ? {} : { loannumber: "4471" } }),
      );
    await api.ingest.batch({ events: batch(600, 16, "old", 1) });
    await api.ingest.batch({ events: [...batch(3, 2, "new", 5)] });
    expect((await evaluateAlerts({ now, projectId: p.project.id }))?.fired).toHaveLength(0);
    await api.ingest.batch({ events: batch(400, 4, "new", 6) });
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired).toHaveLength(1);
    expect(report?.fired[0]?.summary).toMatch(/Regression: acme-large new has an invalid rate of 25\.\d+% against 6\.\d+% for old/);
    expect((await evaluateAlerts({ now, projectId: p.project.id }))?.fired).toHaveLength(0);
  });

  it("the regression guard flags a new model version whose results fail more, as a tool error regression of its own", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const at = (h: number) => new Date(now.getTime() - (24 - h) * 3_600_000).toISOString();
    const v = (version: string) => ({ provider: "acme", name: "acme-large", version });
    // every call valid: the gate sees no difference; the results fail 5 % of the time before, 25 % after
    const batch = (n: number, failEvery: number, version: string, hour: number) =>
      Array.from({ length: n }, (_, i) =>
        makeEvent({ model: v(version), timestamp: at(hour), result: { status: i % failEvery === 0 ? "error" : "ok", latencyMs: 40 } }),
      );
    await api.ingest.batch({ events: batch(400, 20, "old", 1) });
    await api.ingest.batch({ events: batch(400, 4, "new", 6) });
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired.map((f) => f.summary)).toEqual([
      expect.stringMatching(
        /^Regression: acme-large new has a tool error rate of 25.00% against 5.00% for old \(400 vs 400 results, p (< 0\.001|= 0\.\d{3})\)\.$/,
      ),
    ]);
    const [incident] = await prisma().incident.findMany({
      where: { projectId: p.project.id },
      select: { subject: true, scopeModel: true, scopeVersion: true },
    });
    expect(incident).toEqual({ subject: "model:acme-large:new:tool_error_rate", scopeModel: "acme-large", scopeVersion: "new" });
    expect((await evaluateAlerts({ now, projectId: p.project.id }))?.fired).toHaveLength(0);
  });

  it("the regression guard flags a tool schema version that made calls worse", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    const [getloan] = LOAN_TOOLS;
    await api.tools.register({ tools: [getloan] });
    const hour = (h: number) => new Date(now.getTime() - (48 - h) * 3_600_000).toISOString();
    const calls = (n: number, invalidEvery: number, h: number) =>
      Array.from({ length: n }, (_, i) => makeEvent({ timestamp: hour(h), arguments: i % invalidEvery === 0 ? { loannumber: "12" } : { loannumber: "4471" } }));
    await api.ingest.batch({ events: calls(500, 20, 1) });
    // the new schema renames the argument: most calls written for the old one now fail
    const renamed = JSON.parse(JSON.stringify(getloan).replace(/loannumber/g, "loan_number"));
    await new Promise((r) => setTimeout(r, 20)); // a later first-seen time than the first version
    await api.tools.register({ tools: [renamed] });
    await api.ingest.batch({
      events: [...calls(150, 1, 30), ...Array.from({ length: 150 }, () => makeEvent({ timestamp: hour(31), arguments: { loan_number: "4471" } }))],
    });
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    const schemaIncidents = report!.fired.filter((f) => f.summary.includes("schema"));
    expect(schemaIncidents).toHaveLength(1);
    expect(schemaIncidents[0]!.summary).toMatch(/^Regression: getloan schema \w+ has an invalid rate of 50.00% against 5.00% for schema \w+/);
  });

  it("the regression guard flags a tool schema version whose calls pass the gate but fail more when they run", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    const [getloan] = LOAN_TOOLS;
    await api.tools.register({ tools: [getloan] });
    const hour = (h: number) => new Date(now.getTime() - (48 - h) * 3_600_000).toISOString();
    const calls = (n: number, failEvery: number, h: number) =>
      Array.from({ length: n }, (_, i) => makeEvent({ timestamp: hour(h), result: { status: i % failEvery === 0 ? "error" : "ok", latencyMs: 30 } }));
    await api.ingest.batch({ events: calls(400, 20, 1) });
    // a new schema version (an optional argument more) that the calls still pass, and whose calls the tool then fails more
    await new Promise((r) => setTimeout(r, 20));
    const parameters = getloan!.parameters as { properties: Record<string, unknown> };
    await api.tools.register({ tools: [{ ...getloan, parameters: { ...parameters, properties: { ...parameters.properties, branch: { type: "string" } } } }] });
    await api.ingest.batch({ events: calls(400, 4, 30) });
    const report = await evaluateAlerts({ now, projectId: p.project.id });
    expect(report?.fired.map((f) => f.summary)).toEqual([
      expect.stringMatching(
        /^Regression: getloan schema \w+ has a tool error rate of 25.00% against 5.00% for schema \w+ \(400 vs 400 results, p (< 0\.001|= 0\.\d{3})\)\.$/,
      ),
    ]);
    const incidents = await prisma().incident.findMany({ where: { projectId: p.project.id }, select: { subject: true, scopeTool: true } });
    expect(incidents).toEqual([{ subject: expect.stringMatching(/^schema:getloan:\w+:tool_error_rate$/), scopeTool: "getloan" }]);
  });
});
