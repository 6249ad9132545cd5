import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { API_KEY_ANSWERS } from "../../contracts/api-answers";
import { GET } from "../../app/api/openapi.json/route";
import { openApiDocument } from "./openapi";

type Operation = {
  requestBody: { content: { "application/json": { schema: object } } };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

// The published OpenAPI document (contracts/generated/openapi.json, kept current by
// scripts/contracts.test.ts; fuzzed by `npm run test:api-fuzz`).
describe("the OpenAPI document", () => {
  const document = openApiDocument() as { openapi: string; paths: Record<string, { post: Operation }>; components: { schemas: object } };
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: document.components });
  const compile = (schema: object) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')) as object);

  it("is OpenAPI 3.1 with every API-key procedure and the three OTLP endpoints, each with its input and answers", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual(
      [...Object.keys(API_KEY_ANSWERS).map((name) => `/api/trpc/${name}`), "/v1/logs", "/v1/metrics", "/v1/traces"].sort(),
    );
    for (const { post } of Object.values(document.paths)) {
      expect(post.requestBody.content["application/json"].schema).toBeTruthy();
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "413", "415", "429", "503"]));
    }
  });

  it("describes ingest.batch's input and answer as the server parses and answers them", () => {
    const batch = document.paths["/api/trpc/ingest.batch"]!.post;
    const input = compile(batch.requestBody.content["application/json"].schema);
    expect(input({ events: [] })).toBe(true);
    expect(input({ project: "default", events: [{}] })).toBe(true);
    expect(input({ project: "Not A Slug", events: [] })).toBe(false);
    expect(input({})).toBe(false);
    const answer = compile(batch.responses["200"]!.content!["application/json"]!.schema);
    expect(answer({ result: { data: { accepted: 1, duplicates: 0, rejected: [{ index: 1, path: "tool", message: "m" }] } } })).toBe(true);
    expect(answer({ result: { data: { accepted: -1, duplicates: 0, rejected: [] } } })).toBe(false);
    const refusal = compile(batch.responses["400"]!.content!["application/json"]!.schema);
    expect(refusal({ error: { message: "Invalid input", code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } } })).toBe(true);
  });

  it("is served at GET /api/openapi.json as checked in", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(readFileSync("contracts/generated/openapi.json", "utf8")));
  });
});
