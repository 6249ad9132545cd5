import type pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { startBoss } from "../services/jobs/boss";
import { pool } from "./client";
import { applyMigrations, diffMigrationsToSchema } from "./migrate";

/**
 * Rules that keep the schema ready for a distributed PostgreSQL (Citus), where project-scoped
 * tables are distributed by project_id and co-located (docs/SCALING.md):
 * - every table in `public` is a reference table (small, copied to every node), a local table of
 *   the coordinator, or distributed;
 * - a distributed table has project_id, and its primary key and every unique index start with it;
 * - a foreign key between distributed tables includes project_id on both sides.
 * A migration that breaks one of them fails here.
 */
const REFERENCE_TABLES = [
  // reference tables: small, read before the project is known (sign-in, API key, pending invitations), copied to every node
  "users",
  "sessions",
  "projects",
  "memberships",
  "api_keys",
  "invitations",
  // local tables of the coordinator: Prisma's bookkeeping, and the rate-limit buckets (hot, short-lived, keyed by key or address)
  "_prisma_migrations",
  "rate_limits",
];

/**
 * Exceptions, each naming the rule it breaks and the plan to fix it. Empty since the alert
 * tables moved to (project_id, id) keys; the test fails when an entry is no longer needed, so
 * the list can only shrink.
 */
const KNOWN_EXCEPTIONS: string[] = [];

async function violations(db: Pick<pg.ClientBase, "query"> = pool()) {
  const tables = (
    await db.query<{ table: string; has_project: boolean }>(
      `SELECT c.relname AS table, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND NOT a.attisdropped) AS has_project
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
    )
  ).rows;
  const distributed = tables.filter((t) => !REFERENCE_TABLES.includes(t.table));
  const found: string[] = [];
  for (const t of distributed) if (!t.has_project) found.push(`${t.table}: no project_id column`);

  const keys = await db.query<{ table: string; index: string; first: string }>(
    `SELECT t.relname AS table, i.relname AS index, a.attname AS first
       FROM pg_index x
       JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
      WHERE n.nspname = 'public' AND x.indisunique ORDER BY 1, 2`,
  );
  for (const k of keys.rows) {
    if (distributed.some((t) => t.table === k.table && t.has_project) && k.first !== "project_id")
      found.push(`${k.table}: ${k.index} does not start with project_id`);
  }

  const fks = await db.query<{ table: string; name: string; target: string; pairs: string[] }>(
    `SELECT t.relname AS table, c.conname AS name, r.relname AS target,
            array(SELECT a.attname || '=' || b.attname FROM unnest(c.conkey, c.confkey) AS k(l, f)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.l
                    JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = k.f) AS pairs
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND c.contype = 'f' ORDER BY 1, 2`,
  );
  for (const fk of fks.rows) {
    const between = [fk.table, fk.target].every((name) => distributed.some((t) => t.table === name && t.has_project));
    if (between && !fk.pairs.includes("project_id=project_id")) found.push(`${fk.table}: foreign key ${fk.name} to ${fk.target} leaves out project_id`);
  }
  return found.sort();
}

describe("schema rules for a distributed PostgreSQL", () => {
  it("project-scoped keys start with project_id and foreign keys carry it", async () => {
    expect(await violations()).toEqual([...KNOWN_EXCEPTIONS].sort());
  });

  it("each rule is checked: a key without project_id first, a foreign key without it and a table without it are caught", async () => {
    const client = await pool().connect();
    try {
      await client.query("BEGIN");
      await client.query("CREATE UNIQUE INDEX schema_rules_probe ON tool_calls (id, project_id)");
      await client.query("CREATE TABLE schema_rules_orphan (id uuid PRIMARY KEY, tool_call_id text)");
      await client.query(
        "CREATE TABLE schema_rules_child (project_id uuid, id text, call_id text, PRIMARY KEY (project_id, id), UNIQUE (project_id, call_id), FOREIGN KEY (project_id, call_id) REFERENCES tool_calls (project_id, id))",
      );
      await client.query(
        "CREATE TABLE schema_rules_loose (project_id uuid, id uuid PRIMARY KEY, call_id text, call_project uuid, FOREIGN KEY (call_id, call_project) REFERENCES tool_calls (id, project_id))",
      );
      const found = await violations(client);
      expect(found.filter((v) => !KNOWN_EXCEPTIONS.includes(v))).toEqual([
        "schema_rules_loose: foreign key schema_rules_loose_call_id_call_project_fkey to tool_calls leaves out project_id",
        "schema_rules_loose: schema_rules_loose_pkey does not start with project_id",
        "schema_rules_orphan: no project_id column",
        "tool_calls: schema_rules_probe does not start with project_id",
      ]);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("pg-boss's own schema does not disturb Prisma's migrations: no changes to write, nothing to apply", async () => {
    const boss = await startBoss();
    await boss.stop({ graceful: false, close: false, wait: true });
    const { rows } = await pool().query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'");
    expect(rows[0].n).toBeGreaterThan(3);
    expect(await diffMigrationsToSchema(inject("databaseUrl"))).toBe("");
    expect(await applyMigrations(inject("databaseUrl"))).toEqual([]);
  });
});
