import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeEvent } from "../../../test/events";
import { makeProject, withKey } from "../../../test/fixtures";
import { decodePattern } from "../../domain/failure-patterns";
import { definitionTokens } from "../../domain/context-cost";
import { lintTool, scoreTool } from "../../../isomorphic/definition-lint";
import { latestDefinitions, listTools } from "./registry";
import { LOAN_TOOLS } from "../demo/demo-data";
import { loadDemoData } from "../demo/load-demo";

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

const NOW = new Date("2026-11-30T15:00:00Z");
const range = { from: "2026-11-27T00:00:00Z", to: "2026-12-01T00:00:00Z" };

/** Three days of demo traffic (fewer runs than the demo), loaded once for the read-only tests. */
type Project = Awaited<ReturnType<typeof makeProject>>;
let demo: { project: Project["project"]; owner: Awaited<ReturnType<Project["asOwner"]>>; key: string; ingestKey: string };
beforeAll(async () => {
  const p = await makeProject();
  await loadDemoData(p.project, { now: NOW, days: 3, runsPerDay: 120 });
  demo = { project: p.project, owner: await p.asOwner(), key: (await p.key("ci", "read")).key, ingestKey: (await p.key()).key };
});

describe("failure patterns", () => {
  it("count each tool's invalid calls exactly as count(*) over the raw calls does, misspelled names included", async () => {
    for (const tool of ["getloan", "sendmessage", "schedulecallback"]) {
      const { patterns } = await demo.owner.tools.patterns({ project: demo.project.slug, tool, range });
      // followed: tried again; recovered: the next attempt was not invalid (a join, not the rollups' SQL)
      const { rows } = await sql.query<{ pattern: string; n: number; followed: number; recovered: number }>(
        `SELECT c.pattern, count(*)::int AS n, count(c.correction_id)::int AS followed,
                count(f.id) FILTER (WHERE f.valid IS DISTINCT FROM false)::int AS recovered
           FROM tool_calls c LEFT JOIN tool_calls f ON f.project_id = c.project_id AND f.id = c.correction_id
          WHERE c.project_id = $1 AND c.tool = $2 AND c.valid = false AND c.timestamp >= $3 AND c.timestamp < $4 GROUP BY 1`,
        [demo.project.id, tool, range.from, range.to],
      );
      const own = patterns.filter((p) => !(p.category === "unknown_tool" && p.kind !== tool));
      expect(Object.fromEntries(own.map((p) => [p.key, [p.failures, p.followed, p.recovered]]))).toEqual(
        Object.fromEntries(rows.map((r) => [r.pattern, [r.n, r.followed, r.recovered]])),
      );
      // Some next attempts were invalid again: recovery is not simply "was tried again".
      if (tool === "getloan") expect(own.some((p) => p.recovered < p.followed)).toBe(true);

      // One definition: the tool's patterns add up to the errors page's figures for the same tool and range.
      const messages = await demo.owner.metrics.errors({ project: demo.project.slug, range, tool });
      const sum = (xs: { followed: number; recovered: number }[]) => xs.reduce((t, x) => [t[0]! + x.followed, t[1]! + x.recovered], [0, 0]);
      expect(sum(own)).toEqual(sum(messages));

      // Misspellings of the tool's name: each a pattern with the raw count of calls under that name.
      const names = await sql.query<{ tool: string; n: number }>(
        `SELECT tool, count(*)::int AS n FROM tool_calls WHERE project_id = $1 AND category = 'unknown_tool' AND timestamp >= $2 AND timestamp < $3 GROUP BY 1`,
        [demo.project.id, range.from, range.to],
      );
      const aliases = patterns.filter((p) => p.category === "unknown_tool");
      if (tool === "getloan") expect(aliases.map((a) => a.kind)).toContain("get_loan");
      for (const a of aliases) {
        expect(a.failures).toBe(names.rows.find((r) => r.tool === a.kind)?.n);
        const [aliasMessages] = [await demo.owner.metrics.errors({ project: demo.project.slug, range, tool: a.kind })];
        expect([a.followed, a.recovered]).toEqual(sum(aliasMessages));
      }

      const total = patterns.reduce((s, p) => s + p.failures, 0);
      expect(patterns.reduce((s, p) => s + p.share, 0)).toBeCloseTo(1, 6);
      for (const p of patterns) {
        expect(p.trend.reduce((s, n) => s + n, 0)).toBe(p.failures);
        expect(p.share).toBeCloseTo(p.failures / total, 9);
      }
      // Example ids are real invalid calls of the pattern.
      const top = own[0]!;
      expect(top.examples.length).toBeGreaterThan(0);
      const check = await sql.query(`SELECT pattern FROM tool_calls WHERE project_id = $1 AND id = ANY($2)`, [demo.project.id, top.examples]);
      expect(check.rows.every((r) => r.pattern === top.key)).toBe(true);
    }
  });

  it("name the path and the kind of value sent", async () => {
    const { patterns } = await demo.owner.tools.patterns({ project: demo.project.slug, tool: "getloan", range });
    const number = patterns.find((p) => p.category === "wrong_type" && p.path === "loannumber" && p.kind === "integer");
    expect(number?.label).toBe("`loannumber`: a whole number where a string is required");
    const { suggestions, definition } = await demo.owner.tools.patterns({ project: demo.project.slug, tool: "getloan", range });
    // the definition's score and context cost: the same rules and tokenizer as alone
    const versions = await listTools(demo.project.id);
    const definitions = latestDefinitions(versions);
    const own = definitions.find((d) => d.name === "getloan")!;
    expect(definition).toEqual({
      score: scoreTool(lintTool(own, { others: definitions })).score,
      tokens: definitionTokens(own),
      setTokens: definitions.reduce((sum, d) => sum + definitionTokens(d), 0),
      tools: definitions.length,
      tokenizer: "o200k_base",
    });
    expect(definition!.tokens).toBeGreaterThan(50);
    expect(definition!.score).toBeLessThan(100); // includehistory has no description
    // The newest getloan version (the demo's schema fix) says "digits, as a string": nothing left to suggest there.
    expect(number!.failures).toBeGreaterThanOrEqual(3);
    expect(suggestions.filter((s) => s.kind === "digits_as_string")).toEqual([]);
    expect(suggestions.map((s) => [s.kind, s.path])).toContainEqual(["undescribed_parameter", "includehistory"]);
    const { patterns: messages } = await demo.owner.tools.patterns({ project: demo.project.slug, tool: "sendmessage", range });
    const choices = messages.filter((p) => p.category === "invalid_choice").map((p) => decodePattern(p.key));
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.every((c) => c.path === "channel" && ['"whatsapp"', '"phone"', '"letter"'].includes(c.kind))).toBe(true);
  });
});

