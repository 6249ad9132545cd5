import { expect, it } from "vitest";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { Reporter } from "../src/index";

// 60 requests a minute per key: a drained bucket answers 429 with Retry-After: 1 (this file's server only).
process.env.TOOLGATE_API_RATE_PER_MINUTE = "60";

const server = httpAppForTests();

it("the reporter waits as long as the server's Retry-After says after a 429, then sends the event once", async () => {
  const p = await makeProject();
  const { key } = await p.key();
  // drain the key's bucket (60, refilled at one a second) at once
  const whoami = () => fetch(`${server.app.url}/api/trpc/system.whoami`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
  expect(await Promise.all(Array.from({ length: 70 }, whoami))).toContain(429);
  const answers: { status: number; retryAfter: string | null; at: number }[] = [];
  const observed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    answers.push({ status: response.status, retryAfter: response.headers.get("retry-after"), at: Date.now() });
    return response;
  };
  const reporter = new Reporter({ url: server.app.url, apiKey: key, fetch: observed, retryDelayMs: 10 });
  reporter.record({ id: "rl-1", runId: "r", timestamp: new Date().toISOString(), model: { name: "m" }, tool: "t", arguments: {} });
  await reporter.flush();
  expect(answers.map((a) => [a.status, a.retryAfter])).toEqual([
    [429, "1"],
    [200, null],
  ]);
  // the retry came after the server's 1 s, not after the 10 ms backoff
  expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(1000);
  expect(await reporter.shutdown()).toMatchObject({ sent: 1, retried: 1, dropped: 0 });
});
