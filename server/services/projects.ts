import type { Role } from "../../contracts/roles";
import { conflict, invalid, notFound } from "../domain/errors";
import { prisma, type Prisma } from "../db/client";
import { isUniqueViolation } from "../db/unavailable";
import { ROLLUP_TABLES } from "./rollups/tables";

export async function projectsOf(userId: string) {
  const rows = await prisma().membership.findMany({
    where: { userId },
    orderBy: { project: { name: "asc" } },
    select: { role: true, project: { select: { id: true, slug: true, name: true, demo: true } } },
  });
  return rows.map((r) => ({ ...r.project, role: r.role }));
}

/** The user's role in the project (slug) and the project, or null. One statement (a join), not Prisma's two: every project page and procedure reads it. */
export async function membership(userId: string, slug: string): Promise<{ role: Role; project: { id: string; slug: string; name: string } } | null> {
  const [row] = await prisma().$queryRaw<{ role: Role; id: string; slug: string; name: string }[]>`
    SELECT m.role::text AS role, p.id::text AS id, p.slug, p.name
      FROM memberships m JOIN projects p ON p.id = m.project_id
     WHERE m.user_id = ${userId}::uuid AND p.slug = ${slug}`;
  return row ? { role: row.role, project: { id: row.id, slug: row.slug, name: row.name } } : null;
}

/** Creates a project owned by `userId`; a slug already taken (also by a concurrent create) is a conflict. */
export async function createProject(userId: string, name: string, slug: string) {
  try {
    return await prisma().project.create({
      data: { name, slug, memberships: { create: { userId, role: "owner" } } },
      select: { id: true, slug: true, name: true },
    });
  } catch (error) {
    // the unique index decides, so two creates of one slug at the same moment get one project and one 409
    if (isUniqueViolation(error)) throw conflict(`The slug "${slug}" is taken: choose another.`);
    throw error;
  }
}

export async function renameProject(projectId: string, name: string) {
  return prisma().project.update({ where: { id: projectId }, data: { name }, select: { id: true, slug: true, name: true } });
}

/**
 * The project and all it holds; its rollups (every table of the catalogue, rollups/tables.ts),
 * the OTLP step, result and message rows and the kept spirals have no foreign key (ingestion and
 * the worker write them in bulk), so they go by hand.
 */
export async function deleteProject(projectId: string) {
  const where = { where: { projectId } };
  await prisma().$transaction([
    ...ROLLUP_TABLES.map(({ table }) => prisma().$executeRawUnsafe(`DELETE FROM ${table} WHERE project_id = $1::uuid`, projectId)),
    prisma().otlpModelCall.deleteMany(where),
    prisma().spiralAttempt.deleteMany(where),
    prisma().spiralStaleRun.deleteMany(where),
    prisma().otlpResult.deleteMany(where),
    prisma().otlpMessage.deleteMany(where),
    prisma().runToolSet.deleteMany(where),
    prisma().toolSet.deleteMany(where),
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

type Tx = Prisma.TransactionClient;

/**
 * Runs a change of `userId`'s membership in a transaction that holds the project's row lock, so
 * that changes to one project's members run one after another: two owners demoting (or removing)
 * each other at the same moment cannot both see the other still an owner. `wouldLoseOwner`
 * says whether the change takes an owner away; when it does and nobody else is owner, nothing
 * changes and the answer is 400.
 */
async function changeMembership(projectId: string, userId: string, wouldLoseOwner: (role: Role) => boolean, change: (tx: Tx) => Promise<unknown>) {
  await prisma().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
    const current = await tx.membership.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { role: true } });
    if (!current) throw notFound("That user is not a member of this project.");
    if (wouldLoseOwner(current.role) && (await tx.membership.count({ where: { projectId, role: "owner", NOT: { userId } } })) === 0) {
      throw invalid("A project needs at least one owner: make someone else owner first.");
    }
    await change(tx);
  });
}

export async function changeRole(projectId: string, userId: string, role: Role) {
  await changeMembership(
    projectId,
    userId,
    (current) => current === "owner" && role !== "owner",
    (tx) => tx.membership.update({ where: { userId_projectId: { userId, projectId } }, data: { role } }),
  );
}

export async function removeMember(projectId: string, userId: string) {
  await changeMembership(
    projectId,
    userId,
    (current) => current === "owner",
    async (tx) => {
      await tx.membership.delete({ where: { userId_projectId: { userId, projectId } } });
      // incidents are assigned to members: theirs go back to nobody
      await tx.incident.updateMany({ where: { projectId, assigneeId: userId }, data: { assigneeId: null } });
      // an account made by this project's invitation link and a member of nothing else goes with it
      await tx.user.deleteMany({ where: { id: userId, invitedIntoProjectId: projectId, memberships: { none: {} } } });
    },
  );
}
