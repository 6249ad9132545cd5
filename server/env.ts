import { z } from "zod";

/** Every environment variable Toolgate reads, parsed once. README.md lists them. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  TOOLGATE_DATA_DIR: z.string().min(1).default(".data"),
  TOOLGATE_PUBLIC_URL: z.url().optional(),
  TOOLGATE_ADMIN_EMAIL: z.email().optional(),
  TOOLGATE_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  TOOLGATE_PROJECT: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be a lower-case slug")
    .default("default"),
  TOOLGATE_SESSION_DAYS: z.coerce.number().positive().default(14),
  /** how long an invitation link can be accepted */
  TOOLGATE_INVITATION_DAYS: z.coerce.number().positive().default(7),
  TOOLGATE_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  TOOLGATE_ALERT_EVALUATOR: z.enum(["on", "off"]).default("on"),
  /** off: a web-only instance (no deliveries, evaluation or sweeps here; it still enqueues) */
  TOOLGATE_WORKER: z.enum(["on", "off"]).default("on"),
  TOOLGATE_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(2000),
  /** deliver webhooks to loopback, private, link-local and other internal addresses too (self-hosted receivers) */
  TOOLGATE_WEBHOOK_ALLOW_PRIVATE: z.stringbool().default(false),
  TOOLGATE_API_RATE_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /** How many reverse proxies in front of the app append to X-Forwarded-For: false = none (the header is ignored), true = 1. */
  TOOLGATE_TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+)$/, 'must be "true", "false" or the number of proxies in front of the app')
    .default("false")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v))),
  /** alert rules a project may have besides the built-in regression guard (each is evaluated every minute) */
  TOOLGATE_MAX_ALERT_RULES: z.coerce.number().int().positive().default(100),
  /** a CSV export whose client reads nothing for this long is cancelled (its connection freed) */
  TOOLGATE_EXPORT_IDLE_SECONDS: z.coerce.number().positive().default(60),
  /** CSV exports running at once per app instance (each holds a database connection) */
  TOOLGATE_EXPORT_MAX_CONCURRENT: z.coerce.number().int().positive().default(4),
  /** database connections per app instance (one pool shared by Prisma, raw SQL and pg-boss) */
  TOOLGATE_DB_POOL_SIZE: z.coerce.number().int().min(2).default(10),
  /** a statement running longer than this is cancelled by PostgreSQL (0: no limit) */
  TOOLGATE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(20_000),
  /** a statement waiting longer than this for a row or table lock is cancelled (0: no limit) */
  TOOLGATE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  /** heavy operations (server/services/tenancy/shares.ts lists them) one project may run at once on one instance */
  TOOLGATE_PROJECT_HEAVY_CONCURRENCY: z.coerce.number().int().positive().default(3),
  /** how long a heavy operation beyond its project's share waits for a turn before it is answered 429 */
  TOOLGATE_PROJECT_SHARE_WAIT_MS: z.coerce.number().int().min(0).default(2_000),
  /** requests a minute for all API keys of one project together (each key also has TOOLGATE_API_RATE_PER_MINUTE) */
  TOOLGATE_PROJECT_RATE_PER_MINUTE: z.coerce.number().int().positive().default(6_000),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // empty strings count as unset, as in most twelve-factor apps
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment variable(s):\n${lines.join("\n")}\nSee the configuration table in README.md.`);
  }
  return parsed.data;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
