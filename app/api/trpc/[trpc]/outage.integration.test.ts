import { afterAll, beforeAll, expect, it } from "vitest";
import type { EmbeddedServer } from "@/server/db/embedded";
import { applyMigrations } from "@/server/db/migrate";
import { makeEvent } from "@/test/events";
import { makeProject } from "@/test/fixtures";
import { startOwnPostgres } from "@/test/own-postgres";

// This file's own PostgreSQL, so that stopping it harms no other test.
let server: EmbeddedServer;
beforeAll(async () => {
  ({ server } = await startOwnPostgres("outage"));
  process.env.DATABASE_URL = server.url("postgres");
  await applyMigrations(server.url("postgres"));
});
afterAll(() => server.stop());

const batch = (key: string) =>
  new Request("http://localhost/api/trpc/ingest.batch", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ events: [makeEvent()] }),
  });

it("ingest.batch, /v1/traces and /v1/logs answer 503 with Retry-After and say the store is unavailable while PostgreSQL is down", async () => {
  const { POST } = await import("./route");
  const traces = await import("../../../v1/traces/route");
  const logs = await import("../../../v1/logs/route");
  const p = await makeProject();
  const { key } = await p.key();
  const up = await POST(batch(key));
  expect(up.status).toBe(200);
  expect((await up.json()).result.data.accepted).toBe(1);

  await server.stop();
  const down = await POST(batch(key));
  expect(down.status).toBe(503);
  expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = await down.json();
  expect(body.error.data.code).toBe("SERVICE_UNAVAILABLE");
  expect(body.error.message).toMatch(/unavailable.*Retry after/);

  // the OTLP endpoint: the same answer in OTLP's shape, so that exporters retry
  const spans = await traces.POST(
    new Request("http://localhost/v1/traces", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ resourceSpans: [] }),
    }),
  );
  expect(spans.status).toBe(503);
  expect(Number(spans.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await spans.json()).message).toMatch(/unavailable.*Retry after/);
  const records = await logs.POST(
    new Request("http://localhost/v1/logs", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/x-protobuf" },
      body: new Uint8Array(),
    }),
  );
  expect(records.status).toBe(503);
  expect(records.headers.get("content-type")).toBe("application/x-protobuf");
  expect(Number(records.headers.get("retry-after"))).toBeGreaterThan(0);
});
