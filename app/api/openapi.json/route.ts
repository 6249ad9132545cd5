import { openApiDocument } from "@/server/http/openapi";

/** The OpenAPI 3.1 description of what an API key can call (server/http/openapi.ts; checked in as contracts/generated/openapi.json). */
let document: ReturnType<typeof openApiDocument> | undefined;

export function GET(): Response {
  document ??= openApiDocument();
  return Response.json(document, { headers: { "Cache-Control": "public, max-age=300" } });
}
