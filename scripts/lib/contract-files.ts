import path from "node:path";
import { eventJsonSchema } from "@/contracts/json-schema";
import { openApiDocument } from "@/server/http/openapi";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The published contracts, generated from the zod contracts and checked into the repository:
 * `npm run contracts` writes them, scripts/contracts.test.ts fails when one is stale.
 */
export const CONTRACT_FILES: { file: string; text: () => string }[] = [
  { file: path.join(root, "contracts/generated/event.schema.json"), text: () => jsonText(eventJsonSchema()) },
  { file: path.join(root, "contracts/generated/openapi.json"), text: () => jsonText(openApiDocument()) },
];

function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
