import { describe, expect, it } from "vitest";
import { prisma } from "../db/client";
import { codeOf, makeProject, makeUser, signedIn, unique } from "../../test/fixtures";

/**
 * One of two owners acting on each other at once gets through and the other is refused: as the
 * last owner (400) when its request reached the locked check first, or as no longer an owner or
 * member (403) when the other's change was committed before its role was read. Never both.
 */
function expectOneRefused(codes: string[]) {
  expect(codes.filter((code) => code === "OK")).toHaveLength(1);
  expect(["BAD_REQUEST", "FORBIDDEN"]).toContain(codes.find((code) => code !== "OK"));
}

describe("races on projects resolved in the database", () => {
  it("concurrent projects.create with one slug: one project, 409 CONFLICT to every other, never 500", async () => {
    const slug = unique("race");
    const callers = await Promise.all(Array.from({ length: 8 }, async () => signedIn((await makeUser()).id)));
    const codes = await Promise.all(callers.map((c) => codeOf(c.projects.create({ name: "Race", slug }))));
    expect(codes.filter((c) => c === "OK")).toHaveLength(1);
    expect(codes.filter((c) => c !== "OK")).toEqual(Array(7).fill("CONFLICT"));
    expect(await prisma().project.count({ where: { slug } })).toBe(1);
    // the loser hears what to do
    await expect(callers[0]!.projects.create({ name: "Race", slug })).rejects.toThrow(`The slug "${slug}" is taken: choose another.`);
  });

  it("two owners demoting each other at the same moment leave one owner (the other is refused), round after round", async () => {
    for (let round = 0; round < 6; round++) {
      const p = await makeProject();
      const second = await p.member("owner");
      const first = await p.asOwner();
      const codes = await Promise.all([
        codeOf(first.members.changeRole({ project: p.project.slug, userId: second.user.id, role: "viewer" })),
        codeOf(second.members.changeRole({ project: p.project.slug, userId: p.owner.id, role: "viewer" })),
      ]);
      expectOneRefused(codes);
      expect(await prisma().membership.count({ where: { projectId: p.project.id, role: "owner" } })).toBe(1);
    }
  });

  it("two owners removing each other at the same moment leave one owner", async () => {
    for (let round = 0; round < 6; round++) {
      const p = await makeProject();
      const second = await p.member("owner");
      const first = await p.asOwner();
      const codes = await Promise.all([
        codeOf(first.members.remove({ project: p.project.slug, userId: second.user.id })),
        codeOf(second.members.remove({ project: p.project.slug, userId: p.owner.id })),
      ]);
      expectOneRefused(codes);
      expect(await prisma().membership.count({ where: { projectId: p.project.id, role: "owner" } })).toBe(1);
    }
  });
});
