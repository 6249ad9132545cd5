import type { Role } from "../../contracts/roles";
import { conflict, invalid, notFound } from "../domain/errors";
import { prisma } from "../db/client";

export async function projectsOf(userId: string) {
  const rows = await prisma().membership.findMany({
    where: { userId },
    orderBy: { project: { name: "asc" } },
    select: { role: true, project: { select: { id: true, slug: true, name: true, demo: true } } },
  });
  return rows.map((r) => ({ ...r.project, role: r.role }));
}

export async function membership(userId: string, slug: string) {
  return prisma().membership.findFirst({
    where: { userId, project: { slug } },
    select: { role: true, project: { select: { id: true, slug: true, name: true } } },
  });
}

export async function createProject(userId: string, name: string, slug: string) {
  if (await prisma().project.findUnique({ where: { slug }, select: { id: true } })) {
    throw conflict(`The slug "${slug}" is taken: choose another.`);
  }
  return prisma().project.create({
    data: { name, slug, memberships: { create: { userId, role: "owner" } } },
    select: { id: true, slug: true, name: true },
  });
}

export async function renameProject(projectId: string, name: string) {
  return prisma().project.update({ where: { id: projectId }, data: { name }, select: { id: true, slug: true, name: true } });
}

/**
 * The project and all it holds; its rollups and the OTLP step and result rows have no foreign
 * key (ingestion writes them in bulk), so they go by hand.
 */
export async function deleteProject(projectId: string) {
  const where = { where: { projectId } };
  await prisma().$transaction([
    prisma().callRollupHourly.deleteMany(where),
    prisma().callRollupDaily.deleteMany(where),
    prisma().errorMessageRollupHourly.deleteMany(where),
    prisma().errorMessageRollupDaily.deleteMany(where),
    prisma().otlpModelCall.deleteMany(where),
    prisma().otlpResult.deleteMany(where),
    prisma().project.delete({ where: { id: projectId } }),
  ]);
}

export async function listMembers(projectId: string) {
  const rows = await prisma().membership.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true, mustChangePassword: true } } },
  });
  return rows.map((r) => ({ ...r.user, role: r.role, since: r.createdAt, invitePending: r.user.mustChangePassword }));
}

async function ownersLeftWithout(projectId: string, userId: string) {
  return prisma().membership.count({ where: { projectId, role: "owner", NOT: { userId } } });
}

export async function changeRole(projectId: string, userId: string, role: Role) {
  const current = await prisma().membership.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { role: true } });
  if (!current) throw notFound("That user is not a member of this project.");
  if (current.role === "owner" && role !== "owner" && (await ownersLeftWithout(projectId, userId)) === 0) {
    throw invalid("A project needs at least one owner: make someone else owner first.");
  }
  await prisma().membership.update({ where: { userId_projectId: { userId, projectId } }, data: { role } });
}

export async function removeMember(projectId: string, userId: string) {
  const current = await prisma().membership.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { role: true } });
  if (!current) throw notFound("That user is not a member of this project.");
  if (current.role === "owner" && (await ownersLeftWithout(projectId, userId)) === 0) {
    throw invalid("A project needs at least one owner: make someone else owner first.");
  }
  await prisma().$transaction(async (tx) => {
    await tx.membership.delete({ where: { userId_projectId: { userId, projectId } } });
    // an account made by this project's invitation link and a member of nothing else goes with it
    await tx.user.deleteMany({ where: { id: userId, invitedIntoProjectId: projectId, memberships: { none: {} } } });
  });
}
