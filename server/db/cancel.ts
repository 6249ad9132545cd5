import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { PoolClient } from "pg";
import { env } from "../env";

// A request whose client has gone should stop costing the database: its running statement is
// cancelled in PostgreSQL (pg_cancel_backend), the transaction rolls back and the connection
// returns to the pool. The HTTP entry points run their work inside `whileRequestOpen` with the
// request's AbortSignal; code that holds a pooled connection for a request's statements
// (ingestion's transactions) calls `cancelWhenRequestGone` right after taking it.

const requestSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` with `signal` as the current request's: connections taken for it are cancelled when it aborts. */
export const whileRequestOpen = <T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> => (signal ? requestSignal.run(signal, work) : work());

/** Sends PostgreSQL a cancel for backend `pid` on a connection of its own (the pool may be full). */
async function cancelBackend(pid: number, stillOurs: () => boolean) {
  const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    // the connection may have finished its work and gone back to the pool meanwhile
    if (stillOurs()) await client.query("SELECT pg_cancel_backend($1)", [pid]);
  } catch (error) {
    console.error(`[db] could not cancel the statement of a request whose client went away: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Cancels `client`'s running statement when the current request (whileRequestOpen) aborts,
 * until the returned function is called — call it before releasing the client.
 */
export function cancelWhenRequestGone(client: PoolClient): () => void {
  const signal = requestSignal.getStore();
  const pid = (client as unknown as { processID?: number }).processID;
  if (!signal || !pid) return () => {};
  let attached = true;
  const onAbort = () => void cancelBackend(pid, () => attached);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => {
    attached = false;
    signal.removeEventListener("abort", onAbort);
  };
}
