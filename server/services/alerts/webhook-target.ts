import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { DomainError } from "../../domain/errors";
import { webhookAddressVerdict, type AddressVerdict } from "../../domain/webhook-targets";
import { env } from "../../env";

/**
 * Webhook delivery that cannot be pointed at internal networks: the host is resolved once,
 * every address it resolves to must be public (server/domain/webhook-targets.ts), and the
 * connection goes to that checked address (no second lookup that DNS rebinding could answer
 * differently). Redirects are followed by hand, each hop checked the same way.
 */

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export type TargetOptions = {
  /** name resolution (tests stub it) */
  resolve?: Resolver;
  /** allow internal addresses (TOOLGATE_WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate?: boolean;
  /** the address rule (tests let their own loopback receiver through, and nothing else) */
  verdict?: (address: string) => AddressVerdict;
};

export type CheckedTarget = { url: URL; address: string; family: 4 | 6 };

const MAX_WEBHOOK_REDIRECTS = 3;

const HOW_TO_ALLOW =
  "Toolgate does not send webhooks to internal networks by default: use a public URL, or set TOOLGATE_WEBHOOK_ALLOW_PRIVATE=true on the server if your receiver is internal.";

/** A target Toolgate will not send to (retrying cannot help); a host that does not resolve is a plain DomainError. */
export class WebhookTargetRefused extends DomainError {
  constructor(message: string) {
    super("invalid", message);
  }
}
const refused = (message: string) => new WebhookTargetRefused(message);

/** Resolves the URL's host once and checks every address; the address to connect to, or a refusal that says why. */
export async function checkWebhookTarget(target: string | URL, options: TargetOptions = {}): Promise<CheckedTarget> {
  const { resolve = systemResolver, allowPrivate = env().TOOLGATE_WEBHOOK_ALLOW_PRIVATE, verdict: judge = webhookAddressVerdict } = options;
  const url = new URL(target);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw refused(`Webhook URL ${url.protocol}//${url.host} is not http(s): use an http:// or https:// URL.`);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(hostname)) addresses = [{ address: hostname, family: ipaddr.parse(hostname).kind() === "ipv6" ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new DomainError("invalid", `Webhook host "${hostname}" could not be resolved (${why}): check the URL.`);
    }
    if (!addresses.length) throw new DomainError("invalid", `Webhook host "${hostname}" resolves to no address: check the URL.`);
  }
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const verdict = judge(address);
      if (!verdict.allowed) throw refused(`Webhook URL host "${hostname}" refused: ${verdict.reason}. ${HOW_TO_ALLOW}`);
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup that always answers the checked address, whatever it is asked. */
const pinned =
  (target: CheckedTarget): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

type Answer = { status: number; location: string | null };

/** One request to a checked target, connected to its checked address (TLS still verifies the host name). */
function send(target: CheckedTarget, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<Answer> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target.url, { method, headers, signal, agent: false, lookup: pinned(target) }, (response) => {
      resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null });
      response.destroy();
    });
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * POSTs `body` to `url` the guarded way: checks the target before connecting, follows up to
 * MAX_WEBHOOK_REDIRECTS redirects (re-checking each) and answers the final status code.
 * Throws a DomainError ("invalid") when a target is refused.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, signal: AbortSignal, options: TargetOptions = {}) {
  let target = await checkWebhookTarget(url, options);
  let method = "POST";
  let payload: string | undefined = body;
  for (let redirects = 0; ; redirects++) {
    const answer = await send(target, method, payload === undefined ? omitBodyHeaders(headers) : headers, payload, signal);
    if (![301, 302, 303, 307, 308].includes(answer.status) || !answer.location) return answer.status;
    if (redirects === MAX_WEBHOOK_REDIRECTS) {
      throw refused(
        `Webhook URL redirected more than ${MAX_WEBHOOK_REDIRECTS} times (last to ${new URL(answer.location, target.url).host}): point the webhook at the final URL.`,
      );
    }
    // as browsers do: 307/308 repeat the POST, the others continue with a GET
    if (answer.status !== 307 && answer.status !== 308) [method, payload] = ["GET", undefined];
    target = await checkWebhookTarget(new URL(answer.location, target.url), options);
  }
}

const omitBodyHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)));
