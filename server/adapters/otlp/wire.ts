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

// OTLP/JSON: hex ids (any case), int64 as a string or a number, bytes as base64, enums as integers, unknown fields ignored.
const jsonHex = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : "");

/** An OTLP/JSON AnyValue → plain value. Nesting deeper than 32 levels is cut off as null. */
function anyValue(v: unknown, depth = 0): AttrValue {
  if (!isObject(v) || depth > MAX_DEPTH) return null;
  if (typeof v.stringValue === "string") return v.stringValue;
  if (typeof v.boolValue === "boolean") return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return Number(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (isObject(v.arrayValue)) return list(v.arrayValue.values).map((item) => anyValue(item, depth + 1));
  if (isObject(v.kvlistValue)) return keyValues(v.kvlistValue.values, depth + 1);
  if (v.bytesValue !== undefined && v.bytesValue !== null) return typeof v.bytesValue === "string" ? v.bytesValue : "";
  return null;
}

function keyValues(items: unknown, depth = 0): Attributes {
  const out: Attributes = {};
  for (const item of list(items)) {
    if (isObject(item) && typeof item.key === "string") out[item.key] = anyValue(item.value, depth);
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

/** Why a span cannot be stored (no valid ids, a time beyond int8), or undefined. */
function spanProblem(s: { traceId: string; spanId: string; name: string; startNs: bigint; endNs: bigint }): string | undefined {
  if (!HEX_ID.trace.test(s.traceId) || !HEX_ID.span.test(s.spanId)) return `span "${s.name.slice(0, 60)}" has no valid traceId (16 bytes) and spanId (8 bytes)`;
  if (s.startNs > MAX_NS || s.endNs > MAX_NS) {
    return `span "${s.name.slice(0, 60)}" has a start time of ${s.startNs} ns or an end time of ${s.endNs} ns, beyond what can be stored (at most 2^63 - 1 ns, in the year 2262): send times as unix nanoseconds`;
  }
  return undefined;
}

/** Keeps a decoded span, or says why it cannot be stored. */
function keepSpan(span: OtlpSpan, out: DecodedRequest) {
  const problem = spanProblem(span);
  if (problem) out.problems.push({ span: span.name || "?", reason: problem });
  else out.spans.push(span);
}

/** A decoded log record, or why it cannot be stored. A record without span ids is kept with empty ids (it cannot join a span). */
function keepLogRecord(r: OtlpLogRecord, out: DecodedLogs) {
  if (r.timeNs > MAX_NS) {
    out.problems.push({
      span: r.eventName || "?",
      reason: `log record "${r.eventName.slice(0, 60)}" has a time of ${r.timeNs} ns, beyond what can be stored (at most 2^63 - 1 ns)`,
    });
    return;
  }
  const linked = HEX_ID.trace.test(r.traceId) && HEX_ID.span.test(r.spanId);
  out.records.push(linked ? r : { ...r, traceId: "", spanId: "" });
}

/** LogRecord.event_name, or the older `event.name` attribute. */
const eventNameOf = (eventName: unknown, attributes: Attributes) => {
  const named = attributes["event.name"];
  return typeof eventName === "string" && eventName ? eventName : typeof named === "string" ? named : "";
};

/** Walks resourceSpans → scopeSpans → spans of an OTLP/JSON request. */
function collect(request: Loose): DecodedRequest {
  const out: DecodedRequest = { spans: [], problems: [] };
  for (const rs of list(request.resourceSpans)) {
    if (!isObject(rs)) continue;
    const resource = keyValues(isObject(rs.resource) ? rs.resource.attributes : []);
    for (const ss of list(rs.scopeSpans)) {
      if (!isObject(ss)) continue;
      const scope = isObject(ss.scope) && typeof ss.scope.name === "string" ? ss.scope.name : "";
      for (const s of list(ss.spans)) {
        if (!isObject(s)) {
          out.problems.push({ span: "?", reason: "a span that is not an object" });
          continue;
        }
        const status = isObject(s.status) ? s.status : {};
        keepSpan(
          {
            traceId: jsonHex(s.traceId),
            spanId: jsonHex(s.spanId),
            parentSpanId: jsonHex(s.parentSpanId),
            name: typeof s.name === "string" ? s.name : "",
            kind: Number(s.kind ?? 0),
            startNs: nanos(s.startTimeUnixNano),
            endNs: nanos(s.endTimeUnixNano),
            attributes: keyValues(s.attributes),
            events: list(s.events).flatMap((e) =>
              isObject(e) ? [{ name: typeof e.name === "string" ? e.name : "", timeNs: nanos(e.timeUnixNano), attributes: keyValues(e.attributes) }] : [],
            ),
            status: { code: Number(status.code ?? 0), message: typeof status.message === "string" ? status.message : "" },
            resource,
            scope,
          },
          out,
        );
      }
    }
  }
  return out;
}

/** Walks resourceLogs → scopeLogs → logRecords of an OTLP/JSON request. */
function collectLogs(request: Loose): DecodedLogs {
  const out: DecodedLogs = { records: [], problems: [] };
  for (const rl of list(request.resourceLogs)) {
    if (!isObject(rl)) continue;
    for (const sl of list(rl.scopeLogs)) {
      if (!isObject(sl)) continue;
      for (const r of list(sl.logRecords)) {
        if (!isObject(r)) {
          out.problems.push({ span: "?", reason: "a log record that is not an object" });
          continue;
        }
        const attributes = keyValues(r.attributes);
        keepLogRecord(
          {
            traceId: jsonHex(r.traceId),
            spanId: jsonHex(r.spanId),
            eventName: eventNameOf(r.eventName, attributes),
            timeNs: nanos(r.timeUnixNano) || nanos(r.observedTimeUnixNano),
            body: anyValue(r.body),
            attributes,
          },
          out,
        );
      }
    }
  }
  return out;
}

/*
 * Protobuf, read straight into the plain shapes above with protobufjs's Reader (no message
 * objects to copy: decoding cost and garbage per span were the largest part of an export's
 * CPU, docs/PERFORMANCE.md). Field numbers as in the descriptor; a field of another number or
 * wire type is skipped, as protobuf decoders do.
 */
type Reader = protobuf.Reader;
const VARINT = 0;
const I64 = 1;
const LEN = 2;

/** The end of the length-delimited field that starts here; a length past the body is an error. */
function fieldEnd(r: Reader): number {
  const end = r.uint32() + r.pos;
  if (end > r.len) throw new RangeError(`index out of range: ${end} > ${r.len}`);
  return end;
}

/** Reads each field of the message ending at `end`; `read` returns false for a field it does not take, which is skipped. */
function readFields(r: Reader, end: number, read: (field: number, wireType: number) => boolean) {
  while (r.pos < end) {
    const tag = r.uint32();
    if (!read(tag >>> 3, tag & 7)) r.skipType(tag & 7);
  }
}

/** fixed64 as an unsigned bigint (unix nanoseconds do not fit a double). */
function readFixed64(r: Reader): bigint {
  const low = r.fixed32();
  return (BigInt(r.fixed32()) << 32n) | BigInt(low);
}

const base64 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");

/** A length-delimited bytes field as hex, read from the body without copying it first (readProtobuf's reader holds a Buffer). */
function readHex(r: Reader): string {
  const end = fieldEnd(r);
  const start = r.pos;
  r.pos = end;
  return (r.buf as Buffer).toString("hex", start, end);
}

/**
 * Instrumentations repeat long attribute values on every span of an export (the tool
 * definitions, about 1 KB on each model-call span): a string of REPEATED_BYTES or more with the
 * same bytes as the last string of its length in the body is that string again, not decoded
 * again (less to decode, to hash where it is looked up, and to hold while the export is written).
 */
const REPEATED_BYTES = 256;
let lastOfLength: Map<number, { start: number; value: string }> | undefined;

/** A length-delimited string field (as UTF-8, invalid bytes replaced, as Reader.string does). */
function readString(r: Reader): string {
  const end = fieldEnd(r);
  const start = r.pos;
  const buffer = r.buf as Buffer;
  r.pos = end;
  if (end - start < REPEATED_BYTES || !lastOfLength) return buffer.toString("utf8", start, end);
  const last = lastOfLength.get(end - start);
  if (last && buffer.compare(buffer, last.start, last.start + end - start, start, end) === 0) return last.value;
  const value = buffer.toString("utf8", start, end);
  lastOfLength.set(end - start, { start, value });
  return value;
}

/*
 * The three functions below run for every attribute of every span, so they loop over their
 * fields themselves (as readFields does, without a callback to allocate per call).
 */

/** AnyValue → plain value, as anyValue does for OTLP/JSON; nesting deeper than MAX_DEPTH is skipped and read as null. */
function readAnyValue(r: Reader, end: number, depth: number): AttrValue {
  if (depth > MAX_DEPTH) {
    r.pos = end;
    return null;
  }
  let value: AttrValue = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === LEN) value = readString(r);
    else if (field === 2 && wireType === VARINT) value = r.bool();
    else if (field === 3 && wireType === VARINT) value = Number(String(r.int64()));
    else if (field === 4 && wireType === I64) value = r.double();
    else if (field === 5 && wireType === LEN) {
      const items: AttrValue[] = [];
      readFields(r, fieldEnd(r), (f, w) => f === 1 && w === LEN && items.push(readAnyValue(r, fieldEnd(r), depth + 1)) > 0);
      value = items;
    } else if (field === 6 && wireType === LEN) value = readKeyValues(r, fieldEnd(r), depth + 1, {});
    else if (field === 7 && wireType === LEN) value = base64(r.bytes());
    else r.skipType(wireType);
  }
  return value;
}

/** One KeyValue into `out`. */
function readKeyValue(r: Reader, end: number, depth: number, out: Attributes) {
  let key: string | undefined;
  let value: AttrValue = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === LEN) key = r.string();
    else if (field === 2 && wireType === LEN) value = readAnyValue(r, fieldEnd(r), depth);
    else r.skipType(wireType);
  }
  if (key !== undefined) out[key] = value;
}

