// npm run demo: 30 days of a loan agent's tool calls in project "demo" (/p/demo), ending now.
// Uses the same database as `npm start` (embedded unless DATABASE_URL); running it again adds
// only what is new since the last run (event ids are deterministic).
import { applyMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/resolve";
import { parseEnv } from "../server/env";
import { runAndExit } from "./lib/exit";

const SLUG = "demo";

let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
let client: typeof import("../server/db/client") | undefined;
await runAndExit(
  async () => {
    db = await openDatabase(parseEnv(process.env));
    // Before anything reads server/env.ts's cached env: the database client connects to this URL.
    process.env.DATABASE_URL = db.url;
    client = await import("../server/db/client");
    const { prisma } = client;
    const { loadDemoData } = await import("../server/services/demo/load-demo");
    const { DEMO_PROJECT_NAME } = await import("../server/services/demo/demo-project");
    const { DEMO_CONVERSATION_RUN } = await import("../server/services/demo/demo-conversation");

    console.log(`Database: ${db.description}`);
    const applied = await applyMigrations(db.url);
    if (applied.length) console.log(`Migrations applied: ${applied.join(", ")}`);

    // marked as a demo project: the first admin's "Load demo data…" in the switcher refreshes this one
    const project = await prisma().project.upsert({
      where: { slug: SLUG },
      create: { slug: SLUG, name: DEMO_PROJECT_NAME, demo: true },
      update: { demo: true },
      select: { id: true, slug: true, name: true },
    });
    console.log(`Project: ${project.name} (${SLUG})`);

    // The first user (the admin from /setup) gets to see it.
    const admin = await prisma().user.findFirst({ orderBy: { createdAt: "asc" }, select: { id: true, email: true } });
    if (admin) {
      const { count } = await prisma().membership.createMany({ data: [{ userId: admin.id, projectId: project.id, role: "owner" }], skipDuplicates: true });
      if (count) console.log(`Added ${admin.email} as owner.`);
    }

    const started = performance.now();
    const result = await loadDemoData(project, { now: new Date() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const n = (x: number) => x.toLocaleString("en");
    console.log(
      `Demo data: ${n(result.events)} events over 30 days: ${n(result.accepted)} new, ${n(result.duplicates)} already there, ${n(result.rejected)} rejected (${seconds} s).`,
    );
    console.log(
      admin ? `Open /p/${SLUG} in Toolgate.` : `Open /p/${SLUG} in Toolgate. No user yet: finish /setup first, then run npm run demo again to get access.`,
    );
    console.log(`A run with its conversation (sent over OpenTelemetry): /p/${SLUG}/runs/${DEMO_CONVERSATION_RUN}`);
  },
  async () => {
    await client
      ?.prisma()
      .$disconnect()
      .catch(() => {});
    await client
      ?.pool()
      .end()
      .catch(() => {});
    await db?.stop();
  },
);
