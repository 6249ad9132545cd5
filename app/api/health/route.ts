import type { QueryConfig } from "pg";
import { pool } from "@/server/db/client";

export const dynamic = "force-dynamic";

/**
 * How long the database may take to answer `SELECT 1`. A frozen server (stopped, swapped out,
 * a hung disk) accepts connections and answers nothing: without a deadline the check would wait
 * for as long as the freeze lasts and then say "up".
 */
const HEALTH_TIMEOUT_MS = 3_000;

/** Liveness plus a database round trip: 503 with database "down" when it cannot be reached or does not answer in time. */
export async function GET() {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in time")), HEALTH_TIMEOUT_MS);
  });
  // query_timeout also drops the connection the stuck query was sent on (the pool discards a client whose query failed)
  // (pg reads a per-query query_timeout; its types list it only for the whole client)
  const query = pool().query({ text: "SELECT 1", query_timeout: HEALTH_TIMEOUT_MS } as QueryConfig);
  query.catch(() => {}); // answered by the race below; a late failure needs no handling
  try {
    await Promise.race([query, deadline]);
    return Response.json({ status: "ok", database: "up" });
  } catch {
    return Response.json({ status: "degraded", database: "down" }, { status: 503 });
  } finally {
    clearTimeout(timer);
  }
}
