import { randomBytes } from "node:crypto";
import type { ApiKeyScope } from "../../../contracts/accounts";
import { DomainError, notFound } from "../../domain/errors";
import { prisma } from "../../db/client";
import { randomToken, sameHash, sha256 } from "./tokens";

/**
 * Keys look like tg_<prefix>_<secret>: the tg_ start makes leaked keys easy to grep for
 * and to register with secret scanners; the prefix finds the row, the whole key's
 * sha-256 checks it. The key itself is never stored.
 */
const KEY_PATTERN = /^tg_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;

export async function createApiKey(projectId: string, name: string, scope: ApiKeyScope = "ingest") {
  const prefix = randomBytes(8).toString("hex").slice(0, 10);
  const key = `tg_${prefix}_${randomToken()}`;
  const row = await prisma().apiKey.create({
    data: { projectId, name, prefix, secretHash: sha256(key), scope },
    select: { id: true, name: true, prefix: true, scope: true, createdAt: true },
  });
  return { ...row, key };
}

export async function listApiKeys(projectId: string) {
  return prisma().apiKey.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, scope: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

export async function revokeApiKey(projectId: string, keyIdOrPrefix: string) {
  const isUuid = /^[0-9a-f-]{36}$/.test(keyIdOrPrefix);
  const where = isUuid ? { projectId, id: keyIdOrPrefix } : { projectId, prefix: keyIdOrPrefix.replace(/^tg_/, "") };
  const { count } = await prisma().apiKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!count) throw notFound(`No active API key "${keyIdOrPrefix}" in this project (already revoked, or a typo?).`);
}

export type KeyProject = { keyId: string; projectId: string; projectSlug: string; scope: ApiKeyScope };

const unauthorized = (message: string) => new DomainError("unauthorized", message);

/** Why an Authorization header cannot hold a key (absent, malformed), without reading the database; undefined when it may. */
export function keyHeaderProblem(authorization: string | null): DomainError | undefined {
  if (!authorization) return unauthorized("No API key: send the header `Authorization: Bearer tg_…` with a key from Settings → API keys.");
  const key = authorization.replace(/^Bearer\s+/i, "").trim();
  if (!KEY_PATTERN.test(key)) {
    return unauthorized(
      `Malformed API key "${key.slice(0, 12)}…": keys look like tg_<10 characters>_<43 characters>, sent as \`Authorization: Bearer <key>\`.`,
    );
  }
  return undefined;
}

/** Resolves `Authorization: Bearer tg_…` to its project, or says precisely why not. */
export async function projectForApiKey(authorization: string | null): Promise<KeyProject> {
  const problem = keyHeaderProblem(authorization);
  if (problem) throw problem;
  const key = authorization!.replace(/^Bearer\s+/i, "").trim();
  const match = KEY_PATTERN.exec(key)!;
  const row = await prisma().apiKey.findUnique({
    where: { prefix: match[1] },
    select: { id: true, secretHash: true, revokedAt: true, lastUsedAt: true, projectId: true, scope: true, project: { select: { slug: true } } },
  });
  if (!row || !sameHash(row.secretHash, sha256(key))) throw unauthorized(`Unknown API key tg_${match[1]}_…: check that it was copied whole.`);
  if (row.revokedAt) throw unauthorized(`API key tg_${match[1]}_… was revoked on ${row.revokedAt.toISOString()}; create a new one.`);
  // last-used is for people, not an audit log: write it at most once a minute per key
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await prisma().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { keyId: row.id, projectId: row.projectId, projectSlug: row.project.slug, scope: row.scope };
}

/** A key may call a procedure of its own scope only: a leaked CI (read) key cannot write, a harness (ingest) key cannot read. */
export function checkKeyScope(key: Pick<KeyProject, "keyId" | "scope">, needed: ApiKeyScope, prefix?: string): void {
  if (key.scope === needed) return;
  const what = needed === "read" ? "read figures" : "send events or tool schemas";
  throw new DomainError(
    "forbidden",
    `This API key${prefix ? ` tg_${prefix}_…` : ""} has the ${key.scope} scope and cannot ${what}: use a key with the ${needed} scope (Settings → API keys, or \`toolgate keys create --scope ${needed}\`).`,
  );
}
