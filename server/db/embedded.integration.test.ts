import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, it, vi } from "vitest";
import { startOwnPostgres } from "../../test/own-postgres";

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
