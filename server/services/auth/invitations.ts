import type { Role } from "../../../contracts/roles";
import { conflict, DomainError, notFound } from "../../domain/errors";
import { prisma } from "../../db/client";
import { env } from "../../env";
import { createUser, normalizeEmail } from "./accounts";
import { randomToken, sha256 } from "./tokens";

/**
 * Invitations are secrets: an owner invites an address and gets a link with a random token
 * (only its sha-256 is stored) to hand over. Whoever holds the link can accept it, with the
 * account they are signed in with or with a new one; an account that merely has the invited
 * address gets nothing. Inviting the same address again replaces the link (the old one stops
 * working) and restarts the expiry.
 */
export async function inviteMember(projectId: string, rawEmail: string, role: Role) {
  const email = normalizeEmail(rawEmail);
  const member = await prisma().membership.findFirst({ where: { projectId, user: { email } }, select: { role: true } });
  // the owner sees the member list anyway, so saying so reveals nothing new
  if (member) throw conflict(`${email} is already a member (${member.role}): change their role in the list instead.`);
  const token = randomToken();
  const expiresAt = new Date(Date.now() + env().TOOLGATE_INVITATION_DAYS * 86_400_000);
  const fields = { role, tokenHash: sha256(token), createdAt: new Date(), expiresAt };
  await prisma().invitation.upsert({ where: { projectId_email: { projectId, email } }, create: { projectId, email, ...fields }, update: fields });
  return { email, role, expiresAt, path: `/invite/${token}` };
}

export async function listInvitations(projectId: string) {
  const rows = await prisma().invitation.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { email: true, role: true, createdAt: true, expiresAt: true },
  });
  const now = new Date();
  return rows.map((r) => ({ ...r, expired: r.expiresAt <= now }));
}

export async function revokeInvitation(projectId: string, email: string) {
  await prisma().invitation.deleteMany({ where: { projectId, email: normalizeEmail(email) } });
}

export type OpenInvitation = { id: string; projectId: string; email: string; role: Role; expiresAt: Date; project: { slug: string; name: string } };

/** The invitation this link's token opens; a clear not_found when there is none or it has expired. */
export async function invitationByToken(token: string): Promise<OpenInvitation> {
  const invitation = await prisma().invitation.findUnique({
    where: { tokenHash: sha256(token) },
    select: { id: true, projectId: true, email: true, role: true, expiresAt: true, project: { select: { slug: true, name: true } } },
  });
  if (!invitation)
    throw notFound("This invitation link is not valid: it was revoked, replaced by a newer one, or already used. Ask the project's owner for a new link.");
  if (invitation.expiresAt <= new Date()) {
    throw notFound(`This invitation link expired on ${invitation.expiresAt.toISOString()}. Ask the project's owner for a new link.`);
  }
  return invitation;
}

/** The invitation becomes the user's membership (once, even when accepted twice at the same time). */
export async function acceptInvitation(userId: string, token: string) {
  const invitation = await invitationByToken(token);
  await prisma().$transaction(async (tx) => {
    const { count } = await tx.invitation.deleteMany({ where: { id: invitation.id } });
    if (!count) throw notFound("This invitation link was used a moment ago.");
    await tx.membership.createMany({ data: [{ userId, projectId: invitation.projectId, role: invitation.role }], skipDuplicates: true });
  });
  return { project: invitation.project.slug, role: invitation.role };
}

/**
 * A new account for whoever holds the link, with the address and password they choose, and
 * its membership. The account remembers the project: removed from it while a member of
 * nothing else, it is deleted (removeMember in services/projects.ts).
 */
export async function acceptAsNewAccount(input: { token: string; email: string; password: string; name?: string }) {
  const invitation = await invitationByToken(input.token);
  const user = await createUser({ email: input.email, password: input.password, name: input.name, invitedIntoProjectId: invitation.projectId }).catch(
    (error: unknown) => {
      throw error instanceof DomainError && error.kind === "conflict"
        ? conflict(`An account with the address ${normalizeEmail(input.email)} exists: sign in with it and open the link again, or choose another address.`)
        : error;
    },
  );
  try {
    return { userId: user.id, ...(await acceptInvitation(user.id, input.token)) };
  } catch (error) {
    await prisma().user.delete({ where: { id: user.id } });
    throw error;
  }
}

export async function declineInvitation(token: string) {
  const invitation = await invitationByToken(token);
  await prisma().invitation.deleteMany({ where: { id: invitation.id } });
}
