import { randomBytes } from "node:crypto";
import { notFound } from "../../domain/errors";
import { prisma } from "../../db/client";
import { endpointChannel } from "./channels";
import { checkWebhookTarget, postWebhook, WebhookTargetRefused, type TargetOptions } from "./webhook-target";

const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

export type DeliveryOptions = { attempt?: number; deliveryId?: string; timeoutMs?: number; target?: TargetOptions };

/**
 * One attempt, the same for every channel kind: POSTs the payload, with its channel's headers
 * (channels.ts), to a target that passed the internal-address check (webhook-target.ts), logs
 * the attempt in the delivery log, and says whether it was delivered (2xx) or refused (an
 * internal target: not worth retrying). Retries are the job queue's business
 * (server/services/jobs/work.ts).
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
    const headers = endpointChannel().headers(endpoint, body, { event, deliveryId });
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
export async function sendTestWebhook(projectId: string, id: string, project: { id: string; slug: string; name: string }, target?: TargetOptions) {
  const endpoint = await prisma().webhookEndpoint.findFirst({
    where: { projectId, id },
    select: { projectId: true, id: true, url: true, secret: true, name: true },
  });
  if (!endpoint) throw notFound("No such webhook endpoint in this project.");
  await checkWebhookTarget(endpoint.url, target); // refused targets answer 400 with the reason, not a logged attempt
  const result = await deliver(endpoint, "test", endpointChannel().payload({ event: "test", project }), null, { target });
  return { delivered: result.delivered, statusCode: result.statusCode, error: result.error };
}
