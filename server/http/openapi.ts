import { API_KEY_ANSWERS } from "../../contracts/api-answers";
import { eventJsonSchema, jsonSchemaOf } from "../../contracts/json-schema";
import type { z } from "zod";
import { appRouter } from "../routers/root";
import type { ProcedureMeta } from "../trpc/init";

/**
 * The published contract: every procedure an API key can call (contracts/api-answers.ts lists
 * them with their `.output()`) and the OTLP/HTTP endpoints, as an OpenAPI 3.1 document made from
 * the zod contracts with zod's own `z.toJSONSchema`. Written to contracts/generated/openapi.json
 * by `npm run contracts`, served at GET /api/openapi.json, fuzzed by schemathesis
 * (`npm run test:api-fuzz`). The tRPC wire is described as it is: POST /api/trpc/<procedure>
 * with the input as the JSON body (queries too: the route allows the method override), the
 * answer `{ result: { data } }`, a refusal `{ error: { message, code, data } }`.
 */

type Schema = Record<string, unknown>;
type ProcedureDef = { type: "query" | "mutation"; inputs: z.ZodType[]; output?: z.ZodType; meta?: ProcedureMeta };

/** The scope of key an operation takes, as `x-api-key-scope` (what `npm run test:api-fuzz` sends each operation) and in words. */
const SCOPE_TEXT: Record<NonNullable<ProcedureMeta["apiKeyScope"]>, string> = {
  ingest: "Takes a key of the ingest scope (a read key is refused with 403).",
  read: "Takes a key of the read scope (an ingest key is refused with 403).",
  any: "Takes a key of either scope.",
};
const scopeOf = (scope: NonNullable<ProcedureMeta["apiKeyScope"]>) => ({ "x-api-key-scope": scope });

/**
 * A contract's schema for the document: without its dialect (the document's is 2020-12), and a
 * tuple whose members share one schema (a pair of tool names) written as `items` with its length:
 * the same set of values, which schemathesis 4.32 reads (it takes `prefixItems` in an answer for
 * an `items` list and calls the document invalid).
 */
function forDocument({ $schema: _dialect, ...schema }: Schema): Schema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== "object") return node;
    const entries = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    const members = entries.prefixItems;
    if (Array.isArray(members) && members.length > 0 && entries.items === false && members.every((m) => JSON.stringify(m) === JSON.stringify(members[0]))) {
      const { prefixItems: _tuple, ...rest } = entries;
      return { ...rest, items: members[0], minItems: members.length, maxItems: members.length };
    }
    return entries;
  };
  return walk(schema) as Schema;
}

/** tRPC parses the input with each of the procedure's input parsers (the key's optional `project`, then its own) and merges the results. */
function mergedInput(name: string, inputs: z.ZodType[]): Schema {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  for (const input of inputs) {
    const schema = forDocument(jsonSchemaOf(input, "input"));
    if (schema.type !== "object" || schema.additionalProperties === false) throw new Error(`${name}: an input that is not a plain object cannot be merged`);
    Object.assign(properties, schema.properties);
    for (const key of (schema.required as string[] | undefined) ?? []) required.add(key);
  }
  return required.size ? { type: "object", properties, required: [...required] } : { type: "object", properties };
}

const json = (schema: Schema) => ({ "application/json": { schema } });

const trpcError: Schema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["message", "code", "data"],
      properties: {
        message: { type: "string", description: "What was wrong, what was sent and how to fix it." },
        code: { type: "integer", description: "The JSON-RPC code tRPC gives the error." },
        data: {
          type: "object",
          required: ["code", "httpStatus"],
          properties: {
            code: { type: "string", description: "tRPC's error code, such as BAD_REQUEST or UNAUTHORIZED." },
            httpStatus: { type: "integer" },
            path: { type: "string" },
            issues: { type: "array", items: { type: "object" }, description: "For an invalid input: each problem with its path." },
          },
        },
      },
    },
  },
};

const retryAfter = { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "string" } } };

const TRPC_REFUSALS: Record<string, { description: string; headers?: Schema }> = {
  "400": { description: "The input does not match the schema (each problem named in `error.data.issues`), or the body is not JSON." },
  "401": { description: "No API key, or one Toolgate does not know." },
  "403": { description: "The key lacks the scope, or names another project than its own." },
  "404": { description: "Something the input names does not exist (a tool, a version)." },
  "413": { description: "The body is over TOOLGATE_BODY_LIMIT_BYTES." },
  "415": { description: "The body is not sent as application/json (tRPC needs the Content-Type)." },
  "429": { description: "The key's rate limit.", headers: retryAfter },
  "503": { description: "The database is unavailable for now.", headers: retryAfter },
};

