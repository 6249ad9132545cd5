import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { EmbeddedServer } from "@/server/db/embedded";
import { startOwnPostgres } from "@/test/own-postgres";

// This file's own server, so that stopping it harms no other test.
let server: EmbeddedServer;
let dir: string;
beforeAll(async () => {
  ({ server, dir } = await startOwnPostgres("health"));
  process.env.DATABASE_URL = server.url("postgres");
});
afterAll(() => server.stop());

it("/api/health says down when the database is frozen (it accepts connections but answers nothing)", async () => {
  const { GET } = await import("./route");
  expect((await GET()).status).toBe(200);
  const postmaster = Number((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
  // the postmaster and every backend (the pool's open connections too)
  const frozen = [
    postmaster,
    ...execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number),
  ];
  for (const pid of frozen) process.kill(pid, "SIGSTOP");
  try {
    const answer = await GET();
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ database: "down" });
  } finally {
    for (const pid of frozen) process.kill(pid, "SIGCONT");
  }
  expect((await GET()).status, "up again once it answers").toBe(200);
});

it("/api/health answers 200 with the database up, and 503 with it down", async () => {
  const { GET } = await import("./route");
  const up = await GET();
  expect(up.status).toBe(200);
  expect(await up.json()).toEqual({ status: "ok", database: "up" });

  await server.stop();
  const down = await GET();
  expect(down.status).toBe(503);
  expect(await down.json()).toMatchObject({ database: "down" });
});
