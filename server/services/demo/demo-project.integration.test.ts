import { describe, expect, it } from "vitest";
import { prisma } from "../../db/client";
import { makeProject, makeUser } from "../../../test/fixtures";
import { DEMO_PROJECT_NAME, openDemoProject } from "./demo-project";
import { projectsOf } from "../projects";

// Demo loads take turns of their project's share of heavy operations (server/trpc/roles.integration.test.ts
// checks that); the race below loads one project four times at once, and is about creating it.
process.env.TOOLGATE_PROJECT_HEAVY_CONCURRENCY = "4";

const small = (now: string) => ({ now: new Date(now), days: 1, runsPerDay: 20 });
const callsOf = (projectId: string) => prisma().toolCall.count({ where: { projectId } });

describe("openDemoProject", () => {
  it("loads the demo into a project of the user's own, leaves their project alone, and refreshes the same one on the next load", async () => {
    const { project, owner } = await makeProject();
    await prisma().toolCall.create({
      data: {
        projectId: project.id,
        id: "mine",
        runId: "r",
        step: 0,
        timestamp: new Date("2026-11-30T10:00:00Z"),
        tool: "t",
        arguments: {},
        modelProvider: "",
        modelName: "m",
        modelVersion: "",
      },
    });

    const first = await openDemoProject(owner.id, small("2026-11-30T15:00:00Z"));
    expect(first).toMatchObject({ name: DEMO_PROJECT_NAME, created: true, rejected: 0 });
    expect(first.accepted).toBeGreaterThan(0);
    expect(first.slug).toMatch(/^demo(-\d+)?$/);
    const demo = await prisma().project.findUniqueOrThrow({ where: { slug: first.slug }, select: { id: true, demo: true } });
    expect(demo.demo).toBe(true);
    expect(await callsOf(demo.id)).toBe(first.accepted);
    expect(await callsOf(project.id)).toBe(1);
    expect((await projectsOf(owner.id)).map((p) => p.slug).sort()).toEqual([first.slug, project.slug].sort());

    // a later load: the same project, only the calls since the first load are new
    const again = await openDemoProject(owner.id, small("2026-11-30T18:00:00Z"));
    expect(again).toMatchObject({ slug: first.slug, created: false, rejected: 0 });
    expect(again.duplicates).toBeGreaterThan(0);
    expect(await callsOf(demo.id)).toBe(first.accepted + again.accepted);
    expect(await prisma().project.count({ where: { demo: true, memberships: { some: { userId: owner.id } } } })).toBe(1);
    expect(await callsOf(project.id)).toBe(1);
  });

  it("gives another user a demo project of their own, under the next free slug", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const forA = await openDemoProject(a.id, small("2026-11-30T15:00:00Z"));
    const forB = await openDemoProject(b.id, small("2026-11-30T15:00:00Z"));
    expect(forB.slug).not.toBe(forA.slug);
    expect(forB.created).toBe(true);
    const members = await prisma().membership.findMany({
      where: { project: { slug: { in: [forA.slug, forB.slug] } } },
      select: { userId: true, role: true, project: { select: { slug: true } } },
    });
    expect(members.map((m) => [m.project.slug, m.userId, m.role]).sort()).toEqual(
      [
        [forA.slug, a.id, "owner"],
        [forB.slug, b.id, "owner"],
      ].sort(),
    );
  });

  it("creates one demo project per user when loads race (a double click, two tabs, another user at the same time)", async () => {
    const user = await makeUser();
    const other = await makeUser();
    // open the connections first, so that the loads' look-ups run side by side rather than one waiting to connect
    await Promise.all(Array.from({ length: 6 }, () => prisma().$executeRaw`SELECT pg_sleep(0.05)`));
    const loads = await Promise.all([user, user, user, user, other, other].map((u) => openDemoProject(u.id, small("2026-11-30T15:00:00Z"))));
    const mine = loads.slice(0, 4);
    const theirs = loads.slice(4);
    expect(new Set(mine.map((l) => l.slug)).size).toBe(1);
    expect(mine.filter((l) => l.created)).toHaveLength(1);
    expect(new Set(theirs.map((l) => l.slug)).size).toBe(1);
    expect(theirs.filter((l) => l.created)).toHaveLength(1);
    expect(theirs[0]!.slug).not.toBe(mine[0]!.slug);
    for (const u of [user, other]) expect(await prisma().project.count({ where: { demo: true, memberships: { some: { userId: u.id } } } })).toBe(1);
  });
});
