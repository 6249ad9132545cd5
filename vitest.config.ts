import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // the SDK from its sources (examples import it by its package name; sdk/dist is only built for npm pack)
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@toolgate/sdk": path.resolve(import.meta.dirname, "sdk/src/index.ts") } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", ".next/**", ".data/**", "e2e/**", "sdk/dist/**", ".stryker-tmp/**"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-env.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
