import path from "node:path";
import { defineConfig } from "vitest/config";

// Three projects: `unit` (every *.test.ts that needs no database: no PostgreSQL is started),
// `integration` (*.integration.test.ts on a real PostgreSQL, started in a child process by
// test/global-setup.ts) and `exhaustive` (*.exhaustive.test.ts, the same set-up: long real-package
// interop, process lifecycles, one tenant saturating an instance, pairing at scale; run by
// `npm run test:exhaustive` and CI, not by `npm test`: docs/maintaining.md says why). TOOLGATE_CANARY=1 runs the deliberately failing files in
// test/canary/ instead, through the same projects: .ci/run requires that run to fail.
// vitest.mutation.config.ts reuses `shared` and `unitProject` for Stryker.
const canary = process.env.TOOLGATE_CANARY === "1";
const exclude = ["**/node_modules/**", ".next/**", ".next-e2e-*/**", ".data/**", "e2e/**", "sdk/dist/**", ".stryker-tmp/**"];

/** What every project shares: the aliases and the test process settings. */
export const shared = {
  // the SDK from its sources (examples import it by its package name; sdk/dist is only built for npm pack)
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@toolgate/sdk": path.resolve(import.meta.dirname, "sdk/src/index.ts") } },
  test: { pool: "forks", testTimeout: 30_000, hookTimeout: 60_000 },
} as const;

/** The unit project: every *.test.ts but the integration tests; no globalSetup, no PostgreSQL. */
export const unitProject = {
  name: "unit",
  include: canary ? ["test/canary/unit.canary.ts"] : ["**/*.test.ts"],
  exclude: [...exclude, "**/*.integration.test.ts", "**/*.exhaustive.test.ts"],
};

/** What the projects on a real PostgreSQL share. */
const databaseProject = { exclude, globalSetup: ["test/global-setup.ts"], setupFiles: ["test/setup-env.ts"] };

export default defineConfig({
  resolve: shared.resolve,
  test: {
    ...shared.test,
    // two test files at a time: most integration files wait on PostgreSQL, child processes or
    // servers, so on this 2-core machine the suite takes about 140 s instead of 220 s (the
    // default, one worker per core minus one, ran them one by one). Files share one database and
    // keep to their own projects (test/fixtures.ts makeProject).
    maxWorkers: 2,
    projects: [
      { extends: true, test: unitProject },
      {
        extends: true,
        test: { ...databaseProject, name: "integration", include: canary ? ["test/canary/integration.canary.ts"] : ["**/*.integration.test.ts"] },
      },
      { extends: true, test: { ...databaseProject, name: "exhaustive", include: ["**/*.exhaustive.test.ts"] } },
    ],
  },
});
