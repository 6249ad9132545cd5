import protobuf from "protobufjs/light.js";
import { describe, expect, it } from "vitest";
import { decodeJson, decodeProtobuf, decodeResponse, encodeRequest, encodeResponse, encodeStatus, UndecodableBody } from "./wire";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const SPAN = "b7ad6b7169203331";
const PARENT = "00f067aa0ba902b7";
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** One request in OTLP/JSON form holding the given spans under one resource and scope. */
const jsonRequest = (spans: unknown[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "loan-agent" } }] },
      scopeSpans: [{ scope: { name: "ai", version: "6" }, spans }],
    },
  ],
});

const attributes = [
  { key: "s", value: { stringValue: "text" } },
  { key: "b", value: { boolValue: false } },
  { key: "i", value: { intValue: "42" } },
  { key: "d", value: { doubleValue: 0.5 } },
  { key: "a", value: { arrayValue: { values: [{ stringValue: "x" }, { intValue: 7 }] } } },
  { key: "kv", value: { kvlistValue: { values: [{ key: "inner", value: { boolValue: true } }] } } },
  { key: "empty", value: {} },
];
const expectedAttributes = { s: "text", b: false, i: 42, d: 0.5, a: ["x", 7], kv: { inner: true }, empty: null };

describe("decodeJson", () => {
  it("reads a span: ids in any case, int64 times as strings or numbers, every attribute value type", () => {
    const { spans, problems } = decodeJson(
      json(
        jsonRequest([
          {
            traceId: TRACE.toUpperCase(),
            spanId: SPAN,
            parentSpanId: PARENT,
            name: "ai.generateText.doGenerate",
            kind: 3,
            startTimeUnixNano: "1764547200000000000",
            endTimeUnixNano: 1764547201000000000,
            attributes: [...attributes, { key: "bytes", value: { bytesValue: "AAE=" } }],
            events: [{ name: "gen_ai.choice", timeUnixNano: "1764547200500000000", attributes: [{ key: "index", value: { intValue: 0 } }] }, "not an event"],
            status: { code: 2, message: "boom" },
          },
        ]),
      ),
    );
    expect(problems).toEqual([]);
    expect(spans).toEqual([
      {
        traceId: TRACE,
        spanId: SPAN,
        parentSpanId: PARENT,
        name: "ai.generateText.doGenerate",
        kind: 3,
        startNs: 1764547200000000000n,
        endNs: 1764547201000000000n,
        attributes: { ...expectedAttributes, bytes: "AAE=" },
        events: [{ name: "gen_ai.choice", timeNs: 1764547200500000000n, attributes: { index: 0 } }],
        status: { code: 2, message: "boom" },
        resource: { "service.name": "loan-agent" },
        scope: "ai",
      },
    ]);
  });

  it("fills what a span leaves out with empty values", () => {
    const [span] = decodeJson(json({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN }] }] }] })).spans;
    expect(span).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: "",
      name: "",
      kind: 0,
      startNs: 0n,
      endNs: 0n,
      attributes: {},
      events: [],
      status: { code: 0, message: "" },
      resource: {},
      scope: "",
    });
    // a time that is not a whole number of nanoseconds reads as none, a fractional number is cut
    const times = decodeJson(json(jsonRequest([{ traceId: TRACE, spanId: SPAN, startTimeUnixNano: "1.5e9", endTimeUnixNano: 1500.7 }]))).spans[0]!;
    expect([times.startNs, times.endNs]).toEqual([0n, 1500n]);
  });

  it("rejects spans without valid ids, keeping the others", () => {
    const { spans, problems } = decodeJson(
      json(
        jsonRequest([
          { traceId: TRACE, spanId: SPAN, name: "good" },
          { traceId: TRACE.slice(2), spanId: SPAN, name: "short trace id" },
          { traceId: TRACE, spanId: `${SPAN}00`, name: "long span id" },
          { traceId: TRACE, name: "no span id" },
          42,
        ]),
      ),
    );
    expect(spans.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toEqual([
      { span: "short trace id", reason: 'span "short trace id" has no valid traceId (16 bytes) and spanId (8 bytes)' },
      { span: "long span id", reason: 'span "long span id" has no valid traceId (16 bytes) and spanId (8 bytes)' },
      { span: "no span id", reason: 'span "no span id" has no valid traceId (16 bytes) and spanId (8 bytes)' },
      { span: "?", reason: "a span that is not an object" },
    ]);
    expect(decodeJson(json(jsonRequest([{ traceId: "x", name: "n".repeat(100) }]))).problems[0]!.reason).toContain(`span "${"n".repeat(60)}" has`);
  });

  it("cuts attribute values nested deeper than 32 levels off as null", () => {
    const nested = (levels: number): unknown => (levels === 0 ? { stringValue: "leaf" } : { arrayValue: { values: [nested(levels - 1)] } });
    const depth = (value: unknown): number => (Array.isArray(value) ? 1 + depth(value[0]) : 0);
    const read = (levels: number) =>
      decodeJson(json(jsonRequest([{ traceId: TRACE, spanId: SPAN, attributes: [{ key: "deep", value: nested(levels) }] }]))).spans[0]!.attributes.deep;
    // the attribute's value is level 0: a leaf inside 32 arrays is kept, inside 33 it is cut
    expect(depth(read(32))).toBe(32);
    expect(JSON.stringify(read(32))).toContain('"leaf"');
    const cut = read(33);
    expect(depth(cut)).toBe(33);
    expect(JSON.stringify(cut)).not.toContain("leaf");
    expect(JSON.stringify(cut)).toContain("[null]");
    expect(depth(read(40))).toBe(33);
  });

  it("refuses a body that is not a trace export request", () => {
    expect(() => decodeJson(Buffer.from("{"))).toThrow(UndecodableBody);
    expect(() => decodeJson(Buffer.from("{"))).toThrow(/^The body is not JSON \(/);
    expect(() => decodeJson(json([1]))).toThrow('The body is not an ExportTraceServiceRequest: expected {"resourceSpans": [...]}.');
    expect(() => decodeJson(json({ resourceSpans: {} }))).toThrow(UndecodableBody);
    expect(decodeJson(json({}))).toEqual({ spans: [], problems: [] });
  });

  it("skips resource and scope entries that are not objects", () => {
    const body = { resourceSpans: [null, { scopeSpans: ["x", { spans: [{ traceId: TRACE, spanId: SPAN }] }] }] };
    expect(decodeJson(json(body)).spans).toHaveLength(1);
  });
});

