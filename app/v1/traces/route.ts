import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { DomainError, isStoreUnavailable, storeUnavailable } from "@/server/domain/errors";
import { decodeJson, decodeProtobuf, encodeResponse, encodeStatus, UndecodableBody, type Encoding } from "@/server/domain/otlp/wire";
import { env } from "@/server/env";
import { readLimited } from "@/server/services/http/read-limited";
import { ingestTraces, type TracesResult } from "@/server/services/otlp/ingest-traces";
import { checkKeyScope } from "@/server/services/auth/api-keys";
import { whileRequestOpen } from "@/server/db/cancel";
import { withProjectShare } from "@/server/services/tenancy/shares";
import { apiKeyWithinRate } from "@/server/trpc/init";

export const dynamic = "force-dynamic";

const gunzipAsync = promisify(gunzip);

/** google.rpc.Code values used in error bodies */
const RPC = { invalidArgument: 3, permissionDenied: 7, resourceExhausted: 8, unauthenticated: 16, unavailable: 14, internal: 13 } as const;

const CONTENT_TYPES: Record<Encoding, string> = { protobuf: "application/x-protobuf", json: "application/json" };

function answer(encoding: Encoding, status: number, body: Uint8Array, headers: Record<string, string> = {}) {
  return new Response(new Uint8Array(body), { status, headers: { "Content-Type": CONTENT_TYPES[encoding], ...headers } });
}

const failure = (encoding: Encoding, status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  answer(encoding, status, encodeStatus(encoding, code, message), headers);

function tooLarge(encoding: Encoding, limit: number) {
  const message = `Request body over the limit of ${limit} bytes (after decompression): export fewer spans per request (the batch span processor's maxExportBatchSize), or raise TOOLGATE_BODY_LIMIT_BYTES.`;
  return failure(encoding, 413, RPC.resourceExhausted, message);
}

/** One line for partial_success: how many spans were unusable, and the first reasons. */
function partialMessage(result: TracesResult): string | undefined {
  const lines = [...result.rejected.map((r) => r.reason), ...result.definitionProblems];
  if (!lines.length) return undefined;
  const shown = lines.slice(0, 5).join("; ");
  return `${result.rejected.length} span(s) rejected${result.definitionProblems.length ? `, ${result.definitionProblems.length} tool definition(s) not registered` : ""}: ${shown}${lines.length > 5 ? `; and ${lines.length - 5} more` : ""}`;
}

/**
 * OTLP/HTTP trace export (`OTEL_EXPORTER_OTLP_ENDPOINT=<toolgate>`): protobuf or JSON,
 * optionally gzip-compressed, authorised by `Authorization: Bearer tg_…`. Answers an
 * ExportTraceServiceResponse in the request's encoding; spans that could not be used are
 * counted in partial_success, never failing the others. See docs/otlp.md.
 */
export async function POST(req: Request): Promise<Response> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const encoding: Encoding = type === "application/json" ? "json" : "protobuf";
  if (type !== "application/json" && type !== "application/x-protobuf") {
    return failure(
      encoding,
      415,
      RPC.invalidArgument,
      `Unsupported Content-Type "${type.slice(0, 60)}": send application/x-protobuf or application/json (OTLP/HTTP).`,
    );
  }
  try {
    const key = await apiKeyWithinRate(req.headers.get("authorization"));
    checkKeyScope(key, "ingest");
    const limit = env().TOOLGATE_BODY_LIMIT_BYTES;
    let body = await readLimited(req, limit);
    if (!body) return tooLarge(encoding, limit);
    const contentEncoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
    if (contentEncoding === "gzip") {
      try {
        body = await gunzipAsync(body, { maxOutputLength: limit });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return tooLarge(encoding, limit);
        return failure(encoding, 400, RPC.invalidArgument, `Content-Encoding is gzip but the body does not decompress (${(error as Error).message}).`);
      }
    } else if (contentEncoding !== "identity") {
      return failure(encoding, 415, RPC.invalidArgument, `Unsupported Content-Encoding "${contentEncoding.slice(0, 40)}": send gzip or no encoding.`);
    }
    const decoded = encoding === "json" ? decodeJson(body) : decodeProtobuf(body);
    const project = { id: key.projectId, slug: key.projectSlug };
    const result = await withProjectShare(project, "OTLP export", () => whileRequestOpen(req.signal, () => ingestTraces(key.projectId, decoded)));
    const message = partialMessage(result);
    return answer(encoding, 200, encodeResponse(encoding, message ? { rejectedSpans: result.rejected.length, errorMessage: message } : undefined));
  } catch (error) {
    if (error instanceof UndecodableBody) return failure(encoding, 400, RPC.invalidArgument, error.message);
    if (error instanceof DomainError) {
      if (error.kind === "unauthorized") return failure(encoding, 401, RPC.unauthenticated, error.message);
      if (error.kind === "forbidden") return failure(encoding, 403, RPC.permissionDenied, error.message);
      if (error.kind === "rate_limited") {
        return failure(encoding, 429, RPC.resourceExhausted, error.message, { "Retry-After": String(error.retryAfterSeconds ?? 1) });
      }
    }
    if (isStoreUnavailable(error)) {
      const { message, retryAfterSeconds } = storeUnavailable();
      return failure(encoding, 503, RPC.unavailable, message, { "Retry-After": String(retryAfterSeconds) });
    }
    console.error("[otlp] /v1/traces:", error);
    return failure(encoding, 500, RPC.internal, "Internal server error: the details are in the server log.");
  }
}
