import { describe, expect, it } from "vitest";
import { codeOf, makeProject } from "../../test/fixtures";
import { prisma } from "../db/client";
import { createCaller } from "../routers/root";
import { createSession, SESSION_COOKIE } from "../services/auth/sessions";
import { createContext } from "./init";

// A page's caller (server/page-session.ts pageCaller, `shareAuth`) reads the session and the
// membership once for all its queries; a mutation reads them afresh and forgets them.

async function signedInCallers() {
  const p = await makeProject();
  const { token } = await createSession(p.owner.id);
  const headers = () => new Headers({ cookie: `${SESSION_COOKIE}=${token}` });
  return {
    ...p,
    token,
    page: createCaller(createContext({ headers: headers(), shareAuth: true })),
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
});
