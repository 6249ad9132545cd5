import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { callerWith, makeProject, makeUser, signedIn, unique } from "../../../test/fixtures";
import { prisma } from "../../db/client";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "OK",
    (e: TRPCError) => e.code,
  );

const tokenOf = (invited: { path: string }) => invited.path.replace("/invite/", "");

/** A new account made through an invitation link, and a caller with the session cookie it set. */
async function joinAsNewAccount(token: string, email: string, password = "a password of my own") {
  const anonymous = callerWith();
  const joined = await anonymous.auth.acceptInvitationAsNewAccount({ token, email, password });
  return { joined, caller: callerWith({ cookie: anonymous.ctx.resHeaders.get("set-cookie")!.split(";")[0]! }) };
}

describe("pre-claiming an address (issue 20, finding 3)", () => {
  it("an attacker holding an account with the invited address ends without access to another team's project", async () => {
    const victim = await makeProject();
    const attacker = await makeProject();
    const cfo = `${unique("cfo")}@corp.test`;
    const attackerOwner = await attacker.asOwner();
    // the attacker invites the address into a project of their own and takes the account with it
    const bait = await attackerOwner.members.add({ project: attacker.project.slug, email: cfo, role: "viewer" });
    const { caller: asCfo } = await joinAsNewAccount(tokenOf(bait), cfo);
    // …and keeps it: a project of its own, so that removal from the bait project does not delete it
    await asCfo.projects.create({ name: "cover", slug: unique("cover") });
    await attackerOwner.members.remove({ project: attacker.project.slug, userId: (await prisma().user.findUniqueOrThrow({ where: { email: cfo } })).id });

    // the real owner of another project invites the real person as admin and hands them the link
    const real = await (await victim.asOwner()).members.add({ project: victim.project.slug, email: cfo, role: "admin" });
    // the attacker, signed in as the address, has no way in: a link is needed, and guessing one fails
    expect(await codeOf(asCfo.members.accept({ token: "x".repeat(43) }))).toBe("NOT_FOUND");
    expect(await codeOf(asCfo.apiKeys.create({ project: victim.project.slug, name: "stolen" }))).toBe("FORBIDDEN");
    expect(JSON.stringify(await asCfo.projects.list())).not.toContain(victim.project.slug);

    // the real person holds the link: the address is taken, so they join with an address of their own
    await expect(joinAsNewAccount(tokenOf(real), cfo)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("choose another address") });
    const { joined, caller: realCfo } = await joinAsNewAccount(tokenOf(real), `${unique("cfo-real")}@corp.test`);
    expect(joined).toEqual({ project: victim.project.slug, role: "admin" });
    expect(await codeOf(realCfo.apiKeys.create({ project: victim.project.slug, name: "ci" }))).toBe("OK");
    // a link opens once
    expect(await codeOf(asCfo.members.accept({ token: tokenOf(real) }))).toBe("NOT_FOUND");
    expect(JSON.stringify(await asCfo.projects.list())).not.toContain(victim.project.slug);
  });
});

describe("invitation links", () => {
  it("an existing account joins only with the link, whatever its address; the owner's list shows the expiry", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const someone = await makeUser();
    const invited = await owner.members.add({ project: p.project.slug, email: someone.email, role: "member" });
    expect(invited.path).toMatch(/^\/invite\/[\w-]{43}$/);
    const days = (invited.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect(await owner.members.invitations({ project: p.project.slug })).toEqual([
      { email: someone.email, role: "member", createdAt: expect.any(Date), expiresAt: invited.expiresAt, expired: false },
    ]);
    // only the hash is stored
    const row = await prisma().invitation.findFirstOrThrow({ where: { projectId: p.project.id } });
    expect(JSON.stringify(row)).not.toContain(tokenOf(invited));

    const asSomeone = await signedIn(someone.id);
    expect(await asSomeone.projects.list()).toEqual([]);
    expect(await callerWith().members.invitation({ token: tokenOf(invited) })).toMatchObject({ project: { slug: p.project.slug }, role: "member" });
    // another account holding the link may accept it: the link is the proof, not the address
    const other = await makeUser();
    expect(await (await signedIn(other.id)).members.accept({ token: tokenOf(invited) })).toEqual({ project: p.project.slug, role: "member" });
    expect(await asSomeone.projects.list()).toEqual([]);
    expect(await owner.members.invitations({ project: p.project.slug })).toEqual([]);
  });

  it("an expired, revoked or replaced link opens nothing", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const user = await signedIn((await makeUser()).id);
    const email = `${unique("late")}@example.test`;
    const old = await owner.members.add({ project: p.project.slug, email, role: "viewer" });
    const replaced = await owner.members.add({ project: p.project.slug, email, role: "admin" });
    await expect(user.members.accept({ token: tokenOf(old) })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("not valid") });

    await prisma().invitation.updateMany({ where: { projectId: p.project.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await owner.members.invitations({ project: p.project.slug }))[0]!.expired).toBe(true);
    await expect(user.members.accept({ token: tokenOf(replaced) })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("expired") });
    await expect(joinAsNewAccount(tokenOf(replaced), email)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await prisma().user.count({ where: { email } })).toBe(0);

    const fresh = await owner.members.add({ project: p.project.slug, email, role: "viewer" });
    await owner.members.revokeInvitation({ project: p.project.slug, email });
    expect(await codeOf(user.members.accept({ token: tokenOf(fresh) }))).toBe("NOT_FOUND");
    expect((await owner.members.list({ project: p.project.slug })).map((m) => m.id)).toEqual([p.owner.id]);
  });

  it("an account made by a link and used nowhere else goes when its member is removed; one with other projects stays", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const once = await owner.members.add({ project: p.project.slug, email: `${unique("once")}@example.test`, role: "member" });
    const { caller: onceCaller } = await joinAsNewAccount(tokenOf(once), once.email);
    const kept = await owner.members.add({ project: p.project.slug, email: `${unique("kept")}@example.test`, role: "member" });
    const { caller: keptCaller } = await joinAsNewAccount(tokenOf(kept), kept.email);
    await keptCaller.projects.create({ name: "mine", slug: unique("mine") });

    const idOf = async (email: string) => (await owner.members.list({ project: p.project.slug })).find((m) => m.email === email)!.id;
    await owner.members.remove({ project: p.project.slug, userId: await idOf(once.email) });
    await owner.members.remove({ project: p.project.slug, userId: await idOf(kept.email) });
    expect(await prisma().user.count({ where: { email: once.email } })).toBe(0);
    expect(await codeOf(onceCaller.projects.list()), "its sessions went with it").toBe("UNAUTHORIZED");
    expect(await prisma().user.count({ where: { email: kept.email } })).toBe(1);
    expect(await keptCaller.projects.list()).toHaveLength(1);
    // an account that existed before it was invited is never deleted by a removal
    const existing = await makeUser();
    const invited = await owner.members.add({ project: p.project.slug, email: existing.email, role: "viewer" });
    await (await signedIn(existing.id)).members.accept({ token: tokenOf(invited) });
    await owner.members.remove({ project: p.project.slug, userId: existing.id });
    expect(await prisma().user.count({ where: { id: existing.id } })).toBe(1);
  });
});
