// A deliberately failing test through the `integration` project: PostgreSQL is started as for
// the real suite, the query runs, and the assertion is wrong on purpose. .ci/run requires this
// run to exit non-zero.
import pg from "pg";
import { expect, inject, test } from "vitest";

test("canary: a real query, then an assertion meant to fail", async () => {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  const { rows } = await client.query("SELECT 1 + 1 AS sum").finally(() => client.end());
  expect(rows[0].sum).toBe(3);
});
