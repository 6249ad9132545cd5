import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { encodeResponse, encodeStatus, UndecodableBody, type Encoding, type Signal } from "@/server/adapters/otlp/wire";
import { DomainError, isStoreUnavailable, storeUnavailable } from "@/server/domain/errors";
import { env } from "@/server/env";
import { checkKeyScope } from "@/server/services/auth/api-keys";
import { readLimited } from "@/server/services/http/read-limited";
import { apiKeyWithinRate } from "@/server/trpc/init";

/**
 * The OTLP/HTTP front door shared by /v1/traces, /v1/logs and /v1/metrics: protobuf or JSON,
 * optionally gzip-compressed, authorised by `Authorization: Bearer tg_…` with the ingest
 * scope, bounded by TOOLGATE_BODY_LIMIT_BYTES (after decompression) and the key's rate limit.
 * Every answer is in the request's encoding: the signal's Export…ServiceResponse (with
 * partial_success when something was rejected) or a google.rpc.Status. See docs/otlp.md.
 */

const gunzipAsync = promisify(gunzip);

/** google.rpc.Code values used in error bodies */
const RPC = { invalidArgument: 3, notFound: 5, permissionDenied: 7, resourceExhausted: 8, unauthenticated: 16, unavailable: 14, internal: 13 } as const;

const CONTENT_TYPES: Record<Encoding, string> = { protobuf: "application/x-protobuf", json: "application/json" };

const contentType = (req: Request) => (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
/** The encoding to answer in: JSON when the request was JSON, protobuf otherwise. */
const encodingOf = (req: Request): Encoding => (contentType(req) === "application/json" ? "json" : "protobuf");

function answer(encoding: Encoding, status: number, body: Uint8Array, headers: Record<string, string> = {}) {
  return new Response(new Uint8Array(body), { status, headers: { "Content-Type": CONTENT_TYPES[encoding], ...headers } });
}

const failure = (encoding: Encoding, status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  answer(encoding, status, encodeStatus(encoding, code, message), headers);

function tooLarge(encoding: Encoding, limit: number, signal: Signal) {
  const what = signal === "logs" ? "log records" : signal === "metrics" ? "metrics" : "spans";
  const processor = signal === "logs" ? "batch log record processor" : "batch span processor";
  const message = `Request body over the limit of ${limit} bytes (after decompression): export fewer ${what} per request (the ${processor}'s maxExportBatchSize), or raise TOOLGATE_BODY_LIMIT_BYTES.`;
  return failure(encoding, 413, RPC.resourceExhausted, message);
}

/** What a signal's handler made of one request: how many items were rejected, and the partial_success message. */
export type ExportOutcome = { rejected: number; message?: string };

/** A POST handler for one OTLP signal; `handle` decodes and stores the (decompressed) body for the key's project. */
export function otlpExport(signal: Signal, handle: (projectId: string, body: Uint8Array, encoding: Encoding) => Promise<ExportOutcome>) {
  return async function POST(req: Request): Promise<Response> {
    const type = contentType(req);
    const encoding = encodingOf(req);
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
      if (!body) return tooLarge(encoding, limit, signal);
      const contentEncoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
      if (contentEncoding === "gzip") {
        try {
          body = await gunzipAsync(body, { maxOutputLength: limit });
        } catch (error) {
          if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return tooLarge(encoding, limit, signal);
          return failure(encoding, 400, RPC.invalidArgument, `Content-Encoding is gzip but the body does not decompress (${(error as Error).message}).`);
        }
      } else if (contentEncoding !== "identity") {
        return failure(encoding, 415, RPC.invalidArgument, `Unsupported Content-Encoding "${contentEncoding.slice(0, 40)}": send gzip or no encoding.`);
      }
      const outcome = await handle(key.projectId, body, encoding);
      const partial = outcome.message ? { rejected: outcome.rejected, errorMessage: outcome.message } : undefined;
      return answer(encoding, 200, encodeResponse(encoding, partial, signal));
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
      console.error(`[otlp] /v1/${signal}:`, error);
      return failure(encoding, 500, RPC.internal, "Internal server error: the details are in the server log.");
    }
  };
}

/** Any other /v1/* path or method: a Status in the request's encoding saying where OTLP goes, never an HTML page. */
export function notAnOtlpPath(req: Request): Response {
  const path = new URL(req.url).pathname;
  return failure(
    encodingOf(req),
    404,
    RPC.notFound,
    `${req.method} ${path.slice(0, 80)} is not an OTLP/HTTP endpoint of Toolgate: it takes POST /v1/traces and POST /v1/logs, and accepts POST /v1/metrics without storing it. Set OTEL_EXPORTER_OTLP_ENDPOINT to Toolgate's base URL (without /v1/…).`,
  );
}

/** One list of "and N more" lines for partial_success. */
export function partialMessage(count: number, noun: string, lines: string[], extra = ""): string | undefined {
  if (!lines.length) return undefined;
  const shown = lines.slice(0, 5).join("; ");
  return `${count} ${noun} rejected${extra}: ${shown}${lines.length > 5 ? `; and ${lines.length - 5} more` : ""}`;
}
