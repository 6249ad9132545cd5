// npm run worker: background work only (webhook deliveries, the every-minute alert evaluation,
// retention sweeps), no HTTP. Run it beside web-only instances (TOOLGATE_WORKER=off); any
// number of workers may run on one database: pg-boss hands each job to one of them.
import { parseEnv } from "../server/env";
import { applyMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/resolve";
import { takeOverStopSignals } from "./lib/exit";

let env;
try {
  env = parseEnv(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
let worker: Awaited<ReturnType<typeof import("../server/services/jobs/work").startBackgroundWork>>;
try {
  db = await openDatabase(env);
  console.log(`Database: ${db.description}`);
  const applied = await applyMigrations(db.url);
  if (applied.length) console.log(`Migrations applied: ${applied.join(", ")}`);
  process.env.DATABASE_URL = db.url;
  const { startBackgroundWork } = await import("../server/services/jobs/work");
  worker = await startBackgroundWork();
  console.log(`Toolgate worker running (pid ${process.pid}).`);
} catch (error) {
  console.error((error as Error).message);
  await db?.stop().catch(() => {});
  process.exit(1);
}

let stopping = false;
takeOverStopSignals(async (signal) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: finishing the jobs in hand…`);
  await worker.stop(true).catch((e: Error) => console.error(e.message));
  // its own connections closed first: the embedded server stops only when nobody else (npm start) uses it
  await (await import("../server/db/client")).closeDatabase().catch(() => {});
  await db?.stop().catch(() => {});
  process.exit(0);
});

// The embedded PostgreSQL this worker started (or shares with npm start) died: no job can run
// until it is started again, so exit non-zero and let the supervisor restart the worker, which
// starts the database again. An external DATABASE_URL is not watched (pg-boss reconnects when
// it comes back).
db.watch?.(() => {
  if (stopping) return;
  console.error("The embedded PostgreSQL has stopped unexpectedly: stopping the worker with exit code 1 so that a supervisor restarts it.");
  process.exit(1); // nothing to finish: the jobs in hand cannot reach the database either
});
