import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from "../../../contracts/alerts";
import { notFound } from "../../domain/errors";
import { prisma } from "../../db/client";
import { checkWebhookTarget, postWebhook, WebhookTargetRefused, type TargetOptions } from "./webhook-target";

function sign(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** For receivers (and our tests): true when the header matches the body and is recent. */
export function verifySignature(secret: string, body: string, header: string, toleranceSeconds = 300, now = Date.now()) {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  const t = Number(parts.t);
  if (!t || !parts.v1 || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, body, t).split("v1=")[1]!, "hex");
  const given = Buffer.from(parts.v1, "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

export type DeliveryOptions = { attempt?: number; deliveryId?: string; timeoutMs?: number; target?: TargetOptions };

/**
 * One attempt: POSTs the payload to a target that passed the internal-address check
 * (webhook-target.ts), logs the attempt in the delivery log, and says whether it was
 * delivered (2xx) or refused (an internal target: not worth retrying). Retries are the job
 * queue's business (server/services/jobs/work.ts).
 */
export async function deliver(
  endpoint: { projectId: string; id: string; url: string; secret: string },
  event: string,
  payload: unknown,
  incidentId: string | null,
  { attempt = 1, deliveryId, timeoutMs = 5000, target }: DeliveryOptions = {},
): Promise<{ delivered: boolean; refused: boolean; statusCode: number | null; error: string | null }> {
  const body = JSON.stringify(payload);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let refused = false;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": "Toolgate-Webhook/1",
      "X-Toolgate-Event": event,
      ...(deliveryId ? { [DELIVERY_ID_HEADER]: deliveryId } : {}),
      [SIGNATURE_HEADER]: sign(endpoint.secret, body),
    };
    statusCode = await postWebhook(endpoint.url, headers, body, signal, target);
  } catch (e) {
    refused = e instanceof WebhookTargetRefused;
    error = signal.aborted ? `no answer within ${timeoutMs} ms` : (e as Error).message;
  }
  await prisma().webhookDelivery.create({
    data: { projectId: endpoint.projectId, endpointId: endpoint.id, incidentId, event, attempt, statusCode, error, durationMs: Date.now() - started },
  });
  return { delivered: statusCode !== null && statusCode >= 200 && statusCode < 300, refused, statusCode, error };
}

export async function listWebhooks(projectId: string) {
  return prisma().webhookEndpoint.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, url: true, secret: true, enabled: true, createdAt: true },
  });
}

export async function createWebhook(projectId: string, name: string, url: string, target?: TargetOptions) {
  await checkWebhookTarget(url, target);
  return prisma().webhookEndpoint.create({
    data: { projectId, name, url, secret: newWebhookSecret() },
    select: { id: true, name: true, url: true, secret: true, enabled: true, createdAt: true },
  });
}

export async function deleteWebhook(projectId: string, id: string) {
  const { count } = await prisma().webhookEndpoint.deleteMany({ where: { projectId, id } });
  if (!count) throw notFound("No such webhook endpoint in this project.");
}

/** "Send test": one signed test payload, attempted once, logged like the others. */
export async function sendTestWebhook(projectId: string, id: string, project: { slug: string; name: string }, target?: TargetOptions) {
  const endpoint = await prisma().webhookEndpoint.findFirst({
    where: { projectId, id },
    select: { projectId: true, id: true, url: true, secret: true, name: true },
  });
  if (!endpoint) throw notFound("No such webhook endpoint in this project.");
  await checkWebhookTarget(endpoint.url, target); // refused targets answer 400 with the reason, not a logged attempt
  const result = await deliver(
    endpoint,
    "test",
    {
      text: `Toolgate test message for project ${project.name} (${project.slug}): webhooks work.`,
      event: "test",
      project,
    },
    null,
    { target },
  );
  return { delivered: result.delivered, statusCode: result.statusCode, error: result.error };
}
