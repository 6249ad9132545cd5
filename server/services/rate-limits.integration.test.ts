import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../test/fixtures";

// this file's worker reads the env afresh: a small per-key limit for both "instances" (two
// at once, then one every 30 s: the test is over long before a token comes back)
const PER_MINUTE = 2;
process.env.TOOLGATE_API_RATE_PER_MINUTE = String(PER_MINUTE);

/**
 * `count` calls of system.whoami with `key` through the app's own router, in a process of its
 * own: its own modules, its own connection pool, its own memory, the same database.
 */
const INSTANCE = `
  import { createContext } from "./server/trpc/init";
  import { createCaller } from "./server/routers/root";
  const [key, count] = [process.env.KEY, Number(process.env.COUNT)];
  const answers = [];
  for (let i = 0; i < count; i++) {
    const ctx = createContext({ headers: new Headers({ authorization: "Bearer " + key }) });
    answers.push(await createCaller(ctx).system.whoami().then(() => ({ ok: true }), (e) => ({ code: e.code, message: e.message, retryAfter: ctx.resHeaders.get("retry-after") })));
  }
  console.log(JSON.stringify(answers));
  process.exit(0);
`;

async function otherInstance(key: string, count: number) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", INSTANCE], {
    env: { ...process.env, KEY: key, COUNT: String(count) },
    cwd: process.cwd(),
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { ok?: true; code?: string; message?: string; retryAfter?: string }[];
}

describe("the per-key rate limit", () => {
  it("is one bucket for two app instances on the same database", async () => {
    const { project, key } = await makeProject().then(async (p) => ({ project: p.project, key: (await p.key()).key }));
    // this process takes one of the two tokens
    expect(await withKey(key).system.whoami()).toEqual({ project: project.slug, scope: "ingest" });
    // a second instance gets the one that is left, then the limit's answer
    const answers = await otherInstance(key, 3);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    const refused = answers.filter((a) => !a.ok);
    expect(refused).toHaveLength(2);
    for (const answer of refused) {
      expect(answer).toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
      expect(answer.message).toMatch(new RegExp(`Rate limit of ${PER_MINUTE} requests a minute for this API key exceeded: retry after \\d+ s`));
    }
    // and back here, the bucket is empty too
    const here = withKey(key);
    await expect(here.system.whoami()).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(Number(here.ctx.resHeaders.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
