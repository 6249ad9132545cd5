import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { encodeLogsRequest } from "@/server/adapters/otlp/wire";
import { makeProject, projectWithKey } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";

// This file's limits: small enough to reach in a test (env() reads them at the first request).
const LIMIT = 256 * 1024;
const RATE = 12;
process.env.TOOLGATE_BODY_LIMIT_BYTES = String(LIMIT);
process.env.TOOLGATE_API_RATE_PER_MINUTE = String(RATE);
afterAll(() => {
  delete process.env.TOOLGATE_BODY_LIMIT_BYTES;
  delete process.env.TOOLGATE_API_RATE_PER_MINUTE;
});

const served = servedTraces();
const { sql } = served;

const project = projectWithKey;

let counter = 0;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const START = 1764493200000000000n;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** A chat span as @opentelemetry/instrumentation-openai sends it: model and usage, no messages. */
function bareChatSpan(traceId: string, spanId: string, offsetMs = 0) {
  const start = START + BigInt(offsetMs) * 1_000_000n;
  return {
    traceId,
    spanId,
    name: "chat gpt-4o-mini",
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 5_000_000n),
    attributes: [str("gen_ai.operation.name", "chat"), str("gen_ai.system", "openai"), str("gen_ai.request.model", "gpt-4o-mini")],
  };
}
const traces = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans }] }] });

/** OTLP/JSON AnyValue of a plain value (bodies are kvlists, as the instrumentation sends them). */
function anyValue(v: unknown): unknown {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "number") return { intValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { kvlistValue: { values: Object.entries(v as object).map(([key, value]) => ({ key, value: anyValue(value) })) } };
}
function record(event: string, traceId: string, spanId: string, body: unknown, offsetMs = 0) {
  return {
    timeUnixNano: String(START + BigInt(offsetMs) * 1_000_000n),
    body: anyValue(body),
    attributes: [str("event.name", event), str("gen_ai.system", "openai")],
    traceId,
    spanId,
  };
}
const logs = (records: unknown[]) => ({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: "t" }, logRecords: records }] }] });
const choice = (traceId: string, spanId: string, calls: { id: string; name: string; arguments: string }[]) =>
  record("gen_ai.choice", traceId, spanId, {
    finish_reason: "tool_calls",
    index: 0,
    message: { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) },
  });

/**
 * A renamed retry as operation-details records (one per input, one per output item, as the
 * Responses API path sends them): the `first` model call writes the unknown getloans; the
 * `second`, told so, writes getloan and listopenloans.
 */
function renamedRetry(traceId: string, first: string, second: string) {
  const details = (spanId: string, key: string, messages: unknown[], offsetMs: number) => ({
    ...record("gen_ai.client.inference.operation.details", traceId, spanId, {}, offsetMs),
    attributes: [str("event.name", "gen_ai.client.inference.operation.details"), str(key, JSON.stringify(messages))],
  });
  const call = (id: string, name: string) => ({ type: "tool_call", id, name, arguments: { loannumber: "4471" } });
  const user = { role: "user", parts: [{ type: "text", content: "Balance of loan 4471, and the open loans?" }] };
  return [
    details(first, "gen_ai.input.messages", [user], 0),
    details(first, "gen_ai.output.messages", [{ role: "assistant", parts: [call("fc_typo", "getloans")] }], 1),
    details(
      second,
      "gen_ai.input.messages",
      [
        user,
        { role: "assistant", parts: [call("fc_typo", "getloans")] },
        { role: "tool", parts: [{ type: "tool_call_response", id: "fc_typo", response: "no tool named getloans" }] },
      ],
      20,
    ),
    details(second, "gen_ai.output.messages", [{ role: "assistant", parts: [call("fc_a", "getloan")] }], 21),
    details(
      second,
      "gen_ai.output.messages",
      [{ role: "assistant", parts: [{ type: "tool_call", id: "fc_b", name: "listopenloans", arguments: { status: "open" } }] }],
      22,
    ),
  ];
}

function post(path: string, key: string | null, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${served.base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    body,
  });
}

const calls = async (projectId: string) =>
  (
    await sql.query(
      `SELECT id, tool, arguments, step, run_id, model_name, result_status, result_summary FROM tool_calls WHERE project_id = $1 ORDER BY step, id`,
      [projectId],
    )
  ).rows;

