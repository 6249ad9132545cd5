import type { Role } from "../../../contracts/roles";
import { conflict, DomainError, invalid } from "../../domain/errors";
import { loginDelayMs, recordFailure, type Failures } from "../../domain/throttle";
import { prisma } from "../../db/client";
import { checkPasswordStrength, hashPassword, oneTimePassword, verifyPassword } from "./passwords";

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function userCount() {
  return prisma().user.count();
}

/** Login failures per account and per address, kept in memory (one process serves sign-ins). */
const failures = new Map<string, Failures>();

export async function signIn(email: string, password: string, address: string) {
  const keys = [`email:${normalizeEmail(email)}`, `ip:${address}`];
  const now = Date.now();
  const wait = Math.max(...keys.map((k) => loginDelayMs(failures.get(k), now)));
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new DomainError("rate_limited", `Too many failed sign-ins: try again in ${seconds} s.`, seconds);
  }
  const user = await prisma().user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, passwordHash: true },
  });
  // verify against a dummy hash when there is no such user, so timing does not tell
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) {
    for (const k of keys) failures.set(k, recordFailure(failures.get(k), now));
    throw new DomainError("unauthorized", "Wrong email or password.");
  }
  for (const k of keys) failures.delete(k);
  return user.id;
}
const DUMMY_HASH = await hashPassword("toolgate-dummy-password");

export async function createUser(input: { email: string; password: string; name?: string; mustChangePassword?: boolean }) {
  const weak = checkPasswordStrength(input.password);
  if (weak) throw invalid(weak);
  const email = normalizeEmail(input.email);
  if (await prisma().user.findUnique({ where: { email }, select: { id: true } })) {
    throw conflict(`A user with the email ${email} already exists.`);
  }
  return prisma().user.create({
    data: { email, name: input.name ?? "", passwordHash: await hashPassword(input.password), mustChangePassword: input.mustChangePassword ?? false },
    select: { id: true, email: true },
  });
}

export async function changePassword(userId: string, current: string, next: string) {
  const user = await prisma().user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, current))) throw invalid("The current password is wrong.");
  const weak = checkPasswordStrength(next);
  if (weak) throw invalid(weak);
  await prisma().user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(next), mustChangePassword: false } });
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

/** Adds a user to a project; creates the account with a one-time password when new. */
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
