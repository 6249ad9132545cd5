import type { Role } from "../../../contracts/roles";
import { conflict, DomainError, invalid } from "../../domain/errors";
import { SIGN_IN_LIMITS, UNKNOWN_ADDRESS } from "../../domain/throttle";
import { prisma } from "../../db/client";
import { resetBucket, takeTokens } from "../rate-limits";
import { endOtherSessions } from "./sessions";
import { checkPasswordStrength, hashPassword, oneTimePassword, verifyPassword } from "./passwords";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function userCount() {
  return prisma().user.count();
}

const accountBucket = (email: string) => `signin:account:${normalizeEmail(email)}`;
const addressBucket = (address: string) => `signin:address:${address}`;

/**
 * Every attempt takes a token from its account's and its address's bucket before the
 * password is checked, in one statement (server/services/rate-limits.ts): a parallel burst
 * gets as many checks as the buckets hold, on every app instance together.
 */
export async function signIn(email: string, password: string, address: string) {
  const account = accountBucket(email);
  const from = addressBucket(address);
  const unknown = address === UNKNOWN_ADDRESS;
  const taken = await takeTokens({ [account]: SIGN_IN_LIMITS.account, [from]: unknown ? SIGN_IN_LIMITS.unknownAddress : SIGN_IN_LIMITS.address });
  const refused = taken.filter((t) => !t.allowed).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
  if (refused) {
    const seconds = refused.retryAfterSeconds;
    const which =
      refused.key === account
        ? "for this account"
        : unknown
          ? "on this server (it cannot tell clients apart: behind a reverse proxy, the operator sets TOOLGATE_TRUST_PROXY)"
          : "from your address";
    throw new DomainError("rate_limited", `Too many sign-in attempts ${which}: try again in ${seconds} s.`, seconds);
  }
  const user = await prisma().user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, passwordHash: true },
  });
  // verify against a dummy hash when there is no such user, so timing does not tell
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) throw new DomainError("unauthorized", "Wrong email or password.");
  // the account's owner is back: their next typos start from a full bucket (the address's stays)
  await resetBucket(account);
  return user.id;
}
const DUMMY_HASH = await hashPassword("toolgate-dummy-password");

export async function createUser(input: { email: string; password: string; name?: string; mustChangePassword?: boolean; invitedIntoProjectId?: string }) {
  const weak = checkPasswordStrength(input.password);
  if (weak) throw invalid(weak);
  const email = normalizeEmail(input.email);
  if (await prisma().user.findUnique({ where: { email }, select: { id: true } })) {
    throw conflict(`A user with the email ${email} already exists.`);
  }
  return prisma().user.create({
    data: {
      email,
      name: input.name ?? "",
      passwordHash: await hashPassword(input.password),
      mustChangePassword: input.mustChangePassword ?? false,
      invitedIntoProjectId: input.invitedIntoProjectId,
    },
    select: { id: true, email: true },
  });
}

/** A new password ends every other session of the user: whoever knew the old one is signed out. */
export async function changePassword(userId: string, current: string, next: string, sessionToken: string | undefined) {
  const user = await prisma().user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, current))) throw invalid("The current password is wrong.");
  const weak = checkPasswordStrength(next);
  if (weak) throw invalid(weak);
  const passwordHash = await hashPassword(next);
  await prisma().$transaction([
    prisma().user.update({ where: { id: userId }, data: { passwordHash, mustChangePassword: false } }),
    endOtherSessions(userId, sessionToken),
  ]);
}

/**
 * First run: the first admin and the first project, only while no user exists. The
 * transaction's advisory lock makes two concurrent set-ups create one admin.
 */
export async function setupFirstAdmin(input: { email: string; password: string; name?: string; projectName: string; projectSlug: string }) {
  const weak = checkPasswordStrength(input.password);
  if (weak) throw invalid(weak);
  const passwordHash = await hashPassword(input.password);
  return prisma().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolgate:setup'))`;
    if ((await tx.user.count()) > 0) throw conflict("Toolgate is already set up: sign in instead.");
    const user = await tx.user.create({
      data: { email: normalizeEmail(input.email), name: input.name ?? "", passwordHash },
      select: { id: true, email: true },
    });
    const project = await tx.project.create({
      data: { name: input.projectName, slug: input.projectSlug, memberships: { create: { userId: user.id, role: "owner" } } },
      select: { id: true, slug: true },
    });
    return { user, project };
  });
}

/** TOOLGATE_ADMIN_EMAIL + TOOLGATE_ADMIN_PASSWORD: the same first run, for headless servers. */
export async function bootstrapAdminFromEnv(env: { TOOLGATE_ADMIN_EMAIL?: string; TOOLGATE_ADMIN_PASSWORD?: string; TOOLGATE_PROJECT: string }) {
  if (!env.TOOLGATE_ADMIN_EMAIL || !env.TOOLGATE_ADMIN_PASSWORD) return null;
  if ((await userCount()) > 0) return null;
  return setupFirstAdmin({
    email: env.TOOLGATE_ADMIN_EMAIL,
    password: env.TOOLGATE_ADMIN_PASSWORD,
    projectName: env.TOOLGATE_PROJECT,
    projectSlug: env.TOOLGATE_PROJECT,
  }).catch((error: DomainError) => (error.kind === "conflict" ? null : Promise.reject(error)));
}

/**
 * The ops CLI (`users create`): whoever runs it operates the server, so the membership is
 * made directly; a new account gets a one-time password. The app invites instead (invitations.ts).
 */
export async function addMember(projectId: string, email: string, role: Role) {
  const existing = await prisma().user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  let password: string | null = null;
  let userId = existing?.id;
  if (!userId) {
    password = oneTimePassword();
    userId = (await createUser({ email, password, mustChangePassword: true })).id;
  }
  const already = await prisma().membership.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { role: true } });
  if (already) throw conflict(`${normalizeEmail(email)} is already a member (${already.role}).`);
  await prisma().membership.create({ data: { userId, projectId, role } });
  return { userId, email: normalizeEmail(email), role, oneTimePassword: password };
}
