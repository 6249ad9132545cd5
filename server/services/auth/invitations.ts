import type { Role } from "../../../contracts/roles";
import { conflict } from "../../domain/errors";
import { prisma } from "../../db/client";
import { normalizeEmail } from "./accounts";
import { hashPassword, oneTimePassword } from "./passwords";

/**
 * Invites an email into a project. Nobody becomes a member without accepting, and the answer
 * is the same whether or not the email has an account: for an email without one, an account
 * is created whose first password is the one-time password in the answer; for an email with
 * one, that password opens nothing (they sign in with their own). Inviting again changes the
 * role of the pending invitation.
 */
export async function inviteMember(projectId: string, rawEmail: string, role: Role) {
  const email = normalizeEmail(rawEmail);
  const member = await prisma().membership.findFirst({ where: { projectId, user: { email } }, select: { role: true } });
  // the owner sees the member list anyway, so saying so reveals nothing new
  if (member) throw conflict(`${email} is already a member (${member.role}): change their role in the list instead.`);
  const password = oneTimePassword();
  // hashed either way and inserted only when new, so that neither the answer nor its timing tells
  const passwordHash = await hashPassword(password);
  await prisma().user.createMany({ data: [{ email, passwordHash, mustChangePassword: true }], skipDuplicates: true });
  await prisma().invitation.upsert({
    where: { projectId_email: { projectId, email } },
    create: { projectId, email, role },
    update: { role, createdAt: new Date() },
  });
  return { email, role, oneTimePassword: password };
}

export async function listInvitations(projectId: string) {
  return prisma().invitation.findMany({ where: { projectId }, orderBy: { createdAt: "asc" }, select: { email: true, role: true, createdAt: true } });
}

export async function revokeInvitation(projectId: string, email: string) {
  await prisma().invitation.deleteMany({ where: { projectId, email: normalizeEmail(email) } });
}

export type PendingInvitation = { projectId: string; email: string; role: Role; project: { slug: string; name: string } };
const pendingSelect = { projectId: true, email: true, role: true, createdAt: true, project: { select: { slug: true, name: true } } } as const;

/** The invitations waiting for the user with this email. */
export async function invitationsFor(email: string) {
  return prisma().invitation.findMany({ where: { email: normalizeEmail(email) }, orderBy: { createdAt: "asc" }, select: pendingSelect });
}

export async function invitationFor(email: string, projectSlug: string): Promise<PendingInvitation | null> {
  return prisma().invitation.findFirst({ where: { email: normalizeEmail(email), project: { slug: projectSlug } }, select: pendingSelect });
}

/** The invitation becomes a membership (once, even when accepted twice at the same time). */
export async function acceptInvitation(userId: string, invitation: PendingInvitation) {
  await prisma().$transaction(async (tx) => {
    const { count } = await tx.invitation.deleteMany({ where: { projectId: invitation.projectId, email: invitation.email } });
    if (!count) return;
    await tx.membership.createMany({ data: [{ userId, projectId: invitation.projectId, role: invitation.role }], skipDuplicates: true });
  });
  return { project: invitation.project.slug, role: invitation.role };
}

export async function declineInvitation(invitation: PendingInvitation) {
  await prisma().invitation.deleteMany({ where: { projectId: invitation.projectId, email: invitation.email } });
}
