import type { PoolClient } from "pg";
import { pool } from "./client";

const DEADLOCK = "40P01";

/**
 * Runs `work` in a transaction of its own, tried again (up to three times) when PostgreSQL
 * aborts it as a deadlock. Concurrent writers that touch the same runs update each other's
 * calls (pairing) and rollup rows, so PostgreSQL may abort one of them; nothing of it was
 * written, so it is simply tried again.
 */
export async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool().connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if ((error as { code?: string }).code !== DEADLOCK || attempt === 3) throw error;
    } finally {
      client.release();
    }
  }
}
