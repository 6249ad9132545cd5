import { expect, it } from "vitest";
import { callerWith, makeProject, withKey } from "../../test/fixtures";

// More API keys do not buy a project more requests: all its keys share one bucket per
// minute beside each key's own (server/trpc/init.ts apiKeyWithinRate).
process.env.TOOLGATE_API_RATE_PER_MINUTE = "100";
process.env.TOOLGATE_PROJECT_RATE_PER_MINUTE = "5";

it("a project's keys together stop at the per-project rate; another project's key is unaffected", async () => {
  const p = await makeProject();
  const keys = await Promise.all([p.key("one"), p.key("two"), p.key("three")]);
  for (let i = 0; i < 5; i++) await expect(withKey(keys[i % 3]!.key).system.whoami()).resolves.toMatchObject({ project: p.project.slug });

  const caller = callerWith({ authorization: `Bearer ${keys[2]!.key}` });
  const refused = await caller.system.whoami().catch((e: { code: string; message: string }) => e);
  expect(refused).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  expect((refused as { message: string }).message).toMatch(
    new RegExp(
      `Rate limit of 5 requests a minute for all API keys of project "${p.project.slug}" together exceeded: retry after \\d+ s .*TOOLGATE_PROJECT_RATE_PER_MINUTE`,
    ),
  );
  expect(Number(caller.ctx.resHeaders.get("retry-after"))).toBeGreaterThanOrEqual(1);

  const other = await makeProject();
  await expect(withKey((await other.key()).key).system.whoami()).resolves.toMatchObject({ project: other.project.slug });
});