/** One conversation turn pair: the model calls getloan; the next call sees the tool's answer. */
function conversation() {
  const traceId = hex(++counter, 32);
  const first = hex(++counter, 16);
  const second = hex(++counter, 16);
  return {
    traceId,
    spans: [bareChatSpan(traceId, first), bareChatSpan(traceId, second, 20)],
    records: [
      record("gen_ai.system.message", traceId, first, { content: "You are a loan assistant." }),
      record("gen_ai.user.message", traceId, first, { content: "Balance of loan 4471?" }),
      choice(traceId, first, [{ id: "call_1", name: "getloan", arguments: '{"loannumber":"4471"}' }]),
      record(
        "gen_ai.assistant.message",
        traceId,
        second,
        { tool_calls: [{ id: "call_1", type: "function", function: { name: "getloan", arguments: "{}" } }] },
        20,
      ),
      record("gen_ai.tool.message", traceId, second, { id: "call_1", content: "balance 12,300" }, 20),
      record("gen_ai.choice", traceId, second, { finish_reason: "stop", index: 0, message: { content: "It is 12,300." } }, 20),
    ],
  };
}

describe("POST /v1/logs", () => {
  it.each([
    ["spans first, then logs", ["traces", "logs"]],
    ["logs first, then spans", ["logs", "traces"]],
  ])("%s: the GenAI events join their spans into the same calls, results included; a re-send adds nothing", async (_, order) => {
    const p = await project();
    const c = conversation();
    let sent = 0;
    const send = async (which: string) => {
      const res =
        which === "traces" ? await post("/v1/traces", p.key, JSON.stringify(traces(c.spans))) : await post("/v1/logs", p.key, JSON.stringify(logs(c.records)));
      expect(res.status).toBe(200);
      // spans without messages before any log record of the project: the answer says where their content may be
      const first = which === "traces" && order[0] === "traces" && !sent++;
      expect(await res.json()).toEqual(
        first ? { partialSuccess: { rejectedSpans: "0", errorMessage: expect.stringMatching(/carried no messages.+\/v1\/logs/) } } : {},
      );
    };
    for (const which of order) await send(which);
    const stored = await calls(p.project.id);
    expect(stored).toMatchObject([
      {
        tool: "getloan",
        arguments: { loannumber: "4471" },
        step: 0,
        run_id: c.traceId,
        model_name: "gpt-4o-mini",
        result_status: "ok",
        result_summary: "balance 12,300",
      },
    ]);
    for (const which of order) await send(which);
    expect(await calls(p.project.id)).toEqual(stored);
  });

  it("operation-details records (one per input, one per output item, as the Responses API path sends them) all feed the span; the earlier turn pairs a renamed retry", async () => {
    const p = await project();
    const traceId = hex(++counter, 32);
    const [first, second] = [hex(++counter, 16), hex(++counter, 16)];
    const records = renamedRetry(traceId, first, second);
    expect((await post("/v1/traces", p.key, JSON.stringify(traces([bareChatSpan(traceId, first), bareChatSpan(traceId, second, 20)])))).status).toBe(200);
    expect((await post("/v1/logs", p.key, JSON.stringify(logs(records)))).status).toBe(200);
    const { rows } = await sql.query(
      `SELECT metadata->>'otel.tool_call_id' AS call, tool, step, corrects_id, result_summary FROM tool_calls WHERE project_id = $1 ORDER BY step, call`,
      [p.project.id],
    );
    expect(rows).toEqual([
      { call: "fc_typo", tool: "getloans", step: 0, corrects_id: null, result_summary: "no tool named getloans" },
      { call: "fc_a", tool: "getloan", step: 1, corrects_id: `otel:${traceId}:fc_typo`, result_summary: null },
      { call: "fc_b", tool: "listopenloans", step: 1, corrects_id: null, result_summary: null },
    ]);
  });

  it.each([
    ["spans first, then logs", ["traces", "logs"]],
    ["logs first, then spans", ["logs", "traces"]],
  ])("%s: model calls that started in the same millisecond take their steps in the order of the conversation their records give", async (_, order) => {
    const p = await project();
    const traceId = hex(++counter, 32);
    // the later model call has the lower span id: the id must not decide
    const [second, first] = [hex(++counter, 16), hex(++counter, 16)];
    const records = renamedRetry(traceId, first, second);
    for (const which of order) {
      const body = which === "traces" ? traces([bareChatSpan(traceId, first), bareChatSpan(traceId, second)]) : logs(records);
      expect((await post(`/v1/${which}`, p.key, JSON.stringify(body))).status).toBe(200);
    }
    const { rows } = await sql.query(
      `SELECT metadata->>'otel.tool_call_id' AS call, step, corrects_id FROM tool_calls WHERE project_id = $1 ORDER BY step, call`,
      [p.project.id],
    );
    expect(rows).toEqual([
      { call: "fc_typo", step: 0, corrects_id: null },
      { call: "fc_a", step: 1, corrects_id: `otel:${traceId}:fc_typo` },
      { call: "fc_b", step: 1, corrects_id: null },
    ]);
  });

  it("protobuf and gzip: the same records in the binary encoding are read; the answer is protobuf", async () => {
    const p = await project();
    const c = conversation();
    await post("/v1/traces", p.key, JSON.stringify(traces(c.spans)));
    // protobuf carries the ids as bytes
    const binary = c.records.map((r) => ({ ...r, traceId: Buffer.from(r.traceId, "hex"), spanId: Buffer.from(r.spanId, "hex") }));
    const body = gzipSync(encodeLogsRequest(logs(binary)));
    const res = await post("/v1/logs", p.key, body, { "Content-Type": "application/x-protobuf", "Content-Encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(new Uint8Array(await res.arrayBuffer())).toHaveLength(0); // an empty ExportLogsServiceResponse: full success
    expect(await calls(p.project.id)).toMatchObject([{ tool: "getloan", result_summary: "balance 12,300" }]);
  });

  it("partial success: records that cannot be stored or joined are counted and explained, the others used; other logs are ignored", async () => {
    const p = await project();
    const c = conversation();
    await post("/v1/traces", p.key, JSON.stringify(traces(c.spans)));
    const [traceId, spanId] = [c.traceId, c.spans[0]!.spanId];
    const body = logs([
      ...c.records,
      record("gen_ai.user.message", traceId, spanId, { content: "bad\u0000text" }),
      { ...record("gen_ai.choice", "", "", { index: 0, message: {} }), traceId: undefined, spanId: undefined },
      { timeUnixNano: "1", body: { stringValue: "GET / 200" }, attributes: [] },
    ]);
    const res = await post("/v1/logs", p.key, JSON.stringify(body));
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.partialSuccess.rejectedLogRecords).toBe("2");
    expect(answer.partialSuccess.errorMessage).toMatch(/NUL/);
    expect(answer.partialSuccess.errorMessage).toMatch(/no trace and span id/);
    expect(await calls(p.project.id)).toHaveLength(1);
  });

  it("400 for bodies that cannot be decoded, 413 above the limit (before or after gzip), 415 for other types", async () => {
    const p = await project();
    expect((await post("/v1/logs", p.key, "{nope")).status).toBe(400);
    const notRequest = await post("/v1/logs", p.key, JSON.stringify({ resourceLogs: 5 }));
    expect(notRequest.status).toBe(400);
    expect((await notRequest.json()).message).toContain("ExportLogsServiceRequest");
    const notProtobuf = await post("/v1/logs", p.key, new Uint8Array([0x0a, 0xff, 0xff, 0x01]), { "Content-Type": "application/x-protobuf" });
    expect(notProtobuf.status).toBe(400);
    expect(notProtobuf.headers.get("content-type")).toBe("application/x-protobuf");
    expect((await post("/v1/logs", p.key, "not gzip", { "Content-Encoding": "gzip" })).status).toBe(400);

    const big = JSON.stringify(logs([record("gen_ai.user.message", hex(1, 32), hex(1, 16), { content: "x".repeat(LIMIT) })]));
    const tooLarge = await post("/v1/logs", p.key, big);
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).message).toMatch(/log records per request.*TOOLGATE_BODY_LIMIT_BYTES/);
    const bomb = gzipSync(big);
    expect(bomb.byteLength).toBeLessThan(LIMIT);
    expect((await post("/v1/logs", p.key, bomb, { "Content-Encoding": "gzip" })).status).toBe(413);

    const wrongType = await post("/v1/logs", p.key, "x", { "Content-Type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect((await post("/v1/logs", p.key, "{}", { "Content-Encoding": "br" })).status).toBe(415);
  });

  it("401 without a key, 403 for a read key, 429 with Retry-After over the key's rate limit", async () => {
    expect((await post("/v1/logs", null, "{}")).status).toBe(401);
    const reader = await makeProject();
    const { key: readKey } = await reader.key("ci", "read");
    expect((await post("/v1/logs", readKey, "{}")).status).toBe(403);
    const p = await project();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i <= RATE; i++) {
      const res = await post("/v1/logs", p.key, "{}");
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe("other OTLP paths answer OTLP, never HTML", () => {
  it("/v1/metrics is accepted and ignored, in the request's encoding", async () => {
    const p = await project();
    const json = await post("/v1/metrics", p.key, JSON.stringify({ resourceMetrics: [] }));
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toEqual({});
    const proto = await post("/v1/metrics", p.key, new Uint8Array([0x0a, 0x00]), { "Content-Type": "application/x-protobuf" });
    expect(proto.status).toBe(200);
    expect(proto.headers.get("content-type")).toBe("application/x-protobuf");
  });

  it("an unknown /v1/ path is refused with a Status saying where OTLP goes", async () => {
    const json = await post("/v1/profiles", null, "{}");
    expect(json.status).toBe(404);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect((await json.json()).message).toMatch(/POST \/v1\/traces and POST \/v1\/logs/);
    const proto = await post("/v1/nothing", null, new Uint8Array(), { "Content-Type": "application/x-protobuf" });
    expect(proto.status).toBe(404);
    expect(proto.headers.get("content-type")).toBe("application/x-protobuf");
  });
});