function procedurePath(name: string, output: z.ZodType) {
  const def = (appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>)[name]?._def;
  if (!def) throw new Error(`${name} is listed in contracts/api-answers.ts but the router has no such procedure`);
  const scope = def.meta?.apiKeyScope;
  if (!scope) throw new Error(`${name} is listed in contracts/api-answers.ts but takes no API key (it is not an apiKeyProcedure)`);
  const input = mergedInput(name, def.inputs);
  const responses: Record<string, unknown> = {
    "200": {
      description: "The answer.",
      content: json({
        type: "object",
        required: ["result"],
        properties: { result: { type: "object", required: ["data"], properties: { data: forDocument(jsonSchemaOf(output, "output")) } } },
      }),
    },
  };
  for (const [status, refusal] of Object.entries(TRPC_REFUSALS)) responses[status] = { ...refusal, content: json({ $ref: "#/components/schemas/TrpcError" }) };
  return {
    post: {
      operationId: name,
      tags: [name.split(".")[0]],
      summary: `tRPC ${def.type} ${name} (docs/api.md)`,
      description: SCOPE_TEXT[scope],
      security: [{ apiKey: [] }],
      ...scopeOf(scope),
      // a POST without a JSON body is refused (415) even when the input is optional: send {}
      requestBody: { required: true, content: json(input) },
      responses,
    },
  };
}

const rpcStatus: Schema = {
  type: "object",
  description: "A google.rpc.Status (OTLP/HTTP failure), in the request's encoding.",
  properties: { code: { type: "integer" }, message: { type: "string" }, details: { type: "array" } },
};

const OTLP_SIGNALS = [
  { signal: "traces", items: "resourceSpans", count: "rejectedSpans", stored: "Tool calls are read from the spans (docs/otlp.md)." },
  { signal: "logs", items: "resourceLogs", count: "rejectedLogRecords", stored: "Tool calls are read from the log records (docs/otlp.md)." },
  { signal: "metrics", items: "resourceMetrics", count: "rejectedDataPoints", stored: "Accepted and ignored: Toolgate counts from the calls." },
] as const;

function otlpPath({ signal, items, count, stored }: (typeof OTLP_SIGNALS)[number]) {
  const refusal = (description: string, headers?: Schema) => ({
    description,
    ...(headers ? { headers } : {}),
    content: {
      "application/json": { schema: { $ref: "#/components/schemas/RpcStatus" } },
      "application/x-protobuf": { schema: { type: "string", contentMediaType: "application/x-protobuf" } },
    },
  });
  const partialSuccess = {
    type: "object",
    properties: { [count]: { type: "string", description: "How many were rejected (an int64, as a string in JSON)." }, errorMessage: { type: "string" } },
  };
  return {
    post: {
      operationId: `otlp.${signal}`,
      tags: ["otlp"],
      summary: `OTLP/HTTP ${signal} export. ${stored}`,
      description: `The body may be gzip-compressed (\`Content-Encoding: gzip\`). ${SCOPE_TEXT.ingest}`,
      security: [{ apiKey: [] }],
      ...scopeOf("ingest"),
      requestBody: {
        required: true,
        content: {
          "application/x-protobuf": {
            schema: {
              type: "string",
              contentMediaType: "application/x-protobuf",
              description: `An Export${signal[0]!.toUpperCase()}${signal.slice(1)}ServiceRequest.`,
            },
          },
          "application/json": {
            schema:
              signal === "metrics"
                ? { description: "Not read: a metrics export is accepted and ignored." }
                : {
                    type: "object",
                    description: "The OTLP/JSON encoding of the request (opentelemetry-proto).",
                    properties: {
                      [items]: {
                        type: "array",
                        items: { description: `A resource entry (opentelemetry-proto); one that is not an object is skipped, as are its spans or records.` },
                      },
                    },
                  },
          },
        },
      },
      responses: {
        "200": {
          description: "Accepted; what could not be used is counted in partialSuccess, never failing the rest.",
          content: {
            "application/json": { schema: { type: "object", properties: { partialSuccess } } },
            "application/x-protobuf": { schema: { type: "string", contentMediaType: "application/x-protobuf" } },
          },
        },
        "400": refusal("The body does not decode as the signal's request."),
        "401": refusal("No API key, or one Toolgate does not know."),
        "403": refusal("The key lacks the ingest scope."),
        "413": refusal("The body is over TOOLGATE_BODY_LIMIT_BYTES (after decompression)."),
        "415": refusal("A Content-Type other than application/x-protobuf or application/json, or an unknown Content-Encoding."),
        "429": refusal("The key's rate limit.", retryAfter),
        "503": refusal("The database is unavailable for now.", retryAfter),
      },
    },
  };
}

export function openApiDocument(): Schema {
  const paths: Record<string, unknown> = {};
  for (const [name, output] of Object.entries(API_KEY_ANSWERS)) paths[`/api/trpc/${name}`] = procedurePath(name, output);
  for (const signal of OTLP_SIGNALS) paths[`/v1/${signal.signal}`] = otlpPath(signal);
  const { $schema: _dialect, title: _title, ...event } = eventJsonSchema();
  return {
    openapi: "3.1.0",
    info: {
      title: "Toolgate API",
      version: "0.1.0",
      description:
        "What an API key can call: the tRPC procedures of harnesses and automation (docs/api.md) and the OTLP/HTTP endpoints (docs/otlp.md). Generated from the zod contracts; an API key is sent as `Authorization: Bearer tg_…`. Each event of ingest.batch is a ToolCallEvent; one that is not is rejected on its own in the answer's `rejected`, never failing the batch.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "A project's API key (tg_…), made on the project's settings page or with `npm run toolgate -- keys create`.",
        },
      },
      schemas: { TrpcError: trpcError, RpcStatus: rpcStatus, ToolCallEvent: event },
    },
  };
}
