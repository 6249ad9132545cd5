// Users' schemas meeting users' values on every server path: formats checked in time linear in the
// value while other tenants are served, schemas nested at any depth refused as documented, and one
// call whose check throws stored unchecked with the reason while the rest of its batch is stored
// (ingest.batch, OTLP, Re-check).
import { createTRPCClient, httpLink } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "../../routers/root";
import { makeEvent } from "../../../test/events";
import { projectWithKey, withKey } from "../../../test/fixtures";
import { httpAppForTests } from "../../../test/http-app";
import { overflowingSchema } from "../../../test/uncheckable-schema";
import { pool } from "../../db/client";
import { createApiKey } from "../auth/api-keys";

const served = httpAppForTests();
const MiB = 1024 * 1024;

/** A harness's client over real HTTP, one request per call (no batching: calls run side by side). */
const overHttp = (key: string) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${served.app.url}/api/trpc`, headers: { authorization: `Bearer ${key}` } })] });

const website = { name: "website", parameters: { type: "object", properties: { u: { type: "string", format: "url" } }, required: ["u"] } };
// 1 MiB of arguments as JSON, the most an event may hold
const hostile = "http://" + ":".repeat(MiB - 20);

/** Registers, by name, a schema whose evaluation overflows the stack on `{"x": {}}` (test/uncheckable-schema.ts). */
const overflowing = { name: "overflowing", parameters: overflowingSchema };
const plain = { name: "plain", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } };

const stored = async (projectId: string) =>
  (
    await pool().query<{ id: string; tool: string; checked_valid: boolean | null; checked_message: string | null }>(
      "SELECT id, tool, checked_valid, checked_message FROM tool_calls WHERE project_id = $1 ORDER BY id",
      [projectId],
    )
  ).rows;

/** How long a small call of another project takes while `work` runs. */
async function otherTenantWaits(work: Promise<unknown>): Promise<number> {
  const other = await projectWithKey();
  const client = overHttp(other.key);
  await client.tools.register.mutate({ tools: [plain] });
  await new Promise((resolve) => setTimeout(resolve, 30)); // the big request is being read and checked
  const started = performance.now();
  await client.tools.validate.mutate({ tool: "plain", arguments: { n: 1 } });
  const waited = performance.now() - started;
  await work;
  return waited;
}

describe("formats are checked in time linear in the value, on every server path", () => {
  it("tools.validate with a 1 MiB url answers, and another project's call is answered in under 500 ms meanwhile", async () => {
    const p = await projectWithKey();
    const client = overHttp(p.key);
    await client.tools.register.mutate({ tools: [website] });
    const validate = client.tools.validate.mutate({ tool: "website", arguments: { u: hostile } });
    expect(await otherTenantWaits(validate)).toBeLessThan(500);
    expect(await validate).toMatchObject({ valid: false, category: "out_of_range", path: "u" });
  });

  it("ingest.batch with a 1 MiB url stores the verdict, another project's call answered in under 500 ms meanwhile; the dry run and Re-check read it too", async () => {
    const p = await projectWithKey();
    const client = overHttp(p.key);
    const event = makeEvent({ tool: "website", arguments: { u: hostile } });
    // stored unchecked first (no schema yet), for the dry run and Re-check below, which replay
    // arguments of up to 256 KiB (docs/limits.md): ajv-formats' url took minutes on this one
    const replayed = makeEvent({ tool: "website", arguments: { u: "http://" + ":".repeat(200_000) } });
    await client.ingest.batch.mutate({ events: [replayed] });
    await client.tools.register.mutate({ tools: [website] });
    const batch = client.ingest.batch.mutate({ events: [event] });
    expect(await otherTenantWaits(batch)).toBeLessThan(500);
    expect(await batch).toMatchObject({ accepted: 1, rejected: [] });
    expect((await stored(p.project.id)).find((r) => r.id === event.id)).toMatchObject({ checked_valid: false });

    const owner = await p.asOwner();
    const range = { from: "2026-11-30T00:00:00Z", to: "2026-12-01T00:00:00Z" };
    const started = performance.now();
    const reader = withKey((await createApiKey(p.project.id, "reader", "read")).key);
    const dryRun = await reader.tools.dryRun({ tool: "website", parameters: website.parameters, range });
    expect(dryRun).toMatchObject({ complete: true });
    const recheck = await owner.tools.recheck({ project: p.project.slug, tool: "website", range });
    expect(recheck).toMatchObject({ changed: 1 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await stored(p.project.id)).every((r) => r.checked_valid === false)).toBe(true);
  });
});

describe("several hard values in one request", () => {
  it("ingest.batch with three events of 1 MiB hard formats each (3 MiB): another project's call still answered in under 500 ms", async () => {
    const p = await projectWithKey();
    const client = overHttp(p.key);
    const forms = {
      name: "forms",
      parameters: {
        type: "object",
        properties: { u: { type: "string", format: "url" }, e: { type: "string", format: "email" }, d: { type: "string", format: "date-time" } },
      },
    };
    await client.tools.register.mutate({ tools: [forms] });
    // the schema compiled (once per version, seconds on a loaded machine) before the clock starts
    await client.tools.validate.mutate({ tool: "forms", arguments: { u: "http://a.example", e: "a@b.example", d: "2026-11-30T10:00:00Z" } });
    // each event at the 1 MiB limit, split over three formats; the loop over a batch's events
    // gives way between them, so the other project waits for one event's checks at most
    const third = Math.floor(MiB / 3) - 40;
    const events = [0, 1, 2].map(() =>
      makeEvent({ tool: "forms", arguments: { u: "http://" + ":".repeat(third), e: "a@" + "a.".repeat(third / 2), d: "2026-11-30T" + "1".repeat(third) } }),
    );
    const batch = client.ingest.batch.mutate({ events });
    expect(await otherTenantWaits(batch)).toBeLessThan(500);
    expect(await batch).toMatchObject({ accepted: 3, rejected: [] });
    expect((await stored(p.project.id)).map((r) => r.checked_valid)).toEqual([false, false, false]);
  });
});

describe("schemas nested at any depth", () => {
  it("tools.register refuses a schema nested 10,000 levels as BAD_REQUEST, before hashing it", async () => {
    const p = await projectWithKey();
    let nested: object = { type: "string" };
    for (let i = 0; i < 10_000; i++) nested = { type: "object", properties: { a: nested } };
    await expect(withKey(p.key).tools.register({ tools: [{ name: "deep", parameters: nested }] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^tools\[0\] \(deep\): Error: parameters is nested more than 64 levels deep/),
    });
  });
});

describe("one event never fails another", () => {
  const check = (rows: Awaited<ReturnType<typeof stored>>, ids: { bad: string; good: string[] }) => {
    const bad = rows.find((r) => r.id === ids.bad);
    expect(bad).toMatchObject({
      checked_valid: null,
      checked_message: expect.stringMatching(
        /^Unchecked: Toolgate could not check this call: the schema of overflowing@\w+ cannot be evaluated on these arguments/,
      ),
    });
    for (const id of ids.good) expect(rows.find((r) => r.id === id)).toMatchObject({ checked_valid: expect.any(Boolean) });
  };

  it("ingest.batch stores the batch, the call whose check throws unchecked with the reason", async () => {
    const p = await projectWithKey();
    const harness = withKey(p.key);
    await harness.tools.register({ tools: [overflowing, plain] });
    const events = [
      makeEvent({ tool: "plain", arguments: { n: 1 } }),
      makeEvent({ tool: "overflowing", arguments: { x: {} } }),
      makeEvent({ tool: "plain", arguments: { n: "1" } }),
    ];
    expect(await harness.ingest.batch({ events })).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    check(await stored(p.project.id), { bad: events[1]!.id, good: [events[0]!.id, events[2]!.id] });
    // tools.validate says the same
    expect(await harness.tools.validate({ tool: "overflowing", arguments: { x: {} } })).toMatchObject({
      valid: null,
      message: expect.stringMatching(/cannot be evaluated/),
    });
  });

  it("an OTLP export stores its calls, the one whose check throws unchecked with the reason", async () => {
    const p = await projectWithKey();
    await withKey(p.key).tools.register({ tools: [overflowing, plain] });
    const calls = [
      { id: "otlp-good", name: "plain", arguments: { n: 2 } },
      { id: "otlp-bad", name: "overflowing", arguments: { x: {} } },
    ];
    const span = {
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "00000000000000a1",
      name: "chat m",
      kind: 3,
      startTimeUnixNano: "1764493200000000000",
      endTimeUnixNano: "1764493201000000000",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
        { key: "gen_ai.request.model", value: { stringValue: "m" } },
        {
          key: "gen_ai.output.messages",
          value: { stringValue: JSON.stringify([{ role: "assistant", parts: calls.map((c) => ({ type: "tool_call", ...c })) }]) },
        },
      ],
    };
    const response = await fetch(`${served.app.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${p.key}` },
      body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans: [span] }] }] }),
    });
    expect(response.status).toBe(200);
    const rows = await stored(p.project.id);
    expect(rows).toHaveLength(2);
    check(rows, { bad: rows.find((r) => r.tool === "overflowing")!.id, good: [rows.find((r) => r.tool === "plain")!.id] });
  });

  it("Re-check checks the other calls, the one whose check throws stays unchecked with the reason", async () => {
    const p = await projectWithKey();
    const harness = withKey(p.key);
    const events = [makeEvent({ tool: "overflowing", arguments: { x: {} } }), makeEvent({ tool: "overflowing", arguments: { y: 1 } })];
    expect(await harness.ingest.batch({ events })).toMatchObject({ accepted: 2 }); // no schema yet: unchecked
    await harness.tools.register({ tools: [overflowing] });
    const owner = await p.asOwner();
    const result = await owner.tools.recheck({
      project: p.project.slug,
      tool: "overflowing",
      range: { from: "2026-11-30T00:00:00Z", to: "2026-12-01T00:00:00Z" },
    });
    expect(result).toMatchObject({ tool: "overflowing" });
    check(await stored(p.project.id), { bad: events[0]!.id, good: [events[1]!.id] });
  });
});
