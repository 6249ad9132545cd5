import { describe, expect, it } from "vitest";
import { codeOf, makeProject } from "../../test/fixtures";
import { prisma } from "../db/client";
import { createCaller } from "../routers/root";
import { createSession, SESSION_COOKIE } from "../services/auth/sessions";
import { contextMembership, contextUser, createContext } from "./init";

// A page's caller (server/page-session.ts pageCaller, `shareAuth`) reads the session and the
// membership once for all its queries; a mutation reads them afresh and forgets them.

async function signedInCallers() {
  const p = await makeProject();
  const { token } = await createSession(p.owner.id);
  const headers = () => new Headers({ cookie: `${SESSION_COOKIE}=${token}` });
  const pageContext = createContext({ headers: headers(), shareAuth: true });
  return {
    ...p,
    token,
    pageContext,
    page: createCaller(pageContext),
    api: createCaller(createContext({ headers: headers() })),
  };
}

const endSessions = (userId: string) => prisma().session.deleteMany({ where: { userId } });

describe("a page's caller", () => {
  it("reads the session once for its queries: a session ended after its first query still answers the page's next ones, never another request's", async () => {
    const { page, api, project, owner } = await signedInCallers();
    const slug = project.slug;
    expect(await page.projects.get({ project: slug })).toMatchObject({ slug, role: "owner" });
    expect(await api.projects.get({ project: slug })).toMatchObject({ slug });
    await endSessions(owner.id);
    // the same render: what its first query read
    expect(await page.projects.get({ project: slug })).toMatchObject({ slug, role: "owner" });
    expect(await page.projects.list()).toEqual([expect.objectContaining({ slug })]);
    // a caller without shareAuth (an API request) reads the session each time
    expect(await codeOf(api.projects.get({ project: slug }))).toBe("UNAUTHORIZED");
    // a mutation reads it afresh, and the page's later queries too
    expect(await codeOf(page.projects.create({ name: "Other", slug: `${slug}-x` }))).toBe("UNAUTHORIZED");
    expect(await codeOf(page.projects.get({ project: slug }))).toBe("UNAUTHORIZED");
  });

  it("keeps a membership per project: a project the user is not a member of stays forbidden", async () => {
    const { page, project } = await signedInCallers();
    const other = await makeProject();
    expect(await page.projects.get({ project: project.slug })).toMatchObject({ role: "owner" });
    expect(await codeOf(page.projects.get({ project: other.project.slug }))).toBe("FORBIDDEN");
    expect(await codeOf(page.projects.get({ project: other.project.slug }))).toBe("FORBIDDEN");
    expect(await page.projects.get({ project: project.slug })).toMatchObject({ role: "owner" });
  });

  it("shares requireProject's reads (contextUser, contextMembership): the page's queries read neither again", async () => {
    const { page, pageContext, project, owner } = await signedInCallers();
    const other = await makeProject();
    // what server/page-session.ts requireProject reads, through the page's context
    expect(await contextUser(pageContext)).toMatchObject({ id: owner.id });
    expect(await contextMembership(pageContext, owner.id, project.slug)).toMatchObject({ role: "owner", project: { slug: project.slug } });
    expect(await contextMembership(pageContext, owner.id, other.project.slug)).toBeNull();
    // the session and the membership end: the page's queries still answer from what requireProject read
    await endSessions(owner.id);
    await prisma().membership.deleteMany({ where: { userId: owner.id } });
    expect(await page.projects.get({ project: project.slug })).toMatchObject({ slug: project.slug, role: "owner" });
    // a project it found no membership of stays forbidden
    expect(await codeOf(page.projects.get({ project: other.project.slug }))).toBe("FORBIDDEN");
    // a context without shareAuth keeps nothing: each read is a read
    const api = createContext({ headers: new Headers({ cookie: pageContext.headers.get("cookie")! }) });
    expect(await contextUser(api)).toBeNull();
  });
});
