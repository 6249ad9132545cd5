import { describe, expect, it } from "vitest";
import { asDomainError } from "../domain/errors";
import { inTransaction } from "../services/ingest/ingest-batch";
import { whileRequestOpen } from "./cancel";
import { pool, prisma } from "./client";

// Every connection of the app's pool bounds its statements (server/db/client.ts), the
// cancellation is answered with a clear 503, and a request whose client has gone has its
// statement cancelled in PostgreSQL (server/db/cancel.ts).

process.env.TOOLGATE_STATEMENT_TIMEOUT_MS = "7000";
process.env.TOOLGATE_LOCK_TIMEOUT_MS = "3000";

describe("bounded statements on every connection", () => {
  it("raw SQL, Prisma and pg-boss (which runs on the same pool) see the configured statement and lock timeouts", async () => {
    const raw = await pool().query("SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l");
    expect(raw.rows[0]).toEqual({ s: "7s", l: "3s" });
    const viaPrisma = await prisma().$queryRawUnsafe<{ s: string; l: string }[]>(
      "SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l",
    );
    expect(viaPrisma[0]).toEqual({ s: "7s", l: "3s" });
  });

  it("a statement past its timeout is cancelled by PostgreSQL and answered 503 saying what timed out and what to do", async () => {
    const slow = inTransaction(async (client) => {
      await client.query("SET LOCAL statement_timeout = 100");
      await client.query("SELECT pg_sleep(5)");
    });
    const error = await slow.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(asDomainError(error)).toMatchObject({ kind: "unavailable", retryAfterSeconds: 5 });
    expect(asDomainError(error)?.message).toMatch(/ran longer than TOOLGATE_STATEMENT_TIMEOUT_MS and was cancelled.*Send less per request/);

    const viaPrisma = await prisma()
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 100");
        await tx.$queryRawUnsafe("SELECT pg_sleep(5)");
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(asDomainError(viaPrisma)?.message).toMatch(/TOOLGATE_STATEMENT_TIMEOUT_MS/);
  });

  it("a statement waiting too long for a lock is cancelled and answered 503 naming the lock timeout", async () => {
    // a row of the rate-limit table, held by another transaction
    const key = `bounds-test-${Date.now()}`;
    await pool().query(
      "INSERT INTO rate_limits (key, tokens, capacity, per_minute, allowed, updated_at, expires_at) VALUES ($1, 1, 1, 1, true, now(), now())",
      [key],
    );
    const holder = await pool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query("UPDATE rate_limits SET tokens = 0 WHERE key = $1", [key]);
      const waiting = await inTransaction(async (client) => {
        await client.query("SET LOCAL lock_timeout = 100");
        await client.query("UPDATE rate_limits SET tokens = 1 WHERE key = $1", [key]);
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(asDomainError(waiting)?.message).toMatch(/waited longer than TOOLGATE_LOCK_TIMEOUT_MS/);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
      await pool().query("DELETE FROM rate_limits WHERE key = $1", [key]);
    }
  });

  it("a request whose client has gone has its running statement cancelled in PostgreSQL", async () => {
    const gone = new AbortController();
    const running = whileRequestOpen(gone.signal, () =>
      inTransaction(async (client) => {
        await client.query("SELECT pg_sleep(6), 'bounds-test-cancel'");
      }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    // wait until PostgreSQL runs it, then let the client go
    for (let seen = false; !seen;) {
      const { rows } = await pool().query(
        "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%bounds-test-cancel%' AND state = 'active' AND pid <> pg_backend_pid()",
      );
      seen = rows.length > 0;
    }
    gone.abort();
    const error = await running;
    // cancelled at the request's end, not at the 7 s statement timeout and not after its 6 s sleep
    expect(asDomainError(error)?.message).toMatch(/cancelled in the database because its client closed the connection/);
    const { rows } = await pool().query(
      "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%bounds-test-cancel%' AND state = 'active' AND pid <> pg_backend_pid()",
    );
    expect(rows).toEqual([]);
  });
});
