import { TRPCError } from "@trpc/server";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { callerWith, makeProject, makeUser, signedIn, TEST_PASSWORD, unique, withKey } from "../../../test/fixtures";
import { prisma } from "../../db/client";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "OK",
    (e: TRPCError) => e.code,
  );

describe("sign-in and sessions", () => {
  it("a session cookie stops working after sign-out", async () => {
    const user = await makeUser();
    const anonymous = callerWith();
    await anonymous.auth.signIn({ email: user.email, password: TEST_PASSWORD });
    const cookie = anonymous.ctx.resHeaders.get("set-cookie")!;
    expect(cookie).toMatch(/^tg_session=[\w-]{20,}; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    expect(cookie).not.toMatch(/Secure/); // plain http here; https adds Secure

    const session = callerWith({ cookie: cookie.split(";")[0]! });
    expect(await session.projects.list()).toEqual([]);
    await session.auth.signOut();
    expect(session.ctx.resHeaders.get("set-cookie")).toMatch(/Max-Age=0/);
    expect(await codeOf(session.projects.list())).toBe("UNAUTHORIZED");
  });

  it("marks the cookie Secure behind https", async () => {
    const user = await makeUser();
    const caller = callerWith({ "x-forwarded-proto": "https" });
    await caller.auth.signIn({ email: user.email, password: TEST_PASSWORD });
    expect(caller.ctx.resHeaders.get("set-cookie")).toMatch(/; Secure/);
  });

  it("says 'wrong email or password' for both, and slows repeated failures down", async () => {
    const user = await makeUser();
    const caller = callerWith();
    await expect(callerWith().auth.signIn({ email: "nobody@example.test", password: "x" })).rejects.toThrow("Wrong email or password.");
    for (let i = 0; i < 5; i++) {
      await expect(caller.auth.signIn({ email: user.email, password: "wrong password" })).rejects.toThrow("Wrong email or password.");
    }
    const slowed = caller.auth.signIn({ email: user.email, password: TEST_PASSWORD });
    await expect(slowed).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(caller.ctx.resHeaders.get("retry-after")).toMatch(/^\d+$/);
    // the same account from another address is slowed too (per account)
    await expect(callerWith().auth.signIn({ email: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });
});

describe("roles", () => {
  it("a viewer reads but cannot do what needs a member, an admin or an owner", async () => {
    const { project } = await makeProject();
    const viewer = await project_member(project.slug, "viewer");
    expect(await viewer.projects.get({ project: project.slug })).toMatchObject({ slug: project.slug, role: "viewer" });
    expect(await codeOf(viewer.apiKeys.create({ project: project.slug, name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.apiKeys.list({ project: project.slug }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.projects.rename({ project: project.slug, name: "hacked" }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.members.add({ project: project.slug, email: "x@example.test", role: "owner" }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.projects.delete({ project: project.slug }))).toBe("FORBIDDEN");
    expect((await prisma().project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe(project.name);
  });

  it("an admin manages keys but not members; an owner manages members and keeps at least one owner", async () => {
    const p = await makeProject();
    const admin = await p.member("admin");
    const key = await admin.apiKeys.create({ project: p.project.slug, name: "harness" });
    expect(key.key).toMatch(/^tg_[a-z0-9]{10}_[\w-]{43}$/);
    expect(await codeOf(admin.members.add({ project: p.project.slug, email: "y@example.test", role: "viewer" }))).toBe("FORBIDDEN");

    const owner = await p.asOwner();
    const added = await owner.members.add({ project: p.project.slug, email: `${unique("new")}@example.test`, role: "member" });
    expect(added.oneTimePassword).toMatch(/^[\w-]{16}$/);
    await expect(owner.members.remove({ project: p.project.slug, userId: p.owner.id })).rejects.toThrow(/at least one owner/);
    await owner.members.changeRole({ project: p.project.slug, userId: added.userId, role: "viewer" });
    const members = await owner.members.list({ project: p.project.slug });
    expect(members.find((m) => m.id === added.userId)).toMatchObject({ role: "viewer", invitePending: true });
  });

  it("an invited account can do nothing through the API but choose its own password", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const added = await owner.members.add({ project: p.project.slug, email: `${unique("invited")}@example.test`, role: "member" });
    const invited = await signedIn(added.userId);
    await expect(invited.projects.list()).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/temporary password.*\/account\/password/),
    });
    await expect(
      invited.metrics.totals({ project: p.project.slug, range: { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await invited.auth.changePassword({ current: added.oneTimePassword!, next: "a password of my own, long enough" });
    expect(JSON.stringify(await invited.projects.list())).toContain(p.project.slug);
  });
});

describe("API keys", () => {
  it("are stored only as a hash: no text column of any table holds the key", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const secret = key.split("_").slice(2).join("_");
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'USER-DEFINED')`,
      );
      expect(columns.length).toBeGreaterThan(10);
      for (const { table_name, column_name } of columns) {
        const { rows } = await client.query(`SELECT 1 FROM "${table_name}" WHERE "${column_name}"::text LIKE $1 LIMIT 1`, [`%${secret}%`]);
        expect(rows, `${table_name}.${column_name}`).toHaveLength(0);
      }
    } finally {
      await client.end();
    }
  });

  it("are refused with UNAUTHORIZED when missing, malformed, unknown or revoked, and work until revoked", async () => {
    const p = await makeProject();
    const { key, id } = await p.key();
    expect(await codeOf(callerWith().system.whoami())).toBe("UNAUTHORIZED");
    expect(await codeOf(withKey("sk-not-ours").system.whoami())).toBe("UNAUTHORIZED");
    expect(await codeOf(withKey(key.slice(0, -2) + "xx").system.whoami())).toBe("UNAUTHORIZED");
    expect(await withKey(key).system.whoami()).toEqual({ project: p.project.slug, scope: "ingest" });
    await (await p.asOwner()).apiKeys.revoke({ project: p.project.slug, keyId: id });
    await expect(withKey(key).system.whoami()).rejects.toThrow(/revoked/);
  });

  it("a key of project A naming project B is FORBIDDEN", async () => {
    const a = await makeProject();
    const b = await makeProject();
    const { key } = await a.key();
    expect(await codeOf(withKey(key).system.whoami({ project: b.project.slug }))).toBe("FORBIDDEN");
  });
});

async function project_member(slug: string, role: "viewer" | "member" | "admin") {
  const user = await makeUser();
  const project = await prisma().project.findUniqueOrThrow({ where: { slug } });
  await prisma().membership.create({ data: { userId: user.id, projectId: project.id, role } });
  return signedIn(user.id);
}
