import { expect, it } from "vitest";
import { DomainError } from "../../domain/errors";
import { takeProjectShare, withProjectShare } from "./shares";

process.env.TOOLGATE_PROJECT_HEAVY_CONCURRENCY = "2";
process.env.TOOLGATE_PROJECT_SHARE_WAIT_MS = "50";

const a = { id: "a", slug: "team-a" };
const b = { id: "b", slug: "team-b" };

it("a project runs at most its share at once; the next waits for a turn, then is refused with 429 and Retry-After", async () => {
  const first = await takeProjectShare(a, "ingest.batch");
  const second = await takeProjectShare(a, "ingest.batch");
  // another project is not affected by a's full share
  await expect(withProjectShare(b, "ingest.batch", async () => "b ran")).resolves.toBe("b ran");

  const refused = await takeProjectShare(a, "tools.dryRun").catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(DomainError);
  expect(refused).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 1 });
  expect((refused as Error).message).toMatch(/Project "team-a" already runs 2 heavy operations.*this tools\.dryRun waited 50 ms/);

  // a waiting request gets the turn a finished one gives back
  const waiting = takeProjectShare(a, "metrics.summary");
  first();
  first(); // giving a turn back twice counts once
  const third = await waiting;
  await expect(takeProjectShare(a, "CSV export")).rejects.toThrow(/already runs 2/);
  second();
  third();
  await expect(withProjectShare(a, "ingest.batch", async () => "again")).resolves.toBe("again");
});

it("a failing operation gives its turn back", async () => {
  for (let i = 0; i < 3; i++) await expect(withProjectShare(a, "tools.register", () => Promise.reject(new Error("bad schema")))).rejects.toThrow("bad schema");
  const one = await takeProjectShare(a, "x");
  const two = await takeProjectShare(a, "x");
  one();
  two();
});