const getloan = LOAN_TOOLS.find((t) => t.name === "getloan")!.parameters as { properties: Record<string, object> };
const withLoannumber = (loannumber: object) => ({ ...getloan, properties: { ...getloan.properties, loannumber } });
const ids = async (query: string) => (await sql.query<{ id: string }>(query, [demo.project.id, range.from, range.to])).rows.map((r) => r.id).sort();

describe("dry run", () => {
  it("of a stricter schema reports exactly the valid calls it would refuse", async () => {
    const stricter = withLoannumber({ type: "string", minLength: 4, maxLength: 6, pattern: "^[0-9]+$" });
    const result = await withKey(demo.key).tools.dryRun({ tool: "getloan", parameters: stricter, range, limit: 100_000 });
    const expected = await ids(
      `SELECT id FROM tool_calls WHERE project_id = $1 AND tool = 'getloan' AND timestamp >= $2 AND timestamp < $3
          AND checked_valid AND length(arguments->>'loannumber') > 6`,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(result.broken).toBe(expected.length);
    expect(result.fixed).toBe(0);
    expect(result.complete).toBe(true);
    expect(result.byCategory.find((c) => c.category === "out_of_range")?.broken).toBe(expected.length);
    // every call of the range replayed; the examples are among the expected ones
    const [{ n }] = (
      await sql.query("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1 AND tool = 'getloan' AND timestamp >= $2 AND timestamp < $3", [
        demo.project.id,
        range.from,
        range.to,
      ])
    ).rows;
    expect(result.scanned).toBe(n);
    expect(result.examples.broken.every((id) => expected.includes(id))).toBe(true);
    expect(result.summary).toContain("breaks calls");
  });

  it("of a looser schema reports exactly the invalid calls it would fix, page by page as the tool page runs it", async () => {
    const looser = withLoannumber({ type: ["string", "integer"], minLength: 4, maxLength: 8, pattern: "^[0-9]+$" });
    const expected = await ids(
      `SELECT id FROM tool_calls WHERE project_id = $1 AND tool = 'getloan' AND timestamp >= $2 AND timestamp < $3 AND checked_valid = false
          AND NOT EXISTS (SELECT FROM jsonb_array_elements(violations) v WHERE NOT (v->>'category' = 'wrong_type' AND v->>'path' = 'loannumber'))`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const fixed: string[] = [];
    let fixedCount = 0;
    let cursor = null;
    let pages = 0;
    let total: number | null = null;
    do {
      const page: Awaited<ReturnType<typeof demo.owner.tools.dryRunPage>> = await demo.owner.tools.dryRunPage({
        project: demo.project.slug,
        tool: "getloan",
        parameters: looser,
        range,
        cursor,
        pageSize: 100,
      });
      total ??= page.total;
      fixed.push(...page.tally.examples.fixed);
      fixedCount += page.tally.fixed;
      expect(page.tally.broken).toBe(0);
      cursor = page.next;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(total).toBeGreaterThan(100);
    expect(fixedCount).toBe(expected.length);
    expect(fixed.every((id) => expected.includes(id))).toBe(true);
    const api = await withKey(demo.key).tools.dryRun({ tool: "getloan", parameters: looser, range });
    expect([api.fixed, api.broken]).toEqual([expected.length, 0]);
    expect(api.byCategory.find((c) => c.category === "wrong_type")?.fixed).toBe(expected.length);
  });

  it("refuses a broken schema and an unknown version with what to send instead", async () => {
    await expect(withKey(demo.key).tools.dryRun({ tool: "getloan", parameters: { type: "object", properties: { a: { type: "strin" } } } })).rejects.toThrow(
      /parameters: /,
    );
    await expect(withKey(demo.key).tools.dryRun({ tool: "getloan", version: "nope" })).rejects.toThrow(/No version nope of getloan; its versions are/);
    await expect(withKey(demo.key).tools.dryRun({ tool: "getloan" } as never)).rejects.toThrow(/either `parameters`/);
    await expect(withKey(demo.ingestKey).tools.dryRun({ tool: "getloan", version: "nope" })).rejects.toThrow(/ingest scope .* use a key with the read scope/);
  });
});

describe("after a schema change", () => {
  const DAY = 86_400_000;
  const at = (daysAgo: number, i: number) => new Date(Date.now() - daysAgo * DAY + i * 60_000).toISOString();

  /** A tool with two versions (the newest first seen 5 days ago) and 200 calls in each window with the given invalid counts. */
  async function changed(invalidBefore: number, invalidAfter: number, range?: { from: string; to: string }) {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: [{ name: "getloan", parameters: getloan }] });
    await sql.query("UPDATE tool_definitions SET first_seen_at = now() - interval '20 days' WHERE project_id = $1", [p.project.id]);
    const clearer = withLoannumber({ ...getloan.properties.loannumber, description: "The loan number: 4 to 8 digits, as a string." });
    await api.tools.register({ tools: [{ name: "getloan", parameters: clearer }] });
    await sql.query(
      "UPDATE tool_definitions SET first_seen_at = now() - interval '5 days' WHERE project_id = $1 AND first_seen_at > now() - interval '1 day'",
      [p.project.id],
    );
    const events = (daysAgo: number, invalid: number) =>
      Array.from({ length: 200 }, (_, i) => makeEvent({ timestamp: at(daysAgo, i), arguments: { loannumber: i < invalid ? 4471 : "4471" } }));
    expect(await api.ingest.batch({ events: [...events(8, invalidBefore), ...events(2, invalidAfter)] })).toMatchObject({ accepted: 400 });
    return (await p.asOwner()).tools.versionImpact({ project: p.project.slug, tool: "getloan", ...(range ? { range } : {}) });
  }

  it("says the change helped when the invalid rate fell clearly", async () => {
    const impact = await changed(60, 10);
    expect(impact?.overall).toMatchObject({ verdict: "better", a: { n: 200, rate: 0.3 }, b: { n: 200, rate: 0.05 } });
    expect(impact?.byCategory.find((c) => c.key === "wrong_type")?.verdict).toBe("better");
  });

  it("measures inside the page's range, and says when the change lies outside it", async () => {
    const day = 24 * 3600_000;
    const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
    // the change 5 days ago, calls 8 and 2 days ago: a range of the last 4 days holds the change's after-window only
    const inside = await changed(60, 10, { from: iso(9), to: iso(0) });
    expect(inside).toMatchObject({ inRange: true });
    expect(Date.parse(inside!.before.from)).toBeGreaterThanOrEqual(Date.parse(iso(9)) - 3600_000);
    const outside = await changed(60, 10, { from: iso(4), to: iso(0) });
    expect(outside).toMatchObject({ inRange: false, overall: { verdict: "better" } });
  });

  it("says there is no clear difference when nothing changed", async () => {
    const impact = await changed(30, 30);
    expect(impact?.overall).toMatchObject({ verdict: "no clear difference", a: { n: 200 }, b: { n: 200 } });
  });

  it("has nothing to say about a tool with one version", async () => {
    expect(await demo.owner.tools.versionImpact({ project: demo.project.slug, tool: "sendmessage" })).toBeNull();
  });
});
