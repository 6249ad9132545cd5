import { describe, expect, it } from "vitest";
import { makeProject, unique, withKey } from "../../test/fixtures";
import { prisma } from "../db/client";
import { appRouter } from "../routers/root";

/**
 * Walks EVERY procedure of the app router as a user (and an API key) of project A,
 * aimed at project B's ids. New procedures are covered without touching this test.
 */
async function snapshotOf(projectId: string) {
  const project = await prisma().project.findUniqueOrThrow({
    where: { id: projectId },
    select: {
      name: true,
      slug: true,
      memberships: { select: { userId: true, role: true }, orderBy: { userId: "asc" } },
      apiKeys: { select: { id: true, revokedAt: true, name: true }, orderBy: { id: "asc" } },
      tools: { select: { name: true, version: true }, orderBy: [{ name: "asc" }, { version: "asc" }] },
      alertRules: { select: { id: true, name: true, enabled: true, threshold: true }, orderBy: { id: "asc" } },
      incidents: { select: { id: true, state: true }, orderBy: { id: "asc" } },
      webhooks: { select: { id: true, url: true, enabled: true }, orderBy: { id: "asc" } },
      _count: { select: { calls: true } },
    },
  });
  return JSON.stringify(project);
}

const procedures = Object.entries(appRouter._def.procedures as Record<string, unknown>);

describe("tenancy", () => {
  it("the router has procedures to walk", () => {
    expect(procedures.length).toBeGreaterThan(10);
  });

  for (const [as, makeCaller] of [
    ["a signed-in owner of A", async (a: Awaited<ReturnType<typeof makeProject>>) => a.asOwner()],
    ["an API key of A", async (a: Awaited<ReturnType<typeof makeProject>>) => withKey((await a.key()).key)],
    ["a read API key of A", async (a: Awaited<ReturnType<typeof makeProject>>) => withKey((await a.key("ci", "read")).key)],
  ] as const) {
    it(`${as} can neither read nor change anything of project B through any procedure`, async () => {
      const a = await makeProject();
      const b = await makeProject();
      const bKey = await b.key("b's harness");
      const bOwner = await b.asOwner();
      const bHook = await bOwner.webhooks.create({ project: b.project.slug, name: "b's hook", url: "http://127.0.0.1:9/b-hook" });
      const bRule = await bOwner.alerts.createRule({
        project: b.project.slug,
        rule: { name: "b's rule", metric: "invalid_rate", condition: "threshold", threshold: 0.5, windowMinutes: 60 },
      });
      const secrets = [b.project.id, b.project.name, b.owner.email, b.owner.id, bKey.id, bKey.prefix, bHook.id, bHook.secret, bRule.id];
      const before = await snapshotOf(b.project.id);

      const input = {
        project: b.project.slug,
        keyId: bKey.id,
        id: bRule.id,
        enabled: false,
        userId: b.owner.id,
        name: "A was here",
        email: b.owner.email,
        role: "viewer",
        slug: unique("a-new"),
      };
      for (const [path] of procedures) {
        const caller = await makeCaller(a);
        const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
        const outcome = await fn(input).then(
          (data: unknown) => ({ data }),
          (error: { code: string }) => ({ error: error.code }),
        );
        if ("data" in outcome) {
          const text = JSON.stringify(outcome.data) ?? "";
          for (const secret of secrets) expect(text, `${path} leaked ${secret}`).not.toContain(secret);
        } else {
          expect(["UNAUTHORIZED", "FORBIDDEN", "BAD_REQUEST", "CONFLICT", "NOT_FOUND"], `${path} → ${outcome.error}`).toContain(outcome.error);
        }
      }
      expect(await snapshotOf(b.project.id)).toBe(before);
      // The walk calls every procedure for real, demo.openProject among them: it loads the demo
      // project's ~24,000 events for the signed-in user (about 8 s on a quiet machine, more under CI's load).
    }, 120_000);
  }
});
