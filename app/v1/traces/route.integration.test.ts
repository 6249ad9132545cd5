import { gzipSync } from "node:zlib";
import { diag, DiagLogLevel, type Tracer } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { makeProject, projectWithKey, withKey } from "@/test/fixtures";
import { exporter, exportSpans, recordingTracer, servedTraces } from "@/test/otlp";

// This file's limits: small enough to reach in a test (env() reads them at the first request).
const LIMIT = 512 * 1024;
const RATE = 15;
process.env.TOOLGATE_BODY_LIMIT_BYTES = String(LIMIT);
process.env.TOOLGATE_API_RATE_PER_MINUTE = String(RATE);

const served = servedTraces();
const { sql } = served;
afterAll(async () => {
  delete process.env.TOOLGATE_BODY_LIMIT_BYTES;
  delete process.env.TOOLGATE_API_RATE_PER_MINUTE;
});

const project = projectWithKey;

const TRACE = "5B8EFFF798038103D269B633813FC60C"; // upper case, as in the OTLP/JSON examples
let spanCounter = 0;
const spanId = () => (++spanCounter).toString(16).padStart(16, "0");

type Value = string | number | { intValue: string | number };
const attributes = (attrs: Record<string, Value>) =>
  Object.entries(attrs).map(([key, v]) => ({
    key,
    value: typeof v === "string" ? { stringValue: v } : typeof v === "number" ? { doubleValue: v } : v,
  }));

/** An OTLP/JSON chat span whose output holds the given tool calls. */
function chatSpan(calls: { id: string; name: string; arguments: unknown }[], extra: Record<string, Value> = {}, traceId = TRACE) {
  return {
    traceId,
    spanId: spanId(),
    name: "chat m",
    kind: 3,
    startTimeUnixNano: "1764493200000000000", // int64 as a string …
    endTimeUnixNano: 1764493201000000000, // … or a number
    attributes: attributes({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "acme",
      "gen_ai.request.model": "m",
      "gen_ai.usage.input_tokens": { intValue: "12" },
      "gen_ai.usage.output_tokens": { intValue: 3 },
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: calls.map((c) => ({ type: "tool_call", ...c })) }]),
      ...extra,
    }),
  };
}

const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans }] }] });

function post(key: string | null, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(served.url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    body,
  });
}

const calls = async (projectId: string) => (await sql.query(`SELECT * FROM tool_calls WHERE project_id = $1 ORDER BY id`, [projectId])).rows;

