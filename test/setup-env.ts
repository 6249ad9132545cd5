import { inject } from "vitest";

// Runs in every test worker before the test file: server code reads DATABASE_URL through server/env.ts.
process.env.DATABASE_URL = inject("databaseUrl");
// webhook retries back off in milliseconds here, not seconds
process.env.TOOLGATE_WEBHOOK_BACKOFF_MS ??= "20";
