import { chmod, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../server/db/embedded";

/**
 * A PostgreSQL server of the test file's own, in a temporary folder, for tests that stop or
 * kill it without harming the shared test server. `dir` holds its data (postgres/).
 */
export async function startOwnPostgres(prefix: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `toolgate-${prefix}-`));
  await chmod(dir, 0o755); // run as root, the server runs as the "postgres" user, which must reach it
  return { dir, server: await startEmbeddedPostgres(dir, { persistent: false }) };
}
