// npm run worker: background work only (webhook deliveries, the every-minute alert evaluation,
// retention sweeps), no HTTP. Run it beside web-only instances (TOOLGATE_WORKER=off); any
// number of workers may run on one database: pg-boss hands each job to one of them.
import { parseEnv } from "../server/env";
import { applyMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/resolve";

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

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    console.log(`\n${signal}: finishing the jobs in hand…`);
    await worker.stop(true).catch((e: Error) => console.error(e.message));
    await db?.stop().catch(() => {});
    process.exit(0);
  });
}
