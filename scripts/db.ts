// npm run db:migrate            apply pending migrations
// npm run db:migration -- NAME  write a migration from schema.prisma's changes
import { openDatabase } from "../server/db/resolve";
import { applyMigrations, createMigration } from "../server/db/migrate";
import { runAndExit } from "./lib/exit";

const [command, name] = process.argv.slice(2);
if (command !== "migrate" && command !== "migration") {
  console.error("usage: tsx scripts/db.ts migrate | migration <name>");
  process.exit(2);
}
if (command === "migration" && !name) {
  console.error("usage: npm run db:migration -- <name>   (for example: add_alert_rules)");
  process.exit(2);
}
let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
await runAndExit(
  async () => {
    db = await openDatabase();
    console.log(`Database: ${db.description}`);
    if (command === "migrate") {
      const applied = await applyMigrations(db.url);
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "No pending migrations.");
    } else {
      const dir = await createMigration(db.url, name!);
      console.log(dir ? `Wrote ${dir}/migration.sql` : "No changes: schema.prisma and the migrations agree.");
    }
  },
  async () => db?.stop(),
);
