import { createHash } from "node:crypto";
import { canonicalJson } from "../../isomorphic/tool-schema";
/** A schema's version: the first 12 hex characters of the SHA-256 of its canonical JSON. */
export function schemaVersion(parameters: unknown): string {
  return createHash("sha256").update(canonicalJson(parameters)).digest("hex").slice(0, 12);
}
