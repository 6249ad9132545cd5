import path from "node:path";
import { env as readEnv, type Env } from "../env";
import { ensureDatabase, startEmbeddedPostgres } from "./embedded";

/** `watch` (embedded server only) calls back once when that PostgreSQL process is gone. */
export type OpenDatabase = { url: string; description: string; stop: () => Promise<void>; watch?: (onExit: () => void) => () => void };

/**
 * The one code path to a database: DATABASE_URL when set, otherwise the embedded server
 * with its data under TOOLGATE_DATA_DIR (reused when `npm start` already runs it).
 */
export async function openDatabase(env: Env = readEnv()): Promise<OpenDatabase> {
  if (env.DATABASE_URL) {
    const u = new URL(env.DATABASE_URL);
    return { url: env.DATABASE_URL, description: `PostgreSQL at ${u.host}${u.pathname} (DATABASE_URL)`, stop: async () => {} };
  }
  const server = await startEmbeddedPostgres(env.TOOLGATE_DATA_DIR);
  await ensureDatabase(server.url("postgres"), "toolgate");
  const where = path.resolve(env.TOOLGATE_DATA_DIR, "postgres");
  return {
    url: server.url("toolgate"),
    description: `embedded PostgreSQL on port ${server.port}, data in ${where}${server.owned ? "" : " (already running)"}`,
    // the last Toolgate process out stops the embedded server (npm start and npm run worker share it)
    stop: server.release,
    watch: server.watch,
  };
}
