import { hasRole, ROLES, type Role } from "../../../contracts/roles";
import { prisma, type Prisma } from "../../db/client";
import type { DemoOptions } from "./demo-data";
import { loadDemoData, type DemoLoadResult } from "./load-demo";

export const DEMO_PROJECT_NAME = "Demo — loan assistant";
/** The role that may load demo data into a project (`demo.load`, and the demo project `demo.openProject` refreshes). */
export const DEMO_LOAD_ROLE: Role = "admin";
const LOADING_ROLES = ROLES.filter((role) => hasRole(role, DEMO_LOAD_ROLE));
const DEMO_SLUG = "demo";

export type DemoProjectResult = DemoLoadResult & { slug: string; name: string; created: boolean };

const select = { id: true, slug: true, name: true } as const;

/**
 * "Load demo data" from the project switcher (or an empty state) into a project of its own, so
 * that a project with real data stays as it is. Each user has at most one demo project (a
 * project marked `demo` they are an admin or owner of: a viewer or member of someone else's
 * demo project may not load data into it, and gets a demo project of their own): the first load creates it, owned by the user,
 * with the slug "demo" (or "demo-2", "demo-3"… when taken); a later load refreshes it: the demo's
 * event ids are deterministic, so only the calls since the last load are added and the demo
 * traffic ends now again. The data itself comes from loadDemoData, as for an empty project.
 */
export async function openDemoProject(userId: string, options: DemoOptions = { now: new Date() }): Promise<DemoProjectResult> {
  const { created, ...project } = await demoProjectOf(userId);
  const loaded = await loadDemoData(project, options);
  return { slug: project.slug, name: project.name, created, ...loaded };
}

/**
 * The user's demo project, created when they have none. Concurrent loads of one user (a double
 * click, two tabs) take their turn on an advisory lock keyed by the user, held to the end of the
 * transaction, so the second finds the project the first created. Two users may still race for
 * a free slug: the one whose insert lost looks again (the transaction is tried anew).
 */
async function demoProjectOf(userId: string) {
  for (let attempt = 0; ; attempt++) {
    let slug: string | undefined;
    try {
      return await prisma().$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolgate:demo-project'), hashtext(${userId}::text))`;
        const existing = await tx.project.findFirst({
          where: { demo: true, memberships: { some: { userId, role: { in: LOADING_ROLES } } } },
          orderBy: { createdAt: "asc" },
          select,
        });
        if (existing) return { ...existing, created: false };
        slug = await freeDemoSlug(tx);
        const project = await tx.project.create({
          data: { slug, name: DEMO_PROJECT_NAME, demo: true, memberships: { create: { userId, role: "owner" } } },
          select,
        });
        return { ...project, created: true };
      });
    } catch (error) {
      // another request took the slug between the look-up and the insert: look again
      const taken = slug !== undefined && (await prisma().project.findUnique({ where: { slug }, select: { id: true } }));
      if (!taken || attempt >= 3) throw error;
    }
  }
}

/** "demo", else the first free "demo-N" from 2 on. */
async function freeDemoSlug(tx: Prisma.TransactionClient): Promise<string> {
  const rows = await tx.project.findMany({ where: { slug: { startsWith: DEMO_SLUG } }, select: { slug: true } });
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(DEMO_SLUG)) return DEMO_SLUG;
  let n = 2;
  while (taken.has(`${DEMO_SLUG}-${n}`)) n++;
  return `${DEMO_SLUG}-${n}`;
}
