import path from "node:path";
import { fileURLToPath } from "node:url";

// What the setup project (e2e/*.setup.ts) leaves for the browser tests of the same run: the
// admin's signed-in session. One folder per port, so that two runs on one machine (E2E_PORT)
// never read each other's files.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Path of a file the setup project writes; E2E_PORT is set by playwright.config.ts. */
export function statePath(name: "admin.json"): string {
  return path.join(root, "test-results", `e2e-state-${process.env.E2E_PORT ?? "3100"}`, name);
}

/** A browser with no cookies: for tests about signing in and out. */
export const SIGNED_OUT = { cookies: [], origins: [] };
