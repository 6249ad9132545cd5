import protobuf from "protobufjs/light.js";
import { describe, expect, it } from "vitest";
import {
  decodeJson,
  decodeLogsJson,
  decodeLogsProtobuf,
  decodeProtobuf,
  decodeResponse,
  encodeLogsRequest,
  encodeRequest,
  encodeResponse,
  encodeStatus,
  UndecodableBody,
} from "./wire";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const SPAN = "b7ad6b7169203331";
const PARENT = "00f067aa0ba902b7";
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** A request of one span with attributes, in the object form encodeRequest takes. */
const jsonRequestBytes = () => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "loan-agent" } }] },
      scopeSpans: [{ scope: { name: "ai" }, spans: [{ traceId: Buffer.from(TRACE, "hex"), spanId: Buffer.from(SPAN, "hex"), name: "chat", attributes }] }],
    },
  ],
});

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
  it("cuts attribute values nested deeper than 32 levels off as null, as OTLP/JSON does", () => {
    const nested = (levels: number): unknown => (levels === 0 ? { stringValue: "leaf" } : { arrayValue: { values: [nested(levels - 1)] } });
    const read = (levels: number) => {
      const span = { traceId: Buffer.from(TRACE, "hex"), spanId: Buffer.from(SPAN, "hex"), attributes: [{ key: "deep", value: nested(levels) }] };
      return decodeProtobuf(encodeRequest({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] })).spans[0]!.attributes.deep;
    };
    const asJson = (levels: number) =>
      decodeJson(json(jsonRequest([{ traceId: TRACE, spanId: SPAN, attributes: [{ key: "deep", value: nested(levels) }] }]))).spans[0]!.attributes.deep;
    for (const levels of [32, 33, 40]) expect(read(levels)).toEqual(asJson(levels));
    expect(JSON.stringify(read(32))).toContain('"leaf"');
    expect(JSON.stringify(read(33))).not.toContain("leaf");
  });

  it("reads the fields of a message in any order: the resource and the scope may follow their spans", () => {
    const w = () => protobuf.Writer.create();
    const LEN = (field: number) => (field << 3) | 2;
    const value = w().uint32(LEN(1)).string("loan-agent").finish();
    const attribute = w().uint32(LEN(1)).string("service.name").uint32(LEN(2)).bytes(value).finish();
    const resource = w().uint32(LEN(1)).bytes(attribute).finish();
    const span = w().uint32(LEN(5)).string("chat").uint32(LEN(2)).bytes(Buffer.from(SPAN, "hex")).uint32(LEN(1)).bytes(Buffer.from(TRACE, "hex")).finish();
    const scope = w().uint32(LEN(1)).string("ai").finish();
    const scopeSpans = w().uint32(LEN(2)).bytes(span).uint32(LEN(1)).bytes(scope).finish();
    const resourceSpans = w().uint32(LEN(2)).bytes(scopeSpans).uint32(LEN(1)).bytes(resource).finish();
    const [read] = decodeProtobuf(w().uint32(LEN(1)).bytes(resourceSpans).finish()).spans;
    expect(read).toMatchObject({ traceId: TRACE, spanId: SPAN, name: "chat", resource: { "service.name": "loan-agent" }, scope: "ai" });
  });

  it("reads long values repeated across spans, and long values of the same length that differ, each as sent", () => {
    const definitions = JSON.stringify([{ name: "getloan", description: "Looks a loan up — by its number ✓", parameters: { type: "object" } }]).padEnd(
      600,
      " ",
    );
    const other = `${definitions.slice(0, 300)}X${definitions.slice(301)}`; // same length in bytes, one byte apart
    const values = [definitions, definitions, other, definitions, "short", other];
    const spans = values.map((value, i) => ({
      traceId: Buffer.from(TRACE, "hex"),
      spanId: Buffer.from(`${SPAN.slice(0, 15)}${i}`, "hex"),
      attributes: [{ key: "gen_ai.tool.definitions", value: { stringValue: value } }],
    }));
    const read = decodeProtobuf(encodeRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] })).spans.map((s) => s.attributes["gen_ai.tool.definitions"]);
    expect(read).toEqual(values);
    // an invalid UTF-8 sequence reads as U+FFFD, whether the value is new or repeated
    const w = () => protobuf.Writer.create();
    const LEN = (field: number) => (field << 3) | 2;
    const broken = Buffer.concat([Buffer.from("x".repeat(300)), Buffer.from([0xc3]), Buffer.from("y".repeat(300))]);
    const attribute = w()
      .uint32(LEN(1))
      .string("v")
      .uint32(LEN(2))
      .bytes(w().uint32(LEN(1)).bytes(broken).finish())
      .finish();
    const span = (i: number) =>
      w()
        .uint32(LEN(1))
        .bytes(Buffer.from(TRACE, "hex"))
        .uint32(LEN(2))
        .bytes(Buffer.from(`${SPAN.slice(0, 15)}${i}`, "hex"))
        .uint32(LEN(9))
        .bytes(attribute)
        .finish();
    const scopeSpans = w().uint32(LEN(2)).bytes(span(0)).uint32(LEN(2)).bytes(span(1)).finish();
    const body = w()
      .uint32(LEN(1))
      .bytes(w().uint32(LEN(2)).bytes(scopeSpans).finish())
      .finish();
    const text = `${"x".repeat(300)}\uFFFD${"y".repeat(300)}`;
    expect(decodeProtobuf(body).spans.map((s) => s.attributes.v)).toEqual([text, text]);
  });

  it("refuses a body whose nested message runs past its end", () => {
    const body = encodeRequest(jsonRequestBytes());
    // cut the last bytes off: the lengths of the enclosing messages now point past the body
    expect(() => decodeProtobuf(body.subarray(0, body.length - 3))).toThrow(/^The body is not a protobuf ExportTraceServiceRequest \(/);
  });
});

