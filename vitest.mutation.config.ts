import { defineConfig } from "vitest/config";
import { shared, unitProject } from "./vitest.config";

// The tests Stryker runs (stryker.config.mjs): the unit project of vitest.config.ts as one flat
// config, so that each mutant is judged in seconds. The SDK's tests stay out: they cover none of
// the mutated folders.
export default defineConfig({
  resolve: shared.resolve,
  test: { ...shared.test, ...unitProject, exclude: [...unitProject.exclude, "sdk/**"] },
});
