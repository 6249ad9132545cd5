import path from "node:path";
import { defineConfig } from "vitest/config";

// The tests Stryker runs (stryker.config.mjs): the pure unit tests only — no globalSetup, no
// PostgreSQL — so that each mutant is judged in seconds. The SDK's tests stay out: they pack
// the package and cover none of the mutated folders.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.integration.test.ts", ".next/**", ".data/**", "e2e/**", "sdk/**", ".stryker-tmp/**"],
    pool: "forks",
  },
});
