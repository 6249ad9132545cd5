import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// What the setup project (e2e/*.setup.ts) leaves for the browser tests of the same run: the
// admin's signed-in session and the shared demo project. One folder per port, so that two
// runs on one machine (E2E_PORT) never read each other's files.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Path of a file the setup project writes; E2E_PORT is set by playwright.config.ts. */
export function statePath(name: "admin.json" | "demo-project.json"): string {
  return path.join(root, "test-results", `e2e-state-${process.env.E2E_PORT ?? "3100"}`, name);
}

/** A browser with no cookies: for tests about signing in and out. */
export const SIGNED_OUT = { cookies: [], origins: [] };

type DemoProject = { slug: string };

export function saveDemoProject(project: DemoProject) {
  const file = statePath("demo-project.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(project));
}

/**
 * The project that e2e/shared.setup.ts filled with demo data through the UI, once per run.
 * Specs that only read it share it; a spec that changes it touches only what no other spec
 * checks (alert rules, incidents, webhooks, an API key, events under run ids of its own).
 */
export function demoProject(): DemoProject {
  const file = statePath("demo-project.json");
  if (!existsSync(file)) throw new Error(`No ${file}: the "setup" project (e2e/shared.setup.ts) makes it; run without --no-deps.`);
  return JSON.parse(readFileSync(file, "utf8")) as DemoProject;
}
