import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { withSchemaEngine } from "./schema-engine";

/** Paths of the Prisma schema and its migrations folder (overridable for tests). */
export type PrismaPaths = { schemaPath: string; migrationsDir: string };

export const defaultPrismaPaths: PrismaPaths = {
  schemaPath: path.resolve("prisma/schema.prisma"),
  migrationsDir: path.resolve("prisma/migrations"),
};

const noFilters = { externalTables: [], externalEnums: [] };

/** Reads the migrations folder in the shape the schema engine expects. */
async function readMigrations(migrationsDir: string): Promise<MigrationList> {
  await mkdir(migrationsDir, { recursive: true });
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: await readFile(lockPath, "utf8").catch(() => null) },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => ({
        path: dir,
        migrationFile: {
          path: "migration.sql",
          content: await readFile(path.join(migrationsDir, dir, "migration.sql"), "utf8").then(
            (value) => ({ tag: "ok" as const, value }),
            (error: Error) => ({ tag: "error" as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

/**
 * What `prisma migrate deploy` does: applies pending migrations, same `_prisma_migrations` table;
 * then prisma/functions.sql, the PL/pgSQL functions, which a migration cannot hold (the file says why).
 */
export async function applyMigrations(databaseUrl: string, paths = defaultPrismaPaths): Promise<string[]> {
  const migrationsList = await readMigrations(paths.migrationsDir);
  const applied = await withSchemaEngine(databaseUrl, undefined, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
  await applyFunctions(databaseUrl, path.join(path.dirname(paths.schemaPath), "functions.sql"));
  return applied;
}

/** Runs the functions script as one transaction, one migrator at a time (CREATE OR REPLACE, so again and again). */
async function applyFunctions(databaseUrl: string, file: string) {
  const script = await readFile(file, "utf8").catch(() => undefined);
  if (script === undefined) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext('toolgate functions.sql')); ${script}; COMMIT;`);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw new Error(`${file} could not be applied: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end();
  }
}

/**
 * The SQL that takes a database from the migrations' end state to schema.prisma; empty
 * when they agree. The engine replays the migrations in a throw-away shadow database
 * that it creates on `databaseUrl`'s server.
 */
export async function diffMigrationsToSchema(databaseUrl: string, paths = defaultPrismaPaths): Promise<string> {
  const migrationsList = await readMigrations(paths.migrationsDir);
  const schema = { path: paths.schemaPath, content: await readFile(paths.schemaPath, "utf8") };
  return withSchemaEngine(databaseUrl, schema, async (engine) => {
    const result = await engine.diff({
      from: { tag: "migrations", ...migrationsList },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const sql = (result.stdout ?? "").trim();
    return /^-- This is an empty migration\.?$/.test(sql) ? "" : sql;
  });
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql, or returns null when nothing changed. */
export async function createMigration(databaseUrl: string, name: string, paths = defaultPrismaPaths, now = new Date()) {
  if (!/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`migration name must be lower-case letters, digits and underscores, got "${name}"`);
  }
  await writeLockfile(paths.migrationsDir);
  const sql = await diffMigrationsToSchema(databaseUrl, paths);
  if (!sql) return null;
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(paths.migrationsDir, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql + "\n");
  return dir;
}

/** The same file `prisma migrate dev` writes; the engine reads the connector from it. */
async function writeLockfile(migrationsDir: string) {
  await mkdir(migrationsDir, { recursive: true });
  await writeFile(
    path.join(migrationsDir, "migration_lock.toml"),
    '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
  );
}
