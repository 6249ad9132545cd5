import { describe, expect, it } from "vitest";
import { pool } from "../../db/client";
import { ROLLUP_TABLES, STALE_DAYS } from "./tables";

describe("the rollup tables' storage", () => {
  it("every rollup table of the catalogue leaves half of each page free, so that adding to a row rewrites no index (docs/rollups.md)", async () => {
    // the stale days' rows are inserted and deleted, never updated
    const updated = ROLLUP_TABLES.map((t) => t.table).filter((t) => t !== STALE_DAYS);
    const { rows } = await pool().query<{ table: string; options: string[] | null }>(
      "SELECT relname AS table, reloptions AS options FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r' ORDER BY relname",
      [updated],
    );
    expect(rows.map((r) => r.table).sort()).toEqual(updated.sort());
    expect(rows.filter((r) => !r.options?.includes("fillfactor=50"))).toEqual([]);
  });
});
