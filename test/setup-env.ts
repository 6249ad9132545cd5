import { inject } from "vitest";

// Runs in every test worker before the test file: server code reads DATABASE_URL through server/env.ts.
process.env.DATABASE_URL = inject("databaseUrl");
// webhook retries back off in milliseconds here, not seconds
process.env.TOOLGATE_WEBHOOK_BACKOFF_MS ??= "20";
// the webhook tests deliver to receivers on 127.0.0.1, which production refuses by default;
// server/services/alerts/webhook-target.integration.test.ts checks that refusal with this off
process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE ??= "true";
