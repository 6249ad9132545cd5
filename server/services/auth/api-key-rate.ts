import { DomainError } from "../../domain/errors";
import { apiKeyPolicy } from "../../domain/throttle";
import { env } from "../../env";
import { takeTokens } from "../rate-limits";
import { projectForApiKey, type KeyProject } from "./api-keys";

/**
 * The key's project, once its request fits the per-key rate limit (a rate_limited
 * DomainError with the seconds to wait otherwise). Every API-key entry point goes through
 * it: the tRPC harness procedures and the OTLP endpoint.
 */
export async function apiKeyWithinRate(authorization: string | null): Promise<KeyProject> {
  const key = await projectForApiKey(authorization);
  // per key in PostgreSQL, so that every app instance counts against the same bucket
  const perMinute = env().TOOLGATE_API_RATE_PER_MINUTE;
  const [taken] = await takeTokens({ [`api-key:${key.keyId}`]: apiKeyPolicy(perMinute) });
  if (!taken!.allowed) {
    throw new DomainError(
      "rate_limited",
      `Rate limit of ${perMinute} requests a minute for this API key exceeded: retry after ${taken!.retryAfterSeconds} s (or batch more events per request).`,
      taken!.retryAfterSeconds,
    );
  }
  return key;
}
