import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { startOwnPostgres } from "../../test/own-postgres";
import { startEmbeddedPostgres } from "./embedded";

it("watch() reports a killed embedded PostgreSQL, and stop() then returns instead of waiting forever", async () => {
  const { dir, server } = await startOwnPostgres("watch");
  const lost = vi.fn();
  server.watch(lost, 50);
  const pid = Number((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
  await new Promise((r) => setTimeout(r, 150));
  expect(lost).not.toHaveBeenCalled();

  process.kill(pid, "SIGKILL");
  await vi.waitFor(() => expect(lost).toHaveBeenCalledTimes(1), { timeout: 10_000 });
  await server.stop();
});

it("a process that started the server does not stop it while another uses it; the last one out stops it", async () => {
  // the worker started first and owns the server; the app reuses it and holds connections
  const { dir, server: worker } = await startOwnPostgres("shared");
  const app = await startEmbeddedPostgres(dir, { persistent: false });
  expect([worker.owned, app.owned]).toEqual([true, false]);
  const appConnection = new pg.Client({ connectionString: app.url("postgres") });
  await appConnection.connect();

  await worker.release();
  expect((await appConnection.query("SELECT 1 AS up")).rows, "the app's database is still up").toEqual([{ up: 1 }]);

  await appConnection.end();
  const pid = Number((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
  await app.release();
  expect(() => process.kill(pid, 0), "stopped by the last one out").toThrow();
  await rm(dir, { recursive: true, force: true });
});
