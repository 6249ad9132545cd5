import protobuf from "protobufjs/light.js";

/**
 * The OTLP/HTTP wire formats of traces and logs: binary protobuf and OTLP/JSON, decoded into
 * one plain span shape and one plain log-record shape. The protobuf descriptor below is
 * written from the field numbers of the OTLP specification (opentelemetry-proto:
 * collector/trace/v1, trace/v1, collector/logs/v1, logs/v1, collector/metrics/v1, common/v1,
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
        LogRecord: {
          fields: {
            timeUnixNano: { type: "fixed64", id: 1 },
            severityNumber: { type: "int32", id: 2 },
            severityText: { type: "string", id: 3 },
            body: { type: "AnyValue", id: 5 },
            attributes: { rule: "repeated", type: "KeyValue", id: 6 },
            traceId: { type: "bytes", id: 9 },
            spanId: { type: "bytes", id: 10 },
            observedTimeUnixNano: { type: "fixed64", id: 11 },
            eventName: { type: "string", id: 12 },
          },
        },
        ScopeLogs: { fields: { scope: { type: "InstrumentationScope", id: 1 }, logRecords: { rule: "repeated", type: "LogRecord", id: 2 } } },
        ResourceLogs: { fields: { resource: { type: "Resource", id: 1 }, scopeLogs: { rule: "repeated", type: "ScopeLogs", id: 2 } } },
        ExportLogsServiceRequest: { fields: { resourceLogs: { rule: "repeated", type: "ResourceLogs", id: 1 } } },
        ExportLogsPartialSuccess: { fields: { rejectedLogRecords: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
        ExportLogsServiceResponse: { fields: { partialSuccess: { type: "ExportLogsPartialSuccess", id: 1 } } },
        ExportMetricsPartialSuccess: { fields: { rejectedDataPoints: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
        ExportMetricsServiceResponse: { fields: { partialSuccess: { type: "ExportMetricsPartialSuccess", id: 1 } } },
        /** google.rpc.Status, the body of OTLP/HTTP error answers */
        RpcStatus: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);
const RequestType = root.lookupType("otlp.ExportTraceServiceRequest");
const LogsRequestType = root.lookupType("otlp.ExportLogsServiceRequest");
/** The three signals' answers, and the name of the count in their partial_success. */
const RESPONSES = {
  traces: { type: root.lookupType("otlp.ExportTraceServiceResponse"), count: "rejectedSpans" },
  logs: { type: root.lookupType("otlp.ExportLogsServiceResponse"), count: "rejectedLogRecords" },
  metrics: { type: root.lookupType("otlp.ExportMetricsServiceResponse"), count: "rejectedDataPoints" },
} as const;
const ResponseType = RESPONSES.traces.type;
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

/** A log record (the GenAI events are log records with an event name), tied to a span by its ids. */
export interface OtlpLogRecord {
  traceId: string;
  spanId: string;
  /** LogRecord.event_name, or the older `event.name` attribute */
  eventName: string;
  timeNs: bigint;
  body: AttrValue;
  attributes: Attributes;
}
export type DecodedLogs = { records: OtlpLogRecord[]; problems: SpanProblem[] };

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

/** Walks resourceLogs → scopeLogs → logRecords of either encoding. A record without span ids is kept with empty ids (it cannot join a span). */
function collectLogs(request: Loose, id: (v: unknown) => string, bytesToBase64: (b: unknown) => string): DecodedLogs {
  const records: OtlpLogRecord[] = [];
  const problems: SpanProblem[] = [];
  for (const rl of list(request.resourceLogs)) {
    if (!isObject(rl)) continue;
    for (const sl of list(rl.scopeLogs)) {
      if (!isObject(sl)) continue;
      for (const r of list(sl.logRecords)) {
        if (!isObject(r)) {
          problems.push({ span: "?", reason: "a log record that is not an object" });
          continue;
        }
        const attributes = keyValues(r.attributes, bytesToBase64);
        const named = attributes["event.name"];
        const eventName = typeof r.eventName === "string" && r.eventName ? r.eventName : typeof named === "string" ? named : "";
        const timeNs = nanos(r.timeUnixNano) || nanos(r.observedTimeUnixNano);
        if (timeNs > MAX_NS) {
          problems.push({
            span: eventName || "?",
            reason: `log record "${eventName.slice(0, 60)}" has a time of ${timeNs} ns, beyond what can be stored (at most 2^63 - 1 ns)`,
          });
          continue;
        }
        const traceId = id(r.traceId);
        const spanId = id(r.spanId);
        const linked = HEX_ID.trace.test(traceId) && HEX_ID.span.test(spanId);
        records.push({
          traceId: linked ? traceId : "",
          spanId: linked ? spanId : "",
          eventName,
          timeNs,
          body: anyValue(r.body, bytesToBase64),
          attributes,
        });
      }
    }
  }
  return { records, problems };
}