/** The KeyValues (field 1) of a KeyValueList or Resource into `out`. */
function readKeyValues(r: Reader, end: number, depth: number, out: Attributes): Attributes {
  readFields(r, end, (field, wireType) => field === 1 && wireType === LEN && (readKeyValue(r, fieldEnd(r), depth, out), true));
  return out;
}

/** InstrumentationScope's name. */
function readScopeName(r: Reader, end: number): string {
  let name = "";
  readFields(r, end, (field, wireType) => field === 1 && wireType === LEN && ((name = r.string()), true));
  return name;
}

function readSpan(r: Reader, end: number, resource: Attributes, scope: string): OtlpSpan {
  const span: OtlpSpan = {
    traceId: "",
    spanId: "",
    parentSpanId: "",
    name: "",
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    events: [],
    status: { code: 0, message: "" },
    resource,
    scope,
  };
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === LEN) {
      if (field === 1) span.traceId = readHex(r);
      else if (field === 2) span.spanId = readHex(r);
      else if (field === 4) span.parentSpanId = readHex(r);
      else if (field === 5) span.name = r.string();
      else if (field === 9) readKeyValue(r, fieldEnd(r), 0, span.attributes);
      else if (field === 11) span.events.push(readEvent(r, fieldEnd(r)));
      else if (field === 15) span.status = readStatus(r, fieldEnd(r));
      else r.skipType(wireType);
    } else if (field === 6 && wireType === VARINT) span.kind = r.int32();
    else if (field === 7 && wireType === I64) span.startNs = readFixed64(r);
    else if (field === 8 && wireType === I64) span.endNs = readFixed64(r);
    else r.skipType(wireType);
  }
  return span;
}

