import { describe, expect, it } from "vitest";
import { projectWithKey } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";

// Why nothing landed: each export through the real route handler records its spans received,
// calls stored and the reason of each ignored group (Settings → Connect reads otlp.exports), and
// the OTLP answer's partial_success says the same sentence when spans were ignored.

const served = servedTraces();

let counter = 0;
const id = (width: number) => (++counter).toString(16).padStart(width, "0");
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const START = 1764493200000000000n;

function span(name: string, attributes: { key: string; value: unknown }[], traceId = id(32)) {
  return { traceId, spanId: id(16), name, kind: 3, startTimeUnixNano: String(START), endTimeUnixNano: String(START + 1_000_000n), attributes };
}
const chat = (...extra: { key: string; value: unknown }[]) =>
  span("chat gpt-4o-mini", [str("gen_ai.operation.name", "chat"), str("gen_ai.provider.name", "openai"), str("gen_ai.request.model", "gpt-4o-mini"), ...extra]);
const withCall = (tool: string) =>
  chat(str("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: id(8), name: tool, arguments: { q: 1 } }] }])));

const request = (scopes: Record<string, unknown[]>) => ({
  resourceSpans: [{ resource: { attributes: [] }, scopeSpans: Object.entries(scopes).map(([name, spans]) => ({ scope: { name }, spans })) }],
});

async function post(path: string, key: string, body: unknown) {
  const res = await fetch(`${served.base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { partialSuccess?: { rejectedSpans?: string; errorMessage?: string } };
}

describe("why spans of an export gave nothing", () => {
  it("records each group with its reason, and answers the ones the harness must act on in partial_success", async () => {
    const p = await projectWithKey();
    const owner = await p.asOwner();
    const answer = await post(
      "/v1/traces",
      p.key,
      request({
        "opentelemetry.instrumentation.openai_v2": [chat(), withCall("lookup")],
        "@opentelemetry/instrumentation-http": [span("GET /loans", [str("http.request.method", "GET")])],
        agent: [span("invoke_agent loans", [str("gen_ai.operation.name", "invoke_agent")])],
      }),
    );
    expect(answer.partialSuccess?.rejectedSpans ?? "0").toBe("0");
    expect(answer.partialSuccess?.errorMessage).toBe(
      "1 chat span carried no messages: enable content capture — for openai-v2 OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only — or, if the instrumentation sends the content as log records, also export logs to /v1/logs (docs/otlp.md)",
    );

    const [latest] = await owner.otlp.exports({ project: p.project.slug });
    expect(latest).toMatchObject({ spans: 4, accepted: 1, rejected: 0 });
    expect(Object.fromEntries(latest!.ignored.map((g) => [g.reason, g.count]))).toEqual({
      no_messages: 1,
      no_tool_definitions: 1,
      not_model_calls: 1,
      not_gen_ai: 1,
    });
    const sentence = (reason: string) => latest!.ignored.find((g) => g.reason === reason)!.sentence;
    expect(sentence("no_messages")).toBe(answer.partialSuccess?.errorMessage); // one source of the sentences
    expect(sentence("no_tool_definitions")).toMatch(
      /^1 tool call of lookup stored without a schema to check them against: .+register the tools \(Tools → Register tool definitions/,
    );
    expect(sentence("not_gen_ai")).toMatch(/^1 span not about generative AI/);
  });

  it("names log records as where the content went, until the project receives them; then the spans just wait", async () => {
    const p = await projectWithKey();
    const owner = await p.asOwner();
    const first = await post("/v1/traces", p.key, request({ "@opentelemetry/instrumentation-openai": [chat(), chat()] }));
    expect(first.partialSuccess?.errorMessage).toMatch(
      /^2 chat spans carried no messages because the instrumentation sends the content as log records: also export logs to \/v1\/logs/,
    );

    // a GenAI log record arrives (of some other span): from now on waiting spans are expected to be completed
    const record = {
      timeUnixNano: String(START),
      body: { stringValue: "hi" },
      attributes: [str("event.name", "gen_ai.user.message")],
      traceId: id(32),
      spanId: id(16),
    };
    await post("/v1/logs", p.key, { resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: "t" }, logRecords: [record] }] }] });
    const later = await post("/v1/traces", p.key, request({ "@opentelemetry/instrumentation-openai": [chat()] }));
    expect(later).toEqual({});
    const [latest] = await owner.otlp.exports({ project: p.project.slug });
    expect(latest!.ignored).toEqual([
      { reason: "waiting_for_logs", count: 1, sentence: expect.stringMatching(/^1 chat span without messages wait for their log records/) },
    ]);
  });

  it("keeps the newest 20 exports of a project", async () => {
    const p = await projectWithKey();
    const owner = await p.asOwner();
    for (let i = 0; i < 22; i++) await post("/v1/traces", p.key, request({ t: [withCall(`tool${i}`)] }));
    const exports = await owner.otlp.exports({ project: p.project.slug });
    expect(exports).toHaveLength(20);
    expect(exports[0]!.ignored[0]!.sentence).toContain("tool21");
  });
});
