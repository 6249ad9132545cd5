import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { actionableMessage } from "../adapters/otlp/explain";
import { encodeResponse, encodeStatus, UndecodableBody, type Encoding, type Signal } from "../adapters/otlp/wire";
import { DOMAIN_ERROR_STATUS } from "../domain/errors";
import { asDomainError } from "../db/unavailable";
import { logUnavailable } from "../trpc/errors";
import { whileRequestOpen } from "../db/cancel";
import { env } from "../env";
import { checkKeyScope, keyHeaderProblem } from "../services/auth/api-keys";
import { readLimited } from "./read-limited";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyWithinRate } from "../services/auth/api-key-rate";
import type { TracesResult } from "../services/otlp/traces-source";
import type { LogsResult } from "../services/otlp/logs-source";

/**
 * The OTLP/HTTP front door shared by /v1/traces, /v1/logs and /v1/metrics: protobuf or JSON,
 * optionally gzip-compressed, authorised by `Authorization: Bearer tg_…` with the ingest
 * scope, bounded by TOOLGATE_BODY_LIMIT_BYTES (after decompression) and the key's rate limit.
 * Every answer is in the request's encoding: the signal's Export…ServiceResponse (with
 * partial_success when something was rejected) or a google.rpc.Status. See docs/otlp.md.
 */

const gunzipAsync = promisify(gunzip);

/** google.rpc.Code values used in error bodies */
const RPC = { invalidArgument: 3, notFound: 5, resourceExhausted: 8, internal: 13 } as const;

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
    // no key (or no key's shape) is a 401 before anything else; the key's bucket is taken only after the cheap checks
    const keyProblem = keyHeaderProblem(req.headers.get("authorization"));
    if (keyProblem) return exportFailure(encoding, signal, keyProblem);
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
      const decompressed = body;
      const project = { id: key.projectId, slug: key.projectSlug };
      const outcome = await withProjectShare(project, `OTLP ${signal} export`, () =>
        whileRequestOpen(req.signal, () => handle(key.projectId, decompressed, encoding)),
      );
      const partial = outcome.message ? { rejected: outcome.rejected, errorMessage: outcome.message } : undefined;
      return answer(encoding, 200, encodeResponse(encoding, partial, signal));
    } catch (error) {
      return exportFailure(encoding, signal, error);
    }
  };
}

/**
 * A failed export as OTLP answers it: an undecodable body is a 400; a DomainError (or a lost
 * database, a statement past its time bound: asDomainError) gets its kind's HTTP status and
 * google.rpc.Code from the one table, DOMAIN_ERROR_STATUS; anything else is a logged 500.
 */
export function exportFailure(encoding: Encoding, signal: Signal, error: unknown): Response {
  if (error instanceof UndecodableBody) return failure(encoding, 400, RPC.invalidArgument, error.message);
  const domain = asDomainError(error);
  if (domain) {
    const status = DOMAIN_ERROR_STATUS[domain.kind];
    if (domain.kind === "unavailable") logUnavailable(`[otlp] /v1/${signal}`, error);
    const retryAfter = domain.retryAfterSeconds ?? (domain.kind === "rate_limited" ? 1 : undefined);
    return failure(encoding, status.http, status.grpc, domain.message, retryAfter ? { "Retry-After": String(retryAfter) } : {});
  }
  console.error(`[otlp] /v1/${signal}:`, error);
  return failure(encoding, 500, RPC.internal, "Internal server error: the details are in the server log.");
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
function partialMessage(count: number, noun: string, lines: string[], extra = ""): string | undefined {
  if (!lines.length) return undefined;
  const shown = lines.slice(0, 5).join("; ");
  return `${count} ${noun} rejected${extra}: ${shown}${lines.length > 5 ? `; and ${lines.length - 5} more` : ""}`;
}

/** A trace export's answer: its rejected spans and unregistered definitions, then why spans gave nothing (explain.ts). */
export function tracesOutcome(result: TracesResult): ExportOutcome {
  const extra = result.definitionProblems.length ? `, ${result.definitionProblems.length} tool definition(s) not registered` : "";
  const rejected = partialMessage(result.rejected.length, "span(s)", [...result.rejected.map((r) => r.reason), ...result.definitionProblems], extra);
  const ignored = actionableMessage(result.ignoredGroups);
  return { rejected: result.rejected.length, message: rejected && ignored ? `${rejected}. Also: ${ignored}` : (rejected ?? ignored) };
}

/** A log export's answer: its rejected records. */
export function logsOutcome(result: LogsResult): ExportOutcome {
  return {
    rejected: result.rejected.length,
    message: partialMessage(
      result.rejected.length,
      "log record(s)",
      result.rejected.map((r) => r.reason),
    ),
  };
}
