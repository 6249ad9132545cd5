import { DomainError } from "../../domain/errors";
import { apiKeyPolicy } from "../../domain/throttle";
import { env } from "../../env";
import { takeTokens } from "../rate-limits";
import { projectForApiKey, type KeyProject } from "./api-keys";

/**
 * The key's project, once its request fits the per-key and the per-project rate limits (a
 * rate_limited DomainError with the seconds to wait otherwise): more keys do not buy a
 * project more requests. Every API-key entry point goes through it: the tRPC harness
 * procedures and the OTLP endpoint.
 */
export async function apiKeyWithinRate(authorization: string | null): Promise<KeyProject> {
  const key = await projectForApiKey(authorization);
  // in PostgreSQL, so that every app instance counts against the same buckets
  const { TOOLGATE_API_RATE_PER_MINUTE: perKey, TOOLGATE_PROJECT_RATE_PER_MINUTE: perProject } = env();
  const keyBucket = `api-key:${key.keyId}`;
  const projectBucket = `project:${key.projectId}`;
  const taken = await takeTokens({ [keyBucket]: apiKeyPolicy(perKey), [projectBucket]: apiKeyPolicy(perProject) });
  const refused = taken.find((t) => !t.allowed);
  if (refused) {
    const [limit, variable] =
      refused.key === projectBucket
        ? [`of ${perProject} requests a minute for all API keys of project "${key.projectSlug}" together`, "TOOLGATE_PROJECT_RATE_PER_MINUTE"]
        : [`of ${perKey} requests a minute for this API key`, "TOOLGATE_API_RATE_PER_MINUTE"];
    throw new DomainError(
      "rate_limited",
      `Rate limit ${limit} exceeded: retry after ${refused.retryAfterSeconds} s (or batch more events per request; the operator sets the limit with ${variable}).`,
      refused.retryAfterSeconds,
    );
  }
  return key;
}
