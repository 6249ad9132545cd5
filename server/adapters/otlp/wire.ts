import protobuf from "protobufjs/light.js";

/**
 * The OTLP/HTTP trace wire formats: binary protobuf and OTLP/JSON, decoded into one plain
 * span shape. The protobuf descriptor below is written from the field numbers of the
 * OTLP specification (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1,
 * resource/v1) and only holds what Toolgate reads; unknown fields are skipped by the decoder.
 */
const descriptor = {
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
          fields: {
            stringValue: { type: "string", id: 1 },
            boolValue: { type: "bool", id: 2 },
            intValue: { type: "int64", id: 3 },
            doubleValue: { type: "double", id: 4 },
            arrayValue: { type: "ArrayValue", id: 5 },
            kvlistValue: { type: "KeyValueList", id: 6 },
            bytesValue: { type: "bytes", id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: "repeated", type: "AnyValue", id: 1 } } },
        KeyValueList: { fields: { values: { rule: "repeated", type: "KeyValue", id: 1 } } },
        KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
        Resource: { fields: { attributes: { rule: "repeated", type: "KeyValue", id: 1 } } },
        InstrumentationScope: { fields: { name: { type: "string", id: 1 }, version: { type: "string", id: 2 } } },
        Status: { fields: { message: { type: "string", id: 2 }, code: { type: "int32", id: 3 } } },
        Event: {
          fields: { timeUnixNano: { type: "fixed64", id: 1 }, name: { type: "string", id: 2 }, attributes: { rule: "repeated", type: "KeyValue", id: 3 } },
        },
        Span: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            parentSpanId: { type: "bytes", id: 4 },
            name: { type: "string", id: 5 },
            kind: { type: "int32", id: 6 },
            startTimeUnixNano: { type: "fixed64", id: 7 },
            endTimeUnixNano: { type: "fixed64", id: 8 },
            attributes: { rule: "repeated", type: "KeyValue", id: 9 },
            events: { rule: "repeated", type: "Event", id: 11 },
            status: { type: "Status", id: 15 },
          },
        },
        ScopeSpans: { fields: { scope: { type: "InstrumentationScope", id: 1 }, spans: { rule: "repeated", type: "Span", id: 2 } } },
        ResourceSpans: { fields: { resource: { type: "Resource", id: 1 }, scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 } } },
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: "repeated", type: "ResourceSpans", id: 1 } } },
        ExportTracePartialSuccess: { fields: { rejectedSpans: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
        ExportTraceServiceResponse: { fields: { partialSuccess: { type: "ExportTracePartialSuccess", id: 1 } } },
        /** google.rpc.Status, the body of OTLP/HTTP error answers */
        RpcStatus: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);
const RequestType = root.lookupType("otlp.ExportTraceServiceRequest");
const ResponseType = root.lookupType("otlp.ExportTraceServiceResponse");
const RpcStatusType = root.lookupType("otlp.RpcStatus");

/** An attribute value: AnyValue as plain JSON (int64 as a number, bytes as base64). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  events: { name: string; timeNs: bigint; attributes: Attributes }[];
  status: { code: number; message: string };
  resource: Attributes;
  scope: string;
}

/** A span that could not be read, with the reason (becomes part of partial_success). */
export type SpanProblem = { span: string; reason: string };
export type DecodedRequest = { spans: OtlpSpan[]; problems: SpanProblem[] };

export class UndecodableBody extends Error {}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const MAX_DEPTH = 32;

/** AnyValue (protobufjs object or OTLP/JSON) → plain value. Nesting deeper than 32 levels is cut off as null. */
function anyValue(v: unknown, bytesToBase64: (b: unknown) => string, depth = 0): AttrValue {
  if (!isObject(v) || depth > MAX_DEPTH) return null;
  if (typeof v.stringValue === "string") return v.stringValue;
  if (typeof v.boolValue === "boolean") return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return Number(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (isObject(v.arrayValue)) return list(v.arrayValue.values).map((item) => anyValue(item, bytesToBase64, depth + 1));
  if (isObject(v.kvlistValue)) return keyValues(v.kvlistValue.values, bytesToBase64, depth + 1);
  if (v.bytesValue !== undefined && v.bytesValue !== null) return bytesToBase64(v.bytesValue);
  return null;
}

function keyValues(items: unknown, bytesToBase64: (b: unknown) => string, depth = 0): Attributes {
  const out: Attributes = {};
  for (const item of list(items)) {
    if (isObject(item) && typeof item.key === "string") out[item.key] = anyValue(item.value, bytesToBase64, depth);
  }
  return out;
}

const HEX_ID = { trace: /^[0-9a-f]{32}$/, span: /^[0-9a-f]{16}$/ };

/** int8, the column type of stored span times: 2^63 - 1 ns is in the year 2262. */
const MAX_NS = 2n ** 63n - 1n;

function nanos(v: unknown): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === "string" && /^\d{1,20}$/.test(v)) return BigInt(v);
  return 0n;
}

