import { randomUUID } from "node:crypto";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS } from "../../../test/events";
import { RESULT_STATUSES } from "../../../contracts/event";

/**
 * Random and adversarial events through ingest.batch and the real database: the answer is never an
 * error, every good event is stored, every refused one says where. Seeded and bounded; to replay a
 * failure, run with the seed (and path) fast-check prints: FC_SEED=… FC_PATH=… npx vitest run <this file>.
 */
const SEED = Number(process.env.FC_SEED ?? 20261201);
const RUNS = Number(process.env.FC_RUNS ?? 120);

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

let api: ReturnType<typeof withKey>;
let projectId: string;
beforeAll(async () => {
  const p = await makeProject();
  projectId = p.project.id;
  api = withKey((await p.key()).key);
  const redos = { name: "redos", parameters: { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } } };
  await api.tools.register({ tools: [...LOAN_TOOLS, redos] });
});

// ---------------------------------------------------------------------------------------------
// Good events: any well-formed text (every plane, control characters, emoji), any JSON arguments
// within the limits, integers up to 2^31 - 1, any offset and year PostgreSQL takes.

const noNul = (value: unknown) => !JSON.stringify(value).includes("\\u0000");
const text = (maxLength: number) => fc.string({ unit: "binary", minLength: 1, maxLength }).filter(noNul);
const int4 = fc.integer({ min: 0, max: 2 ** 31 - 1 });

const MAX_OFFSET_MINUTES = 15 * 60 + 59;
const timestamp = fc
  .tuple(
    fc.date({ min: new Date("0002-01-01T00:00:00Z"), max: new Date("9998-12-31T00:00:00Z"), noInvalidDate: true }),
    fc.integer({ min: -MAX_OFFSET_MINUTES, max: MAX_OFFSET_MINUTES }),
  )
  .map(([date, minutes]) => {
    const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, -1);
    const abs = Math.abs(minutes);
    return `${local}${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  });

const jsonArguments = fc.dictionary(text(20), fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }), { maxKeys: 6 }).filter(noNul);

const goodEvent = fc.record(
  {
    runId: text(40),
    step: int4,
    timestamp,
    model: fc.record({ provider: text(20), name: text(40), version: text(20) }, { requiredKeys: ["name"] }),
    tool: fc.constantFrom("getloan", "listopenloans", "redos", "nosuchtool"),
    arguments: fc.oneof(
      jsonArguments,
      fc.string({ unit: "binary", maxLength: 40 }).filter(noNul),
      fc.record({ code: fc.string({ unit: fc.constantFrom("a", "!") }) }),
    ),
    outcome: fc.record({ valid: fc.boolean(), message: fc.string({ unit: "binary", maxLength: 40 }).filter(noNul) }, { requiredKeys: ["valid"] }),
    result: fc.record({ status: fc.constantFrom(...RESULT_STATUSES), latencyMs: int4 }, { requiredKeys: ["status"] }),
    usage: fc.record({ inputTokens: int4, outputTokens: int4, costUsd: fc.double({ min: 0, max: 1_000_000, noNaN: true }) }),
    metadata: fc.dictionary(text(100), fc.string({ unit: "binary", maxLength: 100 }).filter(noNul), { maxKeys: 5 }),
  },
  { requiredKeys: ["runId", "timestamp", "model", "tool", "arguments"] },
);

// ---------------------------------------------------------------------------------------------
// Mutations: one field of a good event set to a value a column cannot hold, or to random JSON.

const deep = (levels: number) => JSON.parse('{"a":'.repeat(levels) + "1" + "}".repeat(levels));
const adversarial: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 53, 2 ** 31 - 1, -1, 1.5, 1e308, -0, Number.MAX_VALUE, Infinity, -Infinity, NaN, 0),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\udbff\udbff", "😀".slice(0, 1), "", " ", "x".repeat(20_000)),
  fc.constantFrom("2026-11-30T09:15:00-23:59", "2026-11-30T09:15:00+16:00", "0000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-30T24:00:00Z"),
  fc.integer({ min: 60, max: 6_000 }).map(deep),
  fc
    .constantFrom('{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {}}}', '{"": 1, "a.b": 2, "[0]": 3}', '{"\\u0000": 1}', '{"\\ud800": 1}')
    .map((j) => JSON.parse(j)),
  fc.constantFrom(null, undefined, [], {}, [1, [2, [3]]], JSON.parse('{"n": 1e400}')),
  fc.jsonValue({ maxDepth: 3 }),
);

const FIELDS = [
  ...["id", "runId", "step", "timestamp", "model", "model.name", "model.version", "tool", "arguments", "arguments.x", "arguments.x.y"],
  ...["outcome", "outcome.message", "outcome.category", "result", "result.latencyMs", "result.summary", "correctsId", "toolVersion"],
  ...["usage", "usage.inputTokens", "usage.outputTokens", "usage.costUsd", "metadata", "metadata.k", "metadata.__proto__", "extra", "model.extra"],
];

function setPath(event: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split(".");
  let target = event;
  for (const key of keys.slice(0, -1)) {
    const next = target[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  // an own property, even for __proto__, as JSON.parse makes it
  Object.defineProperty(target, keys.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

type Item = { kind: "good"; event: Record<string, unknown> } | { kind: "mutated" | "random"; event: unknown };

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: goodEvent.map((event) => ({ kind: "good" as const, event })) },
  {
    weight: 3,
    arbitrary: fc.tuple(goodEvent, fc.constantFrom(...FIELDS), adversarial).map(([event, field, value]) => {
      const copy = structuredClone(event) as Record<string, unknown>;
      setPath(copy, field, value);
      return { kind: "mutated" as const, event: copy };
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((event) => ({ kind: "random" as const, event })) },
);

it("ingest.batch never fails a batch: good events are stored, each bad one is refused with a path", async () => {
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 8 }), async (items) => {
      const batchId = randomUUID();
      const events = items.map((it, index) => {
        if (it.kind !== "good" && it.kind !== "mutated") return it.event;
        const event = it.event as Record<string, unknown>;
        return Object.hasOwn(event, "id") ? event : { id: `pbt-${batchId}-${index}`, ...event };
      });

      const result = await api.ingest.batch({ events }); // a throw here fails the property
      expect(result.accepted + result.duplicates + result.rejected.length).toBe(events.length);
      const rejected = new Set(result.rejected.map((r) => r.index));
      for (const r of result.rejected) {
        expect(r.path.startsWith(`events[${r.index}]`)).toBe(true);
        expect(r.message.startsWith(`${r.path}: `)).toBe(true);
      }
      items.forEach((it, index) => {
        if (it.kind === "good") expect(rejected.has(index), `good event ${index} refused: ${JSON.stringify(result.rejected)}`).toBe(false);
      });

      // Every event not refused is in the table (new, or a duplicate of one stored before).
      const kept = events.filter((_, index) => !rejected.has(index)).map((e) => (e as { id: string }).id);
      const { rows } = await sql.query("SELECT count(DISTINCT id)::int AS n FROM tool_calls WHERE project_id = $1 AND id = ANY($2)", [projectId, kept]);
      expect(rows[0].n).toBe(new Set(kept).size);
    }),
    { seed: SEED, numRuns: RUNS, ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) },
  );
  console.log(`property: ${RUNS} batches, seed ${SEED}, ${Math.round(performance.now() - started)} ms`);
});
