import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { CATEGORIES } from "../../../contracts/categories";
import { makeProject } from "../../../test/fixtures";
import { DEMO_TOOLS } from "./demo-data";
import { loadDemoData } from "./load-demo";

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

describe("loadDemoData", () => {
  it("stores two days of demo traffic with every category and chains of corrections; loading again adds nothing", async () => {
    const { project } = await makeProject();
    const window = { now: new Date("2026-11-30T15:00:00Z"), days: 2 };

    const first = await loadDemoData(project, window);
    expect(first.events).toBeGreaterThan(500);
    expect(first).toEqual({ events: first.events, accepted: first.events, duplicates: 0, rejected: 0 });

    const one = async (query: string) => (await sql.query(query, [project.id])).rows;
    expect(await one("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1")).toEqual([{ n: first.events }]);
    expect(await one("SELECT count(DISTINCT name)::int AS n FROM tool_definitions WHERE project_id = $1")).toEqual([{ n: DEMO_TOOLS.length }]);

    const categories = await one("SELECT DISTINCT category FROM tool_calls WHERE project_id = $1 AND category IS NOT NULL ORDER BY 1");
    expect(categories.map((r) => r.category)).toEqual([...CATEGORIES].sort());

    // A chain: an invalid call whose correction failed again.
    const [chains] = await one(
      `SELECT count(*)::int AS n FROM tool_calls a JOIN tool_calls b ON b.project_id = a.project_id AND b.id = a.correction_id
        WHERE a.project_id = $1 AND a.valid = false AND b.valid = false`,
    );
    expect(chains.n).toBeGreaterThan(0);
    // Misspelled tools are linked to the retry under the right name (correctsId), not left unpaired.
    const unknown = await one(
      `SELECT a.tool, b.tool AS fixed_with FROM tool_calls a LEFT JOIN tool_calls b ON b.project_id = a.project_id AND b.id = a.correction_id
        WHERE a.project_id = $1 AND a.category = 'unknown_tool'`,
    );
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.filter((r) => r.fixed_with === null)).toEqual([]);

    const again = await loadDemoData(project, window);
    expect(again).toEqual({ events: first.events, accepted: 0, duplicates: first.events, rejected: 0 });
    expect(await one("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1")).toEqual([{ n: first.events }]);
  });
});
