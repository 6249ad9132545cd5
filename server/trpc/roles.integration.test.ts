import { describe, expect, it } from "vitest";
import { codeOf, makeProject, makeUser, signedIn, withKey } from "../../test/fixtures";
import { prisma } from "../db/client";
import { appRouter } from "../routers/root";
import { openDemoProject } from "../services/demo/demo-project";
import { takeProjectShare } from "../services/tenancy/shares";

// One heavy operation at a time per project, and a short wait for a turn: the share tests below
// hold the one turn themselves.
process.env.TOOLGATE_PROJECT_HEAVY_CONCURRENCY = "1";
process.env.TOOLGATE_PROJECT_SHARE_WAIT_MS = "200";

const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, procedure]) => procedure._def.type === "mutation")
  .map(([path]) => path);

/**
 * The mutations that are not a project member's: each acts on the caller's own account, on a
 * project the call creates. Any other mutation needs a role in the project it names, or an
 * ingest API key of the project; a new one fails the first test until it is given its role
 * below or argued into this list.
 */
const NOT_PROJECT_ROLE: Record<string, string> = {
  "auth.setup": "creates the first admin, once",
  "auth.signIn": "signs the caller in",
  "auth.acceptInvitationAsNewAccount": "needs the invitation link's secret",
  "auth.signOut": "ends the caller's own session",
  "auth.changePassword": "the caller's own password",
  "projects.create": "a project of the caller's own",
  "members.accept": "needs the invitation link's secret",
  "members.decline": "needs the invitation link's secret",
  "demo.openProject": "the caller's own demo project (one they are admin or owner of, else a new one)",
};

/** The role every project mutation needs (the audit of issue 30: roles hold on every procedure that writes). */
const NEEDED_ROLE: Record<string, string> = {
  "projects.rename": "admin",
  "projects.setRetention": "admin",
  "projects.delete": "owner",
  "members.add": "owner",
  "members.revokeInvitation": "owner",
  "members.changeRole": "owner",
  "members.remove": "owner",
  "apiKeys.create": "admin",
  "apiKeys.revoke": "admin",
  "alerts.acknowledge": "member",
  "alerts.resolve": "member",
  "alerts.snooze": "member",
  "alerts.triage": "member",
  "alerts.silence": "member",
  "alerts.endSilence": "member",
  "alerts.createRule": "admin",
  "alerts.updateRule": "admin",
  "alerts.setRuleEnabled": "admin",
  "alerts.deleteRule": "admin",
  "alerts.evaluateNow": "admin",
  "webhooks.create": "admin",
  "webhooks.delete": "admin",
  "webhooks.sendTest": "admin",
  "tools.registerPasted": "admin",
  "tools.recheck": "admin",
  "tools.dryRunPage": "admin",
  "demo.load": "admin",
  "ingest.batch": "ingest key",
  "tools.register": "ingest key",
  "tools.validate": "ingest key",
  "tools.dryRun": "read key", // replays stored calls against a candidate schema: writes nothing
};

async function call(caller: object, path: string, input?: unknown) {
  const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input?: unknown) => Promise<unknown>;
  return fn(input);
}

describe("roles on every procedure that writes", () => {
  it("every mutation is either listed as not a project member's or needs a role above viewer (or an ingest key), and a viewer is refused each one", async () => {
    const p = await makeProject();
    const viewer = await p.member("viewer");
    const readKey = withKey((await p.key("ci", "read")).key);
    const before = await prisma().project.findUniqueOrThrow({ where: { id: p.project.id }, include: { _count: true } });
    const needed: Record<string, string> = {};
    for (const path of mutations.filter((m) => !(m in NOT_PROJECT_ROLE))) {
      const refusal = await call(viewer, path, { project: p.project.slug }).then(
        () => ({ code: "OK", message: "" }),
        (e: { code: string; message: string }) => e,
      );
      if (refusal.code === "UNAUTHORIZED" && refusal.message.startsWith("No API key")) {
        // a harness procedure: a session has no say; a read key only where it writes nothing
        needed[path] = (await codeOf(call(readKey, path, { project: p.project.slug }))) === "FORBIDDEN" ? "ingest key" : "read key";
        continue;
      }
      expect(refusal.code, `${path}: a viewer was not refused (${refusal.message})`).toBe("FORBIDDEN");
      needed[path] = /This needs the (\w+) role/.exec(refusal.message)?.[1] ?? refusal.message;
    }
    expect(needed).toEqual(NEEDED_ROLE);
    for (const path of Object.keys(NOT_PROJECT_ROLE)) expect(mutations, `${path} is listed but is no mutation`).toContain(path);
    expect(await prisma().project.findUniqueOrThrow({ where: { id: p.project.id }, include: { _count: true } })).toEqual(before);
  });

  it("demo.openProject by a viewer of someone else's demo project leaves it alone and opens a demo of the viewer's own", async () => {
    const owner = await makeUser();
    const theirs = await openDemoProject(owner.id, { now: new Date("2026-11-30T15:00:00Z"), days: 1, runsPerDay: 5 });
    const demo = await prisma().project.findUniqueOrThrow({ where: { slug: theirs.slug }, select: { id: true } });
    const viewerUser = await makeUser();
    await prisma().membership.create({ data: { userId: viewerUser.id, projectId: demo.id, role: "viewer" } });
    const snapshot = async () => ({
      calls: await prisma().toolCall.count({ where: { projectId: demo.id } }),
      tools: await prisma().toolDefinition.findMany({
        where: { projectId: demo.id },
        select: { name: true, version: true, firstSeenAt: true },
        orderBy: [{ name: "asc" }, { version: "asc" }],
      }),
    });
    const before = await snapshot();

    const mine = await (await signedIn(viewerUser.id)).demo.openProject();
    expect(mine).toMatchObject({ created: true });
    expect(mine.slug).not.toBe(theirs.slug);
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it("demo loads count against the project's share of heavy operations (429 while it is taken)", async () => {
    const p = await makeProject();
    const admin = await p.member("admin");
    const release = await takeProjectShare(p.project, "test");
    try {
      expect(await codeOf(admin.demo.load({ project: p.project.slug }))).toBe("TOO_MANY_REQUESTS");
    } finally {
      release();
    }

    const user = await makeUser();
    const own = await openDemoProject(user.id, { now: new Date("2026-11-30T15:00:00Z"), days: 1, runsPerDay: 5 });
    const ownRef = await prisma().project.findUniqueOrThrow({ where: { slug: own.slug }, select: { id: true, slug: true } });
    const releaseOwn = await takeProjectShare(ownRef, "test");
    try {
      expect(await codeOf((await signedIn(user.id)).demo.openProject())).toBe("TOO_MANY_REQUESTS");
    } finally {
      releaseOwn();
    }
  }, 120_000);
});