describe("POST /v1/traces", () => {
  it("JSON: a full success answers {} and stores the call; an empty request is a success too", async () => {
    const p = await project();
    const res = await post(p.key, JSON.stringify(request([chatSpan([{ id: "c1", name: "lookup", arguments: '{"id": 1}' }])])));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({});
    expect(await calls(p.project.id)).toMatchObject([
      { tool: "lookup", arguments: { id: 1 }, input_tokens: 12, output_tokens: 3, run_id: TRACE.toLowerCase(), model_provider: "acme" },
    ]);
    const empty = await post(p.key, "{}");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({});
  });

  it("partial success: unusable spans are counted and explained, the others stored", async () => {
    const p = await project();
    const body = request([
      chatSpan([{ id: "ok", name: "lookup", arguments: { id: 1 } }]),
      { ...chatSpan([{ id: "x", name: "lookup", arguments: {} }]), traceId: "not-hex" },
      chatSpan([{ id: "long", name: "t".repeat(300), arguments: {} }]),
      { traceId: TRACE, spanId: spanId(), name: "GET /", attributes: attributes({ "http.request.method": "GET" }) },
    ]);
    const res = await post(p.key, JSON.stringify(body));
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.partialSuccess.rejectedSpans).toBe("2");
    expect(answer.partialSuccess.errorMessage).toContain("has no valid traceId");
    expect(answer.partialSuccess.errorMessage).toContain("tool is at most 200 characters");
    expect((await calls(p.project.id)).map((c) => c.metadata["otel.tool_call_id"])).toEqual(["ok"]);
    const stats = await sql.query(`SELECT spans::int, ignored::int, rejected::int, last_reason FROM otlp_stats WHERE project_id = $1`, [p.project.id]);
    expect(stats.rows[0]).toMatchObject({ spans: 4, ignored: 1, rejected: 2 });
    expect(stats.rows[0].last_reason).toContain("traceId");
  });

  it("protobuf: the real exporter gets the partial success in protobuf (it logs it) and a success otherwise", async () => {
    const p = await project();
    const warnings: string[] = [];
    diag.setLogger(
      { warn: (...args: unknown[]) => warnings.push(args.join(" ")), error: () => {}, info: () => {}, debug: () => {}, verbose: () => {} },
      DiagLogLevel.WARN,
    );
    const { tracer, spans } = recordingTracer();
    const chat = (t: Tracer, tool: string) =>
      t.startSpan("chat m", {
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "m",
          "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: `id-${tool.length}`, name: tool, arguments: {} }] }]),
        },
      });
    chat(tracer, "fine").end();
    chat(tracer, "x".repeat(201)).end();
    expect((await exportSpans(exporter("proto", served.url, p.key), spans())).code).toBe(0);
    diag.disable();
    expect(warnings.join("\n")).toMatch(/Partial Success.*"rejectedSpans":"?1"?.*tool is at most 200 characters/);
    expect(await calls(p.project.id)).toHaveLength(1);
  });

  it("400 only for bodies that cannot be decoded", async () => {
    const p = await project();
    const notJson = await post(p.key, "{nope");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toContain("not JSON");
    const notRequest = await post(p.key, JSON.stringify({ resourceSpans: 5 }));
    expect(notRequest.status).toBe(400);
    const notProtobuf = await post(p.key, new Uint8Array([0x0a, 0xff, 0xff, 0x01]), { "Content-Type": "application/x-protobuf" });
    expect(notProtobuf.status).toBe(400);
    expect(notProtobuf.headers.get("content-type")).toBe("application/x-protobuf");
    const badGzip = await post(p.key, "not gzip", { "Content-Encoding": "gzip" });
    expect(badGzip.status).toBe(400);
    expect((await badGzip.json()).message).toContain("does not decompress");
  });

  it("gzip: a compressed JSON body is read; 413 above the limit, before or after decompression", async () => {
    const p = await project();
    const small = gzipSync(JSON.stringify(request([chatSpan([{ id: "gz", name: "lookup", arguments: {} }])])));
    const ok = await post(p.key, small, { "Content-Encoding": "gzip" });
    expect(ok.status).toBe(200);
    expect(await calls(p.project.id)).toHaveLength(1);

    const big = JSON.stringify(request([chatSpan([{ id: "big", name: "lookup", arguments: { pad: "x".repeat(LIMIT) } }])]));
    const tooLarge = await post(p.key, big);
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).message).toContain("TOOLGATE_BODY_LIMIT_BYTES");
    // a small gzip body that inflates beyond the limit
    const bomb = gzipSync(big);
    expect(bomb.byteLength).toBeLessThan(LIMIT);
    const inflated = await post(p.key, bomb, { "Content-Encoding": "gzip" });
    expect(inflated.status).toBe(413);
    expect(await calls(p.project.id)).toHaveLength(1);
  });

  it("401 without a valid key, 415 for other encodings, 429 with Retry-After over the key's rate limit (shared with tRPC)", async () => {
    expect((await post(null, "{}")).status).toBe(401);
    expect((await post("tg_nope", "{}")).status).toBe(401);
    // no key is a 401 whatever else is wrong (schemathesis: a missing Authorization answered 415)
    expect((await post(null, "x", { "Content-Type": "text/plain" })).status).toBe(401);
    const p = await project();
    expect((await post(p.key, "x", { "Content-Type": "text/plain" })).status).toBe(415);
    // the key's bucket is the same one tRPC uses: a tRPC call takes a token too
    await withKey(p.key).system.whoami();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < RATE; i++) {
      const res = await post(p.key, "{}");
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE - 1); // whoami took one (the 415 was refused before the key was read)
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it("403 for a key of the read scope, with what to use instead; nothing stored", async () => {
    const p = await makeProject();
    const { key } = await p.key("ci gate", "read");
    const res = await post(key, JSON.stringify(request([chatSpan([{ id: "c1", name: "lookup", arguments: { q: 1 } }])])));
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/read scope .* use a key with the ingest scope/);
    expect(await calls(p.project.id)).toHaveLength(0);
  });
});

describe("hostile spans are handled like hostile ingest.batch input", () => {
  it("a huge attribute, arguments nested 100,000 deep and a regex-bomb schema: stored or refused with a reason, nothing else harmed", async () => {
    const p = await project();
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const bombSchema = { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } }, required: ["s"] };
    const body = request([
      chatSpan([{ id: "huge", name: "lookup", arguments: { id: 1 } }], { "some.huge.attribute": "x".repeat(200_000) }),
      chatSpan([{ id: "deep", name: "lookup", arguments: `{"a": ${deep}}` }]),
      chatSpan([{ id: "bomb", name: "match", arguments: { s: `${"a".repeat(18)}!` } }], {
        "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "match", parameters: bombSchema }]),
      }),
    ]);
    const res = await post(p.key, JSON.stringify(body));
    expect(res.status).toBe(200);
    const stored = new Map((await calls(p.project.id)).map((c) => [c.metadata["otel.tool_call_id"], c]));
    expect(stored.get("huge")).toMatchObject({ arguments: { id: 1 } });
    // too deep to keep as JSON: kept as the raw text the model wrote, which is then malformed
    expect(typeof stored.get("deep")!.arguments).toBe("string");
    // the regex-bomb schema gets exactly the verdict tools.register + ingest.batch give it
    const viaApi = await project();
    const api = withKey(viaApi.key);
    await api.tools.register({ tools: [{ name: "match", parameters: bombSchema }] });
    await api.ingest.batch({
      events: [{ id: "b", runId: "r", timestamp: "2026-11-30T09:00:00Z", model: { name: "m" }, tool: "match", arguments: { s: `${"a".repeat(18)}!` } }],
    });
    const [reference] = await calls(viaApi.project.id);
    expect(stored.get("bomb")).toMatchObject({ valid: reference.valid, category: reference.category, message: reference.message });
  });
});