const bytesHex = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : "");
const bytesB64 = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : "");

/** A protobuf request body as a plain object (ids and bytes as Uint8Array, int64 as strings). */
function protobufObject(type: protobuf.Type, body: Uint8Array): Loose {
  let message;
  try {
    message = type.decode(body);
  } catch (error) {
    throw new UndecodableBody(`The body is not a protobuf ${type.name} (${(error as Error).message}).`);
  }
  return type.toObject(message, { longs: String, arrays: true }) as Loose;
}

/** An OTLP/JSON request body: an object whose `root` list, if present, is an array. */
function jsonObject(body: Uint8Array, type: string, root: string): Loose {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch (error) {
    throw new UndecodableBody(`The body is not JSON (${(error as Error).message}).`);
  }
  if (!isObject(parsed) || (parsed[root] !== undefined && !Array.isArray(parsed[root]))) {
    throw new UndecodableBody(`The body is not an ${type}: expected {"${root}": [...]}.`);
  }
  return parsed;
}

// OTLP/JSON: hex ids (any case), int64 as a string or a number, enums as integers, unknown fields ignored.
const jsonHex = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : "");
const jsonB64 = (v: unknown) => (typeof v === "string" ? v : "");

export const decodeProtobuf = (body: Uint8Array): DecodedRequest => collect(protobufObject(RequestType, body), bytesHex, bytesB64);
export const decodeJson = (body: Uint8Array): DecodedRequest => collect(jsonObject(body, "ExportTraceServiceRequest", "resourceSpans"), jsonHex, jsonB64);
export const decodeLogsProtobuf = (body: Uint8Array): DecodedLogs => collectLogs(protobufObject(LogsRequestType, body), bytesHex, bytesB64);
export const decodeLogsJson = (body: Uint8Array): DecodedLogs => collectLogs(jsonObject(body, "ExportLogsServiceRequest", "resourceLogs"), jsonHex, jsonB64);

export type Encoding = "protobuf" | "json";
export type Signal = keyof typeof RESPONSES;

/** The signal's Export…ServiceResponse, with partial_success only when something was rejected or needs saying. */
export function encodeResponse(encoding: Encoding, partial?: { rejected: number; errorMessage: string }, signal: Signal = "traces"): Uint8Array {
  const { type, count } = RESPONSES[signal];
  if (encoding === "json") {
    const body = partial ? { partialSuccess: { [count]: String(partial.rejected), errorMessage: partial.errorMessage } } : {};
    return Buffer.from(JSON.stringify(body));
  }
  const payload = partial ? { partialSuccess: { [count]: partial.rejected, errorMessage: partial.errorMessage } } : {};
  return type.encode(type.create(payload)).finish();
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

/** For tests: a protobuf ExportLogsServiceRequest from its object form. */
export function encodeLogsRequest(request: { resourceLogs: unknown[] }): Uint8Array {
  return LogsRequestType.encode(LogsRequestType.fromObject(request)).finish();
}

/** For the benchmark: a protobuf ExportTraceServiceRequest from its object form (ids as bytes, times as numbers or strings). */
export function encodeRequest(request: { resourceSpans: unknown[] }): Uint8Array {
  return RequestType.encode(RequestType.fromObject(request)).finish();
}