describe("decodeProtobuf", () => {
  it("reads the same span as its OTLP/JSON form: ids from bytes, bytes values as base64", () => {
    const body = encodeRequest({
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "loan-agent" } }] },
          scopeSpans: [
            {
              scope: { name: "ai" },
              spans: [
                {
                  traceId: Buffer.from(TRACE, "hex"),
                  spanId: Buffer.from(SPAN, "hex"),
                  parentSpanId: Buffer.from(PARENT, "hex"),
                  name: "chat",
                  kind: 3,
                  startTimeUnixNano: "1764547200000000000",
                  endTimeUnixNano: "1764547201000000000",
                  attributes: [...attributes, { key: "bytes", value: { bytesValue: Buffer.from([0, 1]) } }],
                  events: [{ name: "e", timeUnixNano: "1764547200500000000" }],
                  status: { code: 1 },
                },
                { traceId: Buffer.from(TRACE, "hex"), spanId: Buffer.from([1, 2]), name: "short" },
              ],
            },
          ],
        },
      ],
    });
    const { spans, problems } = decodeProtobuf(body);
    expect(spans).toEqual([
      {
        traceId: TRACE,
        spanId: SPAN,
        parentSpanId: PARENT,
        name: "chat",
        kind: 3,
        startNs: 1764547200000000000n,
        endNs: 1764547201000000000n,
        attributes: { ...expectedAttributes, bytes: "AAE=" },
        events: [{ name: "e", timeNs: 1764547200500000000n, attributes: {} }],
        status: { code: 1, message: "" },
        resource: { "service.name": "loan-agent" },
        scope: "ai",
      },
    ]);
    expect(problems.map((p) => p.span)).toEqual(["short"]);
  });

  it("skips fields it does not know and refuses bytes that are not a protobuf message", () => {
    // field 99 (a varint) is not in the descriptor
    const unknown = protobuf.Writer.create()
      .uint32((99 << 3) | 0)
      .uint32(1)
      .finish();
    expect(decodeProtobuf(unknown)).toEqual({ spans: [], problems: [] });
    expect(() => decodeProtobuf(Buffer.from([0x0a, 0xff]))).toThrow(UndecodableBody);
    expect(() => decodeProtobuf(Buffer.from([0x0a, 0xff]))).toThrow(/^The body is not a protobuf ExportTraceServiceRequest \(/);
  });
});

describe("answers", () => {
  it("writes partial_success only when there is something to say, in both encodings", () => {
    expect(decodeResponse(encodeResponse("protobuf"))).toEqual({});
    expect(decodeResponse(encodeResponse("protobuf", { rejected: 2, errorMessage: "two spans" }))).toEqual({
      partialSuccess: { rejectedSpans: "2", errorMessage: "two spans" },
    });
    expect(JSON.parse(Buffer.from(encodeResponse("json")).toString())).toEqual({});
    // OTLP/JSON writes int64 as a string
    expect(JSON.parse(Buffer.from(encodeResponse("json", { rejected: 2, errorMessage: "two spans" })).toString())).toEqual({
      partialSuccess: { rejectedSpans: "2", errorMessage: "two spans" },
    });
  });

  it("writes errors as a google.rpc.Status", () => {
    expect(JSON.parse(Buffer.from(encodeStatus("json", 3, "bad body")).toString())).toEqual({ code: 3, message: "bad body" });
    const status = protobuf.Reader.create(encodeStatus("protobuf", 3, "bad body"));
    const fields: Record<number, unknown> = {};
    while (status.pos < status.len) {
      const tag = status.uint32();
      fields[tag >>> 3] = (tag & 7) === 0 ? status.int32() : status.string();
    }
    expect(fields).toEqual({ 1: 3, 2: "bad body" });
  });
});