function readEvent(r: Reader, end: number): OtlpSpan["events"][number] {
  const event = { name: "", timeNs: 0n, attributes: {} as Attributes };
  readFields(r, end, (field, wireType) => {
    if (field === 1 && wireType === I64) event.timeNs = readFixed64(r);
    else if (field === 2 && wireType === LEN) event.name = r.string();
    else if (field === 3 && wireType === LEN) readKeyValue(r, fieldEnd(r), 0, event.attributes);
    else return false;
    return true;
  });
  return event;
}

function readStatus(r: Reader, end: number): OtlpSpan["status"] {
  const status = { code: 0, message: "" };
  readFields(r, end, (field, wireType) => {
    if (field === 2 && wireType === LEN) status.message = r.string();
    else if (field === 3 && wireType === VARINT) status.code = r.int32();
    else return false;
    return true;
  });
  return status;
}

/**
 * The ResourceSpans / ResourceLogs → Scope… → items walk, whatever order the fields come in:
 * `readItem` reads one span or record (field 2 of the scope message) given its resource and scope.
 */
function readResources<T>(r: Reader, readItem: (r: Reader, end: number, resource: Attributes, scope: string) => T): T[] {
  const all: T[] = [];
  readFields(r, r.len, (field, wireType) => {
    if (field !== 1 || wireType !== LEN) return false;
    const resource: Attributes = {};
    const scopes: { end: number; start: number }[] = [];
    readFields(r, fieldEnd(r), (f, w) => {
      if (w !== LEN || (f !== 1 && f !== 2)) return false;
      const end = fieldEnd(r);
      if (f === 1) readKeyValues(r, end, 0, resource);
      else scopes.push({ start: r.pos, end });
      r.pos = end;
      return true;
    });
    const after = r.pos;
    for (const { start, end } of scopes) {
      // the scope may come after its items: find its name first, then read the items
      r.pos = start;
      let scope = "";
      readFields(r, end, (f, w) => f === 1 && w === LEN && ((scope = readScopeName(r, fieldEnd(r))), true));
      r.pos = start;
      readFields(r, end, (f, w) => f === 2 && w === LEN && (all.push(readItem(r, fieldEnd(r), resource, scope)), true));
    }
    r.pos = after;
    return true;
  });
  return all;
}

