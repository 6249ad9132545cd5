import { defineConfig } from "vitest/config";
import { shared } from "../../vitest.config";

// `npm run vectors`, step one: runs the classifier's own tests with capture-setup.ts recording every call they make.
export default defineConfig({
  resolve: shared.resolve,
  test: { ...shared.test, include: ["isomorphic/classify.test.ts"], setupFiles: ["test/vectors/capture-setup.ts"] },
});
