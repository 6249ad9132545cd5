import { createHmac, timingSafeEqual } from "node:crypto";
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from "../../../contracts/alerts";
import { webhookPayload, type ChannelKind, type ChannelMessage, type ChannelPayloads } from "../../domain/notification-channels";

/**
 * The notification channels, one entry per kind. What a channel says is its pure builder
 * (server/domain/notification-channels.ts); how it goes out is the same for every kind: a job
 * queued with the incident's change (notify.ts), attempts and retries by the worker
 * (server/services/jobs/work.ts), each attempt POSTed through the internal-address guard
 * (webhook-target.ts) and logged (`deliver` in webhooks.ts). An entry adds only what differs
 * by kind: the payload and the request's headers.
 */
type Channel<K extends ChannelKind> = {
  /** the body of a message on this channel */
  payload: (message: ChannelMessage) => ChannelPayloads[K];
  /** the headers of one attempt to POST `body` (the payload as JSON) to the endpoint */
  headers: (endpoint: { secret: string }, body: string, delivery: { event: string; deliveryId?: string }) => Record<string, string>;
};

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

/** Every kind, registered once: a kind added to ChannelPayloads without its entry here does not compile. */
const CHANNELS: { [K in ChannelKind]: Channel<K> } = {
  webhook: {
    payload: webhookPayload,
    headers: (endpoint, body, { event, deliveryId }) => ({
      "Content-Type": "application/json",
      "User-Agent": "Toolgate-Webhook/1",
      "X-Toolgate-Event": event,
      ...(deliveryId ? { [DELIVERY_ID_HEADER]: deliveryId } : {}),
      [SIGNATURE_HEADER]: sign(endpoint.secret, body),
    }),
  },
};

/**
 * The channel of a stored endpoint. Every endpoint is a generic webhook: `webhook_endpoints`
 * has no kind column while that is the only kind; the second kind adds one (a migration whose
 * default is "webhook"), and this reads it.
 */
export const endpointChannel = (): Channel<ChannelKind> => CHANNELS.webhook;
