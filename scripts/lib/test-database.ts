import { randomBytes } from "node:crypto";
import { chmod, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, startEmbeddedPostgres } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";

export type TestServer = {
  /** URL of a database on the test server, e.g. for a migration test's own database */
  urlFor: (database: string) => string;
  stop: () => Promise<void>;
};

/** TEST_DATABASE_URL's server when set, otherwise an embedded one in a temporary folder. */
export async function startTestServer(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    return {
      urlFor: (database) => Object.assign(new URL(external), { pathname: `/${database}` }).toString(),
      stop: async () => {},
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-test-"));
  await chmod(dir, 0o755); // run as root, the server runs as the "postgres" user, which must reach it
  const server = await startEmbeddedPostgres(dir, { persistent: false });
  return { urlFor: server.url, stop: server.stop };
}

/** A fresh, migrated database with a unique name; drop() removes it. */
export async function createFreshDatabase(server: TestServer, prefix = "toolgate_test", migrate = true) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await ensureDatabase(server.urlFor("postgres"), name);
  const url = server.urlFor(name);
  if (migrate) await applyMigrations(url);
  return {
    name,
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: server.urlFor("postgres") });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => client.end());
    },
  };
}
