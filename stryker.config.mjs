// Mutation testing of the pure folders (`npm run test:mutation`, not in CI: it is slow).
// docs/maintaining.md records the score and the survivors accepted.
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  // server/adapters holds the OTLP decoding and mapping that lived in server/domain when the goal was set
  mutate: ["isomorphic/**/*.ts", "server/domain/**/*.ts", "server/adapters/**/*.ts", "!**/*.test.ts"],
  // the Python virtualenvs (tests' tools) hold symlinked folders the sandbox copy cannot follow (EISDIR), and nothing mutated needs them
  ignorePatterns: [".venv*", "sdk-python/.venv*"],
  coverageAnalysis: "perTest",
  // static mutants (module-level constants) would each rerun every test: hours on this machine.
  // A mutant also reached by a fixture built at import time is judged by the per-test runs alone:
  // build fixtures inside the tests.
  ignoreStatic: true,
  // the machine is shared: two test processes at most
  concurrency: 2,
  // reuse the results of unchanged code and tests from the last run (the vitest runner reports no
  // test locations: an edited test file re-runs every mutant its tests cover)
  incremental: true,
  incrementalFile: ".stryker-tmp/incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: ".stryker-tmp/report/mutation.html" },
  jsonReporter: { fileName: ".stryker-tmp/report/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
};
