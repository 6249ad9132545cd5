import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createFreshDatabase, type TestServer } from "../../scripts/lib/test-database";
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

describe("migrations", () => {
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
});