describe("decodeLogsProtobuf", () => {
  it("reads the same log records as their OTLP/JSON form", () => {
    const record = (ids: (hex: string) => unknown, time: (ns: string) => unknown) => ({
      timeUnixNano: time("1764547200000000000"),
      eventName: "gen_ai.user.message",
      body: { kvlistValue: { values: [{ key: "content", value: { stringValue: "hello" } }] } },
      attributes: [{ key: "gen_ai.system", value: { stringValue: "openai" } }],
      traceId: ids(TRACE),
      spanId: ids(SPAN),
    });
    const older = (ids: (hex: string) => unknown, time: (ns: string) => unknown) => ({
      observedTimeUnixNano: time("1764547200500000000"),
      body: { stringValue: "x" },
      attributes: [{ key: "event.name", value: { stringValue: "gen_ai.choice" } }],
      traceId: ids("00"),
    });
    const request = (ids: (hex: string) => unknown, time: (ns: string) => unknown) => ({
      resourceLogs: [{ scopeLogs: [{ scope: { name: "openai" }, logRecords: [record(ids, time), older(ids, time)] }] }],
    });
    const fromProtobuf = decodeLogsProtobuf(
      encodeLogsRequest(
        request(
          (h) => Buffer.from(h, "hex"),
          (ns) => ns,
        ),
      ),
    );
    expect(fromProtobuf).toEqual(
      decodeLogsJson(
        json(
          request(
            (h) => h,
            (ns) => ns,
          ),
        ),
      ),
    );
    expect(fromProtobuf.records).toEqual([
      {
        traceId: TRACE,
        spanId: SPAN,
        eventName: "gen_ai.user.message",
        timeNs: 1764547200000000000n,
        body: { content: "hello" },
        attributes: { "gen_ai.system": "openai" },
      },
      { traceId: "", spanId: "", eventName: "gen_ai.choice", timeNs: 1764547200500000000n, body: "x", attributes: { "event.name": "gen_ai.choice" } },
    ]);
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
