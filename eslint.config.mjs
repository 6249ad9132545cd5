// Lint: typescript-eslint's recommended rules, plus the layer boundaries of the repository
// (README "Layout"). A boundary is a `no-restricted-imports` rule on the files of one layer.
import tseslint from "typescript-eslint";

/** Import patterns that reach into a folder, written the ways imports spell it here (alias or relative). */
const into = (...folders) => folders.flatMap((folder) => [`@/${folder}/*`, `**/${folder}/*`]);

const forbid = (files, groups, message, allow = []) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: [{ group: [...into(...groups), ...allow.map((path) => `!${path}`)], message }] }],
  },
});

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-e2e-*/**",
      ".data/**",
      "server/db/generated/**",
      "sdk/dist/**",
      "test-results/**",
      "playwright-report/**",
      ".stryker-tmp/**",
      "**/*.mjs",
      "next-env.d.ts",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  // Browser-safe code (schemas, the shared logic, the SDK) depends on nothing server- or UI-side.
  forbid(
    ["contracts/**", "isomorphic/**"],
    ["server", "components", "app", "sdk"],
    "contracts/ and isomorphic/ are browser-safe and shared: they import only each other and npm packages.",
  ),
  {
    files: ["contracts/**", "isomorphic/**", "sdk/src/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: [...into("server", "components", "app"), "node:*"], message: "Browser-safe code: no server, UI or Node-only imports." }] },
      ],
    },
  },
  // The server never renders UI; its pure domain never does I/O.
  forbid(["server/**"], ["components", "app"], "server/ never imports UI code: move what both sides need to isomorphic/ or contracts/."),
  {
    files: ["server/domain/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                ...into("components", "app"),
                "**/db/*",
                "**/db",
                "**/services/*",
                "**/services",
                "pg",
                "@prisma/*",
                "node:fs*",
                "node:net",
                "node:http*",
              ],
              message: "server/domain/ is pure: no database, no services, no I/O.",
            },
          ],
        },
      ],
    },
  },
  // Pages and components reach the server only through tRPC: the router's type, and the page
  // session (whose caller runs procedures).
  {
    files: ["components/**", "app/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server/*", "**/server/*", "!@/server/page-session", "!**/server/page-session", "!@/server/trpc", "!**/server/trpc"],
              message: "UI code reaches the server through tRPC: the router's type (server/trpc/root) or server/page-session, not server internals.",
            },
            { group: ["@/server/trpc/*", "**/server/trpc/*"], allowTypeImports: true, message: "UI code may import only the router's type from server/trpc." },
          ],
        },
      ],
    },
  },
  // HTTP entry points (route handlers and their helpers under app/api and app/v1) are the server's front door.
  { files: ["app/**/route.ts", "app/api/**", "app/v1/**", "app/**/*.test.ts"], rules: { "@typescript-eslint/no-restricted-imports": "off" } },
);
