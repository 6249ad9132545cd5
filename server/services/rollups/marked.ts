// The worker's refreshes of what ingestion's statements mark stale instead of keeping up to date
// themselves: the coarse daily rollups' days (coarse.ts) and the runs' kept retry spirals
// (server/services/metrics/spirals-kept.ts). Both go the same way, here.
import type { ClientBase } from "pg";
import { pool } from "../../db/client";
import { inTransaction } from "../../db/transaction";
import { lockRollups } from "./write";

/**
 * Every project with marks in table `marks` (or only `projectId`), `refreshSome` after
 * `refreshSome` (each takes up to `perTransaction` marks, refreshes what they mark and clears them,
 * answering how many it took), until a project has none left or `budgetMs` has passed. Each runs in
 * a transaction of its own that holds the project's rollup lock exclusively: it waits for the
 * batches under way (whose rows and marks it must see: a batch that found a mark already there
 * added none) and the project's next batches wait for it. Answers the projects and marks done.
 */
export async function refreshMarked(
  marks: string,
  perTransaction: number,
  refreshSome: (client: ClientBase, projectId: string) => Promise<number>,
  { projectId, budgetMs = 45_000 }: { projectId?: string; budgetMs?: number },
) {
  const stopAt = Date.now() + budgetMs;
  const { rows } = await pool().query<{ project_id: string }>(
    `SELECT DISTINCT project_id FROM ${marks}${projectId ? " WHERE project_id = $1" : ""}`,
    projectId ? [projectId] : [],
  );
  let done = 0;
  for (const { project_id } of rows) {
    for (let some = perTransaction; some === perTransaction && Date.now() < stopAt;) {
      some = await inTransaction(async (client) => {
        await lockRollups(client, project_id, "rebuild");
        return refreshSome(client, project_id);
      });
      done += some;
    }
  }
  return { projects: rows.length, done };
}
