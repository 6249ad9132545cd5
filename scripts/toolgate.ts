// The ops CLI: npm run toolgate -- <command>. Works whether the app runs or not: on the
// embedded database it uses the server `npm start` runs, or starts (and stops) its own.
// Scriptable: the answer (a secret, a table, or with --json one JSON document) is all that goes
// to standard output; every status line goes to standard error. Exit codes: 0 done, 1 the command
// failed (database unreachable, no such key, …), 2 the command line was wrong.
import { parseArgs } from "node:util";
import { API_KEY_SCOPES, retentionInput, type ApiKeyScope } from "../contracts/accounts";
import { formatCount, formatDuration } from "../contracts/format-number";
import { ROLES, type Role } from "../contracts/roles";
import { parseEnv } from "../server/env";
import { applyMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/resolve";
import { runAndExit } from "./lib/exit";

const USAGE = `Usage: npm run toolgate -- <command> [options] [--json]

  keys create  --project <slug> --name <name> [--scope ingest|read]
                                                   print a new API key (the key alone on standard output);
                                                   ingest (default): harnesses send events; read: CI reads figures
  keys list    --project <slug>                    list keys: prefix, name, created, last used, revoked
  keys revoke  --project <slug> --key <prefix|id>  revoke a key, effective immediately
  users create --email <email> --role <${ROLES.join("|")}> --project <slug> [--password <pw>]
                                                   add a user (a one-time password is printed when none is given)
  projects list                                    list projects
  projects retention --project <slug> [--calls-days <n>] [--rollups-days <n>]
                                                   show or set how long raw calls and rollups are kept (days)
  rollups rebuild --project <slug>                 recompute the project's rollups from the raw calls it keeps
                                                   (rows from before an upgrade that added rollup columns);
                                                   the project's ingestion waits meanwhile, nothing is lost

  --json       the answer as one JSON document on standard output
  Standard output holds only the answer; messages go to standard error.
  Exit codes: 0 done, 1 the command failed, 2 the command line was wrong.`;

const options = {
  project: { type: "string" },
  name: { type: "string" },
  key: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  password: { type: "string" },
  scope: { type: "string" },
  "calls-days": { type: "string" },
  "rollups-days": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options });
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`); // an unknown or incomplete option
  process.exit(2);
}
const { positionals, values } = parsed;

/** The answer: `json` with --json, otherwise `text` (a string, or rows shown as a table). */
function answer(json: unknown, text: string | Record<string, unknown>[]) {
  if (values.json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else if (typeof text === "string") process.stdout.write(`${text}\n`);
  else console.table(text);
}
/** A status line: never on standard output, which scripts capture. */
const say = (line: string) => console.error(line);

class UsageError extends Error {}
function fail(message: string): never {
  throw new UsageError(message);
}
function need(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || !value) fail(`Missing --${name}.`);
  return value;
}

const command = positionals.join(" ");
const commands = ["keys create", "keys list", "keys revoke", "users create", "projects list", "projects retention", "rollups rebuild"];
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!commands.includes(command)) {
  console.error(`${command ? `Unknown command "${command}".` : "No command given."}\n\n${USAGE}`);
  process.exit(2);
}

let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
await runAndExit(
  async () => {
    db = await openDatabase(parseEnv(process.env));
    process.env.DATABASE_URL = db.url;
    try {
      await applyMigrations(db.url);
      // imported after DATABASE_URL is set: the database client reads it once
      const { prisma } = await import("../server/db/client");
      const projectBySlug = async () => {
        const slug = need("project");
        const project = await prisma().project.findUnique({ where: { slug }, select: { id: true, slug: true } });
        if (!project) {
          const known = (await prisma().project.findMany({ select: { slug: true } })).map((p) => p.slug);
          fail(`No project "${slug}". Projects: ${known.join(", ") || "none yet (run npm start and open the app, or set TOOLGATE_ADMIN_EMAIL)"}.`);
        }
        return project;
      };
      const keys = await import("../server/services/auth/api-keys");

      if (command === "keys create") {
        const scope = values.scope ?? "ingest";
        if (!API_KEY_SCOPES.includes(scope as ApiKeyScope)) fail(`Unknown scope "${scope}": use one of ${API_KEY_SCOPES.join(", ")}.`);
        const project = await projectBySlug();
        const key = await keys.createApiKey(project.id, need("name"), scope as ApiKeyScope);
        say(`Created ${key.scope} API key "${key.name}" for project ${project.slug} (prefix tg_${key.prefix}). It is shown only now.`);
        answer({ project: project.slug, id: key.id, name: key.name, scope: key.scope, prefix: key.prefix, createdAt: key.createdAt, key: key.key }, key.key);
      } else if (command === "keys list") {
        const rows = await keys.listApiKeys((await projectBySlug()).id);
        answer(
          rows,
          rows.map((k) => ({
            prefix: `tg_${k.prefix}_…`,
            name: k.name,
            scope: k.scope,
            created: k.createdAt.toISOString(),
            lastUsed: k.lastUsedAt?.toISOString() ?? "never",
            revoked: k.revokedAt?.toISOString() ?? "",
          })),
        );
      } else if (command === "keys revoke") {
        const project = await projectBySlug();
        await keys.revokeApiKey(project.id, need("key"));
        say(`Revoked ${need("key")} in ${project.slug}.`);
        if (values.json) answer({ project: project.slug, revoked: need("key") }, "");
      } else if (command === "users create") {
        const role = need("role");
        if (!ROLES.includes(role as Role)) fail(`Unknown role "${role}": use one of ${ROLES.join(", ")}.`);
        const project = await projectBySlug();
        const accounts = await import("../server/services/auth/accounts");
        if (values.password) await accounts.createUser({ email: need("email"), password: values.password });
        const added = await accounts.addMember(project.id, need("email"), role as Role);
        say(`Added ${added.email} to ${project.slug} as ${added.role}.`);
        if (added.oneTimePassword) say("A one-time password, on standard output (they choose their own at first sign-in).");
        if (values.json || added.oneTimePassword)
          answer({ project: project.slug, email: added.email, role: added.role, oneTimePassword: added.oneTimePassword }, added.oneTimePassword ?? "");
      } else if (command === "projects retention") {
        const project = await projectBySlug();
        const retention = await import("../server/services/retention/sweep");
        const current = await retention.getRetention(project.id);
        const showRetention = ({ callsDays, rollupsDays }: { callsDays: number; rollupsDays: number }) =>
          answer({ project: project.slug, callsDays, rollupsDays }, `${project.slug}: raw calls kept ${callsDays} days, rollups ${rollupsDays} days.`);
        if (values["calls-days"] !== undefined || values["rollups-days"] !== undefined) {
          const parsed = retentionInput.safeParse({
            callsDays: values["calls-days"] ?? current.callsDays,
            rollupsDays: values["rollups-days"] ?? current.rollupsDays,
          });
          if (!parsed.success) {
            const sent = `--calls-days ${values["calls-days"] ?? `(unchanged: ${current.callsDays})`} --rollups-days ${values["rollups-days"] ?? `(unchanged: ${current.rollupsDays})`}`;
            fail(`Retention not changed: ${parsed.error.issues.map((i) => i.message).join("; ")} (got ${sent}).`);
          }
          await retention.setRetention(project.id, parsed.data);
          say("Changed: applied by the next hourly sweep.");
          showRetention(parsed.data);
        } else showRetention(current);
      } else if (command === "rollups rebuild") {
        const project = await projectBySlug();
        const { rebuildProjectRollups } = await import("../server/services/rollups/rebuild");
        say(`Recomputing the rollups of ${project.slug} from its raw calls; its ingestion waits until this is done.`);
        const started = performance.now();
        const tables = await rebuildProjectRollups(project.id);
        const ms = performance.now() - started;
        answer(
          { project: project.slug, ms: Math.round(ms), tables },
          `${project.slug}: rollups recomputed in ${formatDuration(ms)} (${Object.entries(tables)
            .map(([table, rows]) => `${table} ${formatCount(rows)} rows`)
            .join(", ")}).`,
        );
      } else if (command === "projects list") {
        const projects = await prisma().project.findMany({ select: { slug: true, name: true, createdAt: true }, orderBy: { slug: "asc" } });
        answer(projects, projects);
      }
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
  },
  async () => db?.stop(),
);
