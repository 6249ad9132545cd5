import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { callerWith, codeOf, makeProject, makeUser, signedIn, TEST_PASSWORD, unique, withKey } from "../../../test/fixtures";
import { SIGN_IN_LIMITS, UNKNOWN_ADDRESS } from "../../domain/throttle";
import { prisma } from "../../db/client";
import { createContext } from "../../trpc/init";
import { createCaller } from "../../routers/root";
import { addMember } from "./accounts";
import { membership } from "../projects";
import { createSession, userForSession } from "./sessions";
import { sweepExpiredBuckets } from "../rate-limits";

/** A caller behind one trusted proxy that saw the client at `address`. */
const fromAddress = (address: string, headers: Record<string, string> = {}) =>
  createCaller(createContext({ headers: new Headers({ "x-forwarded-for": `6.6.6.6, ${address}`, ...headers }), trustedProxies: 1 }));
const randomAddress = () => `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;

/** How many attempts were checked (wrong password) and how many were turned away before that. */
async function outcomes(attempts: Promise<unknown>[]) {
  const codes = await Promise.all(attempts.map((a) => codeOf(a)));
  return { checked: codes.filter((c) => c === "UNAUTHORIZED").length, refused: codes.filter((c) => c === "TOO_MANY_REQUESTS").length, total: codes.length };
}

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

  it("a session answers its user until it expires (one joined read), and membership its role in a project by slug", async () => {
    const { owner, project } = await makeProject();
    const other = await makeProject();
    const { token } = await createSession(owner.id);
    const user = await prisma().user.findUniqueOrThrow({ where: { id: owner.id }, select: { id: true, email: true, name: true, mustChangePassword: true } });
    expect(await userForSession(token)).toEqual(user); // exactly the user's fields, nothing of the session
    expect(await userForSession(`${token}x`)).toBeNull();
    expect(await userForSession(undefined)).toBeNull();
    await prisma().session.updateMany({ where: { userId: owner.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await userForSession(token)).toBeNull();

    expect(await membership(owner.id, project.slug)).toEqual({ role: "owner", project });
    expect(await membership(owner.id, other.project.slug)).toBeNull();
    expect(await membership(owner.id, `${project.slug}-none`)).toBeNull();
  });

  it("marks the cookie Secure behind a trusted https proxy, not for a client's own X-Forwarded-Proto", async () => {
    const user = await makeUser();
    const behindProxy = fromAddress(randomAddress(), { "x-forwarded-proto": "https" });
    await behindProxy.auth.signIn({ email: user.email, password: TEST_PASSWORD });
    const withProxy = createContext({ headers: new Headers({ "x-forwarded-proto": "https" }), trustedProxies: 1 });
    expect(withProxy.secure).toBe(true);
    const direct = createContext({ headers: new Headers({ "x-forwarded-proto": "https" }), trustedProxies: 0 });
    expect(direct.secure, "no proxy is trusted: the header is the client's").toBe(false);
  });

  it("says 'wrong email or password' for both, and slows repeated failures down", async () => {
    const user = await makeUser();
    const caller = callerWith();
    await expect(callerWith().auth.signIn({ email: "nobody@example.test", password: "x" })).rejects.toThrow("Wrong email or password.");
    for (let i = 0; i < 5; i++) {
      await expect(caller.auth.signIn({ email: user.email, password: "wrong password" })).rejects.toThrow("Wrong email or password.");
    }
    const slowed = caller.auth.signIn({ email: user.email, password: TEST_PASSWORD });
    await expect(slowed).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringMatching(/for this account: try again in \d+ s/) });
    expect(caller.ctx.resHeaders.get("retry-after")).toMatch(/^\d+$/);
    // the same account from another address is slowed too (per account)
    await expect(callerWith().auth.signIn({ email: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });
});

describe("sign-in throttling, atomic and in PostgreSQL", () => {
  it("a parallel burst of 60 wrong passwords against one account (from 60 addresses) gets only the account's attempts checked", async () => {
    const user = await makeUser();
    const burst = await outcomes(Array.from({ length: 60 }, () => fromAddress(randomAddress()).auth.signIn({ email: user.email, password: "guess" })));
    expect(burst).toEqual({ checked: SIGN_IN_LIMITS.account.capacity, refused: 60 - SIGN_IN_LIMITS.account.capacity, total: 60 });
    // and the right password is turned away too until the bucket refills
    await expect(fromAddress(randomAddress()).auth.signIn({ email: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("a parallel burst from one address across 60 accounts gets only the address's attempts checked", async () => {
    const address = randomAddress();
    const burst = await outcomes(
      Array.from({ length: 60 }, (_, i) => fromAddress(address).auth.signIn({ email: `${unique(`spray${i}`)}@example.test`, password: "guess" })),
    );
    expect(burst).toEqual({ checked: SIGN_IN_LIMITS.address.capacity, refused: 60 - SIGN_IN_LIMITS.address.capacity, total: 60 });
    const refused = fromAddress(address).auth.signIn({ email: "someone-else@example.test", password: "x" });
    await expect(refused).rejects.toThrow(/from your address: try again in \d+ s/);
  });

  it("X-Forwarded-For counts only behind a trusted proxy: forged addresses all land in one bucket", async () => {
    const forged = [randomAddress(), randomAddress()];
    const callers = forged.map((address) => callerWith({ "x-forwarded-for": address }));
    for (const caller of callers) expect(caller.ctx.address).toBe(UNKNOWN_ADDRESS);
    for (const caller of callers)
      await expect(caller.auth.signIn({ email: `${unique("xff")}@example.test`, password: "x" })).rejects.toThrow("Wrong email or password.");
    const keys = (await prisma().rateLimit.findMany({ where: { key: { startsWith: "signin:address:" } }, select: { key: true } })).map((r) => r.key);
    expect(keys).toContain(`signin:address:${UNKNOWN_ADDRESS}`);
    for (const address of forged) expect(keys).not.toContain(`signin:address:${address}`);
    // trusted: the proxy's entry (the last one), never the one the client wrote first
    expect(createContext({ headers: new Headers({ "x-forwarded-for": `1.2.3.4, ${forged[0]}` }), trustedProxies: 1 }).address).toBe(forged[0]);
  });

  it("buckets that are full again are swept", async () => {
    const key = `signin:account:${unique("old")}@example.test`;
    await prisma().rateLimit.create({
      data: { key, tokens: 0, capacity: 5, perMinute: 1, allowed: false, updatedAt: new Date(Date.now() - 3_600_000), expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await sweepExpiredBuckets()).toBeGreaterThanOrEqual(1);
    expect(await prisma().rateLimit.count({ where: { key } })).toBe(0);
  });
});

describe("password changes", () => {
  it("end the user's other sessions and keep the current one", async () => {
    const user = await makeUser();
    const [current, laptop, phone] = [await signedIn(user.id), await signedIn(user.id), await signedIn(user.id)];
    const other = await signedIn((await makeUser()).id);
    await current.auth.changePassword({ current: TEST_PASSWORD, next: "a brand new password, long enough" });
    expect(await current.projects.list()).toEqual([]);
    expect(await codeOf(laptop.projects.list())).toBe("UNAUTHORIZED");
    expect(await codeOf(phone.projects.list())).toBe("UNAUTHORIZED");
    expect(await other.projects.list()).toEqual([]);
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
    const member = await makeUser();
    const added = await owner.members.add({ project: p.project.slug, email: member.email, role: "member" });
    await (await signedIn(member.id)).members.accept({ token: added.path.replace("/invite/", "") });
    await expect(owner.members.remove({ project: p.project.slug, userId: p.owner.id })).rejects.toThrow(/at least one owner/);
    await owner.members.changeRole({ project: p.project.slug, userId: member.id, role: "viewer" });
    const members = await owner.members.list({ project: p.project.slug });
    expect(members.find((m) => m.id === member.id)).toMatchObject({ role: "viewer" });
  });

  it("an account the ops CLI made with a one-time password can do nothing through the API but choose its own password", async () => {
    const p = await makeProject();
    const added = await addMember(p.project.id, `${unique("added")}@example.test`, "member");
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