/** Walks resourceSpans → scopeSpans → spans of either encoding, reading ids with `id`. */
function collect(request: Loose, id: (v: unknown) => string, bytesToBase64: (b: unknown) => string): DecodedRequest {
  const spans: OtlpSpan[] = [];
  const problems: SpanProblem[] = [];
  for (const rs of list(request.resourceSpans)) {
    if (!isObject(rs)) continue;
    const resource = keyValues(isObject(rs.resource) ? rs.resource.attributes : [], bytesToBase64);
    for (const ss of list(rs.scopeSpans)) {
      if (!isObject(ss)) continue;
      const scope = isObject(ss.scope) && typeof ss.scope.name === "string" ? ss.scope.name : "";
      for (const s of list(ss.spans)) {
        if (!isObject(s)) {
          problems.push({ span: "?", reason: "a span that is not an object" });
          continue;
        }
        const traceId = id(s.traceId);
        const spanId = id(s.spanId);
        const name = typeof s.name === "string" ? s.name : "";
        if (!HEX_ID.trace.test(traceId) || !HEX_ID.span.test(spanId)) {
          problems.push({ span: name || "?", reason: `span "${name.slice(0, 60)}" has no valid traceId (16 bytes) and spanId (8 bytes)` });
          continue;
        }
        const startNs = nanos(s.startTimeUnixNano);
        const endNs = nanos(s.endTimeUnixNano);
        if (startNs > MAX_NS || endNs > MAX_NS) {
          problems.push({
            span: name || "?",
            reason: `span "${name.slice(0, 60)}" has a start time of ${startNs} ns or an end time of ${endNs} ns, beyond what can be stored (at most 2^63 - 1 ns, in the year 2262): send times as unix nanoseconds`,
          });
          continue;
        }
        const status = isObject(s.status) ? s.status : {};
        spans.push({
          traceId,
          spanId,
          parentSpanId: id(s.parentSpanId),
          name,
          kind: Number(s.kind ?? 0),
          startNs,
          endNs,
          attributes: keyValues(s.attributes, bytesToBase64),
          events: list(s.events).flatMap((e) =>
            isObject(e)
              ? [{ name: typeof e.name === "string" ? e.name : "", timeNs: nanos(e.timeUnixNano), attributes: keyValues(e.attributes, bytesToBase64) }]
              : [],
          ),
          status: { code: Number(status.code ?? 0), message: typeof status.message === "string" ? status.message : "" },
          resource,
          scope,
        });
      }
    }
  }
  return { spans, problems };
}

const bytesHex = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : "");
const bytesB64 = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : "");

export function decodeProtobuf(body: Uint8Array): DecodedRequest {
  let message;
  try {
    message = RequestType.decode(body);
  } catch (error) {
    throw new UndecodableBody(`The body is not a protobuf ExportTraceServiceRequest (${(error as Error).message}).`);
  }
  const object = RequestType.toObject(message, { longs: String, arrays: true }) as Loose;
  return collect(object, bytesHex, bytesB64);
}

/** OTLP/JSON: hex ids (any case), int64 as a string or a number, enums as integers, unknown fields ignored. */
export function decodeJson(body: Uint8Array): DecodedRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch (error) {
    throw new UndecodableBody(`The body is not JSON (${(error as Error).message}).`);
  }
  if (!isObject(parsed) || (parsed.resourceSpans !== undefined && !Array.isArray(parsed.resourceSpans))) {
    throw new UndecodableBody('The body is not an ExportTraceServiceRequest: expected {"resourceSpans": [...]}.');
  }
  const hex = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : "");
  const b64 = (v: unknown) => (typeof v === "string" ? v : "");
  return collect(parsed, hex, b64);
}

export type Encoding = "protobuf" | "json";

/** The ExportTraceServiceResponse, with partial_success only when something was rejected or needs saying. */
export function encodeResponse(encoding: Encoding, partial?: { rejectedSpans: number; errorMessage: string }): Uint8Array {
  if (encoding === "json") {
    const body = partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {};
    return Buffer.from(JSON.stringify(body));
  }
  const payload = partial ? { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } } : {};
  return ResponseType.encode(ResponseType.create(payload)).finish();
}

/** A google.rpc.Status error body (OTLP/HTTP failures). */
export function encodeStatus(encoding: Encoding, code: number, message: string): Uint8Array {
  if (encoding === "json") return Buffer.from(JSON.stringify({ code, message }));
  return RpcStatusType.encode(RpcStatusType.create({ code, message })).finish();
}

/** For tests and the benchmark: decode an answer of ours. */
export function decodeResponse(body: Uint8Array): { partialSuccess?: { rejectedSpans: string; errorMessage: string } } {
  return ResponseType.toObject(ResponseType.decode(body), { longs: String }) as never;
}

/** For the benchmark: a protobuf ExportTraceServiceRequest from its object form (ids as bytes, times as numbers or strings). */
export function encodeRequest(request: { resourceSpans: unknown[] }): Uint8Array {
  return RequestType.encode(RequestType.fromObject(request)).finish();
}
