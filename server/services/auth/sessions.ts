import { env } from "../../env";
import { prisma } from "../../db/client";
import { randomToken, sha256 } from "./tokens";
import { DAY_MS } from "../../../contracts/metrics";

export const SESSION_COOKIE = "tg_session";

export type SessionUser = { id: string; email: string; name: string; mustChangePassword: boolean };

export async function createSession(userId: string) {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + env().TOOLGATE_SESSION_DAYS * DAY_MS);
  await prisma().session.create({ data: { id: sha256(token), userId, expiresAt } });
  return { token, expiresAt };
}

/**
 * The user of a session token, while the session lasts. One statement (a join), not Prisma's two
 * (the session, then its user) one after the other: every page and API request starts with it.
 */
export async function userForSession(token: string | undefined): Promise<SessionUser | null> {
  if (!token) return null;
  const [row] = await prisma().$queryRaw<(SessionUser & { expiresAt: Date })[]>`
    SELECT u.id::text AS id, u.email, u.name, u.must_change_password AS "mustChangePassword", s.expires_at AS "expiresAt"
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = ${sha256(token)}`;
  if (!row || row.expiresAt <= new Date()) return null;
  const { expiresAt: _expires, ...user } = row;
  return user;
}

export async function deleteSession(token: string) {
  await prisma().session.deleteMany({ where: { id: sha256(token) } });
}

/** Ends every session of the user but the one with `keepToken` (e.g. after a password change). */
export function endOtherSessions(userId: string, keepToken: string | undefined) {
  return prisma().session.deleteMany({ where: { userId, ...(keepToken ? { NOT: { id: sha256(keepToken) } } : {}) } });
}

/** The Set-Cookie value for a session (or its removal when token is null). */
export function sessionCookie(token: string | null, { secure, expiresAt }: { secure: boolean; expiresAt?: Date }) {
  const parts = [`${SESSION_COOKIE}=${token ?? ""}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (secure) parts.push("Secure");
  parts.push(token && expiresAt ? `Expires=${expiresAt.toUTCString()}` : "Max-Age=0");
  return parts.join("; ");
}

/** The cookie's value; a malformed one (bad %-escapes: not ours, our tokens are base64url) counts as none. */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
