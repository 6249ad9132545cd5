import { inject } from "vitest";

// Runs in every test worker before the test file: server code reads DATABASE_URL through server/env.ts.
process.env.DATABASE_URL = inject("databaseUrl");
