import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createFreshDatabase, type TestServer } from "../../scripts/lib/test-database";
import { makeEvent } from "../../test/events";
import { writeCalls, type PreparedCall } from "../services/ingest/write-calls";
import { ROLLUPS_FROM_CALLS } from "../services/rollups/rebuild";
import { recomputeStaleDays } from "../services/rollups/coarse";
import { applyMigrations, createMigration, defaultPrismaPaths, diffMigrationsToSchema } from "./migrate";

// The server of the run's shared database; each test here makes its own database on it.
const server: TestServer = {
  urlFor: (database) => Object.assign(new URL(inject("postgresAdminUrl")), { pathname: `/${database}` }).toString(),
  stop: async () => {},
};
const dropAfter: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of dropAfter) await drop();
});

async function emptyDatabase() {
  const database = await createFreshDatabase(server, "migrate_test", false);
  dropAfter.push(database.drop);
  return database.url;
}

async function tables(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client
    .query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
    .finally(() => client.end());
  return rows.map((r) => r.table_name);
}

/**
 * A fresh database migrated up to `migration` (not including it), to put rows in as they were
 * before it: `applyRest` applies it and the later ones (`rest`), `close` ends the client.
 */
async function databaseBefore(migration: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-prisma-"));
  await cp(path.dirname(defaultPrismaPaths.schemaPath), dir, { recursive: true });
  const before = { schemaPath: path.join(dir, "schema.prisma"), migrationsDir: path.join(dir, "migrations") };
  const all = (await readdir(before.migrationsDir)).filter((m) => /^\d/.test(m)).sort();
  const rest = all.slice(all.indexOf(migration));
  expect(rest[0]).toBe(migration);
  for (const m of rest) await rm(path.join(before.migrationsDir, m), { recursive: true });
  const url = await emptyDatabase();
  await applyMigrations(url, before);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    client,
    rest,
    applyRest: () => applyMigrations(url),
    close: async () => {
      await client.end();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// Every test has databases of its own: they run side by side (mostly waiting on PostgreSQL).
describe.concurrent("migrations", () => {
  it("apply on an empty database, then are a no-op the second time", async () => {
    const url = await emptyDatabase();
    const migrationNames = (await readdir(defaultPrismaPaths.migrationsDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();

    expect(await applyMigrations(url)).toEqual(migrationNames);
    expect(await tables(url)).toEqual(expect.arrayContaining(["_prisma_migrations", "tool_calls", "call_rollups_hourly", "users"]));
    expect(await applyMigrations(url)).toEqual([]);
  });

  it("agree with schema.prisma", async () => {
    expect(await diffMigrationsToSchema(await emptyDatabase())).toBe("");
  });

  describe("on a copy of prisma/ with a model added to schema.prisma", () => {
    let paths: typeof defaultPrismaPaths;
    beforeAll(async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-prisma-"));
      await cp(path.dirname(defaultPrismaPaths.schemaPath), dir, { recursive: true });
      paths = { schemaPath: path.join(dir, "schema.prisma"), migrationsDir: path.join(dir, "migrations") };
      const schema = await readFile(paths.schemaPath, "utf8");
      await writeFile(paths.schemaPath, `${schema}\nmodel DriftProbe {\n  id Int @id\n  @@map("drift_probe")\n}\n`);
    });

    it("the agreement check fails and names the missing table", async () => {
      expect(await diffMigrationsToSchema(await emptyDatabase(), paths)).toMatch(/CREATE TABLE "drift_probe"/);
    });

    it("db:migration writes the missing migration, after which there are no changes", async () => {
      const url = await emptyDatabase();
      const dir = await createMigration(url, "add_drift_probe", paths, new Date("2030-01-02T03:04:05Z"));
      expect(path.basename(dir!)).toBe("20300102030405_add_drift_probe");
      expect(await readFile(path.join(dir!, "migration.sql"), "utf8")).toMatch(/CREATE TABLE "drift_probe"/);
      expect(await createMigration(url, "again", paths)).toBeNull();
      expect(await applyMigrations(url, paths)).toContain("20300102030405_add_drift_probe");
      expect(await tables(url)).toContain("drift_probe");
    });
  });

  it.each([
    [
      "20261130063722_daily_and_error_message_rollups",
      "-- Fill the new rollups",
      ["call_rollups_daily", "error_message_rollups_hourly", "error_message_rollups_daily"],
      false, // before the rollups counted results
    ],
    [
      "20261205230000_call_rollups_per_tool_daily",
      "-- Fill it",
      ["call_rollups_tool_daily"],
      true, // results and latencies: their histograms added up
    ],
    ["20261206021000_call_rollups_per_model_daily", "-- Fill it", ["call_rollups_model_daily"], true],
  ])("%s fills the new rollups with what ingestion and the coarse rollups refresh would have written", async (name, fill, newTables, results) => {
    const url = await emptyDatabase();
    await applyMigrations(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const {
        rows: [project],
      } = await client.query<{ id: string }>("INSERT INTO projects (id, slug, name) VALUES (gen_random_uuid(), 'p', 'p') RETURNING id");
      const invalid = (message: string) => ({ valid: false, category: "missing_argument" as const, message, checked: null, differ: false });
      const valid = { valid: true, category: null, message: null, checked: null, differ: false };
      const calls: PreparedCall[] = [0, 1, 2, 30, 50].flatMap((h, i) => {
        const runId = `run-${i}`;
        const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, h, minute)).toISOString();
        return [
          { event: makeEvent({ runId, step: 1, timestamp: at(0) }) as PreparedCall["event"], verdict: invalid(`Error ${i % 2}`) },
          { event: makeEvent({ runId, step: 2, timestamp: at(1) }) as PreparedCall["event"], verdict: i % 3 ? valid : invalid("again") },
          {
            event: makeEvent({
              runId,
              step: 3,
              timestamp: at(2),
              ...(results && { result: { status: i % 2 ? "ok" : "error", latencyMs: 40 + 370 * i } }),
            }) as PreparedCall["event"],
            verdict: valid,
          },
        ];
      });
      await client.query("BEGIN");
      await writeCalls(client as unknown as Parameters<typeof writeCalls>[0], project!.id, calls);
      await client.query("COMMIT");
      // ingestion marks the days it wrote to, and the worker computes the coarse tables' rows of those days
      expect(await recomputeStaleDays(client, project!.id, 100)).toBe(3);
      expect(ROLLUPS_FROM_CALLS.map((r) => r.table)).toEqual(expect.arrayContaining(newTables));
      const snapshot = async () => {
        const tables = []; // one query at a time: a client runs one (pg 9 refuses overlapping ones)
        for (const t of newTables) tables.push((await client.query(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5, 6`)).rows);
        return tables;
      };
      const kept = await snapshot();
      expect(kept.every((rows) => rows.length > 0)).toBe(true);

      for (const t of newTables) await client.query(`DELETE FROM ${t}`);
      const migration = await readFile(path.join(defaultPrismaPaths.migrationsDir, name, "migration.sql"), "utf8");
      await client.query(migration.slice(migration.indexOf(fill)));
      expect(await snapshot()).toEqual(kept);
    } finally {
      await client.end();
    }
  });

  describe("20261130235045_project_keys_for_alert_tables", () => {
    it("gives existing incident events and webhook deliveries their project", async () => {
      const { client, rest, applyRest, close } = await databaseBefore("20261130235045_project_keys_for_alert_tables");
      try {
        await client.query(`
        INSERT INTO projects (id, slug, name) VALUES ('00000000-0000-4000-8000-000000000001', 'p', 'p');
        INSERT INTO alert_rules (id, project_id, name, metric, condition, window_minutes) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'r', 'invalid_rate', 'threshold', 15);
        INSERT INTO incidents (id, project_id, rule_id, state, severity, value, threshold, calls, summary, window_start, fired_at)
          VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'firing', 'warning', 1, 0.5, 10, 's', now(), now());
        INSERT INTO incident_events (id, incident_id, kind) VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000003', 'fired');
        INSERT INTO webhook_endpoints (id, project_id, name, url, secret) VALUES ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000001', 'w', 'http://127.0.0.1/', 's');
        INSERT INTO webhook_deliveries (id, endpoint_id, incident_id, event, attempt) VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000003', 'incident.fired', 1);`);
        expect(await applyRest()).toEqual(rest);
        const { rows } = await client.query("SELECT (SELECT project_id FROM incident_events) AS e, (SELECT project_id FROM webhook_deliveries) AS d");
        expect(rows[0]).toEqual({ e: "00000000-0000-4000-8000-000000000001", d: "00000000-0000-4000-8000-000000000001" });
      } finally {
        await close();
      }
    });
  });

  describe("20261201223000_incident_event_ends_at", () => {
    it("moves the end of a silence or snooze out of the text of existing events into their ends_at", async () => {
      const { client, rest, applyRest, close } = await databaseBefore("20261201223000_incident_event_ends_at");
      try {
        const p = "00000000-0000-4000-8000-000000000001";
        const incident = "00000000-0000-4000-8000-000000000003";
        await client.query(`
        INSERT INTO projects (id, slug, name) VALUES ('${p}', 'p', 'p');
        INSERT INTO alert_rules (id, project_id, name, metric, condition, window_minutes) VALUES ('00000000-0000-4000-8000-000000000002', '${p}', 'r', 'invalid_rate', 'threshold', 15);
        INSERT INTO incidents (id, project_id, rule_id, state, severity, value, threshold, calls, summary, window_start, fired_at)
          VALUES ('${incident}', '${p}', '00000000-0000-4000-8000-000000000002', 'firing', 'warning', 1, 0.5, 10, 's', now(), now());
        INSERT INTO incident_events (id, project_id, incident_id, kind, note, at) VALUES
          (gen_random_uuid(), '${p}', '${incident}', 'fired', 'Invalid rate 40% (until 2026-12-01T21:57:16.462Z)', '2026-12-01T20:00:00Z'),
          (gen_random_uuid(), '${p}', '${incident}', 'silenced', 'no webhooks: silenced until 2026-12-01T21:57:16.462Z (planned (getloan) migration)', '2026-12-01T20:00:01Z'),
          (gen_random_uuid(), '${p}', '${incident}', 'snoozed', 'until 2026-12-01T22:30:00.000Z: after the deploy', '2026-12-01T20:00:02Z'),
          (gen_random_uuid(), '${p}', '${incident}', 'snoozed', 'until 2026-12-01T23:00:00.000Z', '2026-12-01T20:00:03Z'),
          (gen_random_uuid(), '${p}', '${incident}', 'snoozed', 'something else', '2026-12-01T20:00:04Z');`);
        expect(await applyRest()).toEqual(rest);
        const { rows } = await client.query<{ kind: string; note: string | null; endsAt: Date | null }>(
          'SELECT kind, note, ends_at AS "endsAt" FROM incident_events ORDER BY at',
        );
        expect(rows.map((r) => [r.kind, r.note, r.endsAt?.toISOString() ?? null])).toEqual([
          ["fired", "Invalid rate 40% (until 2026-12-01T21:57:16.462Z)", null],
          ["silenced", "planned (getloan) migration", "2026-12-01T21:57:16.462Z"],
          ["snoozed", "after the deploy", "2026-12-01T22:30:00.000Z"],
          ["snoozed", null, "2026-12-01T23:00:00.000Z"],
          ["snoozed", "something else", null],
        ]);
      } finally {
        await close();
      }
    });
  });
});