/** A log record as sent (its event name field only, and its observed time apart): decodeLogsProtobuf completes it. */
function readLogRecord(r: Reader, end: number): OtlpLogRecord & { observedNs: bigint } {
  const record = { traceId: "", spanId: "", eventName: "", timeNs: 0n, observedNs: 0n, body: null as AttrValue, attributes: {} as Attributes };
  readFields(r, end, (field, wireType) => {
    if (wireType === LEN) {
      if (field === 5) record.body = readAnyValue(r, fieldEnd(r), 0);
      else if (field === 6) readKeyValue(r, fieldEnd(r), 0, record.attributes);
      else if (field === 9) record.traceId = readHex(r);
      else if (field === 10) record.spanId = readHex(r);
      else if (field === 12) record.eventName = r.string();
      else return false;
    } else if (field === 1 && wireType === I64) record.timeNs = readFixed64(r);
    else if (field === 11 && wireType === I64) record.observedNs = readFixed64(r);
    else return false;
    return true;
  });
  return record;
}

/** A protobuf request body read with `read`; bytes that are not such a message are refused. */
function readProtobuf<T>(typeName: string, body: Uint8Array, read: (r: Reader) => T): T {
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  lastOfLength = new Map();
  try {
    return read(protobuf.Reader.create(buffer));
  } catch (error) {
    throw new UndecodableBody(`The body is not a protobuf ${typeName} (${(error as Error).message}).`);
  } finally {
    lastOfLength = undefined;
  }
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

export const decodeProtobuf = (body: Uint8Array): DecodedRequest =>
  readProtobuf("ExportTraceServiceRequest", body, (r) => {
    const out: DecodedRequest = { spans: [], problems: [] };
    for (const span of readResources(r, readSpan)) keepSpan(span, out);
    return out;
  });
export const decodeJson = (body: Uint8Array): DecodedRequest => collect(jsonObject(body, "ExportTraceServiceRequest", "resourceSpans"));
export const decodeLogsProtobuf = (body: Uint8Array): DecodedLogs =>
  readProtobuf("ExportLogsServiceRequest", body, (r) => {
    const out: DecodedLogs = { records: [], problems: [] };
    for (const { observedNs, ...record } of readResources(r, readLogRecord)) {
      keepLogRecord({ ...record, eventName: eventNameOf(record.eventName, record.attributes), timeNs: record.timeNs || observedNs }, out);
    }
    return out;
  });
export const decodeLogsJson = (body: Uint8Array): DecodedLogs => collectLogs(jsonObject(body, "ExportLogsServiceRequest", "resourceLogs"));

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
