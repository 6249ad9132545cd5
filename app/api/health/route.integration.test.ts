import { afterAll, beforeAll, expect, it } from "vitest";
import type { EmbeddedServer } from "@/server/db/embedded";
import { startOwnPostgres } from "@/test/own-postgres";

// This file's own server, so that stopping it harms no other test.
let server: EmbeddedServer;
beforeAll(async () => {
  ({ server } = await startOwnPostgres("health"));
  process.env.DATABASE_URL = server.url("postgres");
});
afterAll(() => server.stop());

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
