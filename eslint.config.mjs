// Lint: typescript-eslint's recommended rules, plus the floors of the repository. FLOORS is the
// one list of what each folder holds and may import: docs/maintaining.md shows it as a table
// (eslint-floors.test.ts checks that the two agree), and the rules below are generated from it.
import path from "node:path";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * Lowest first. A file of a floor may import its own floor and the floors in `mayImport`, each
 * of which comes earlier in the list, so the floors cannot form a loop. `typeOnly` files may be
 * imported for their types only; `noPackages` are npm or node: modules the floor must not use.
 * Files in no floor (scripts/, bench/, test/, e2e/, examples/, proxy.ts, instrumentation.ts and
 * the configs) are entry points and tooling.
 */
export const FLOORS = [
  {
    name: "contracts",
    paths: ["contracts"],
    holds:
      "browser-safe zod schemas and constants shared by server, browser and SDK, the JSON rules they check (path notation, what JSON can be stored), and how numbers are written (`format-number.ts`)",
    mayImport: [],
    noPackages: ["node:*"],
  },
  {
    name: "isomorphic",
    paths: ["isomorphic"],
    holds:
      "browser-safe pure logic shared by server, browser and SDK: the classifier and its messages, tool-schema checks, statistics, time buckets, version comparison",
    mayImport: ["contracts"],
    noPackages: ["node:*"],
  },
  {
    name: "sdk",
    paths: ["sdk/src"],
    holds: "the harness SDK (npm workspace)",
    mayImport: ["contracts", "isomorphic"],
    noPackages: ["node:*"],
    // the command lines run on Node only (sdk/tsconfig.cli.json); the library they use stays browser-safe
    packagesAllowedIn: ["sdk/src/cli.ts", "sdk/src/mcp-cli.ts", "sdk/src/mcp-http.ts", "sdk/src/lint-cli.ts"],
  },
  { name: "server/env", paths: ["server/env.ts"], holds: "the server's settings, read from the environment once", mayImport: [] },
  {
    name: "server/domain",
    paths: ["server/domain"],
    holds: "pure server logic: no database, no services, no I/O, no scheduling",
    mayImport: ["contracts", "isomorphic"],
    noPackages: ["pg", "pg-*", "@prisma/*", "node:fs*", "node:net", "node:http*", "node:dns*", "node:child_process"],
  },
  {
    name: "server/adapters",
    paths: ["server/adapters"],
    holds: "protocol adapters, pure: decode a wire format (OTLP) and map it to the events `ingest.batch` takes",
    mayImport: ["contracts", "isomorphic", "server/domain"],
    noPackages: ["pg", "pg-*", "@prisma/*", "node:fs*", "node:net", "node:http*", "node:dns*", "node:child_process"],
  },
  {
    name: "server/db",
    paths: ["server/db"],
    holds: "the PostgreSQL client, migrations and what the database's errors mean",
    mayImport: ["server/env", "server/domain"],
  },
  {
    name: "server/services",
    paths: ["server/services"],
    holds: "I/O: ingestion, metrics, alerts, accounts, jobs",
    mayImport: ["contracts", "isomorphic", "server/env", "server/domain", "server/adapters", "server/db"],
  },
  {
    name: "server/trpc",
    paths: ["server/trpc"],
    holds: "the tRPC context, the procedure kinds (tenancy and authorisation) and the mapping of errors onto answers",
    mayImport: ["contracts", "isomorphic", "server/env", "server/domain", "server/adapters", "server/db", "server/services"],
  },
  {
    name: "server/routers",
    paths: ["server/routers"],
    holds: "thin tRPC procedures (parse, authorise by procedure kind, call a service) and the app router (`root.ts`)",
    mayImport: ["contracts", "isomorphic", "server/env", "server/domain", "server/services", "server/trpc"],
  },
  {
    name: "server/http",
    paths: ["server/http"],
    holds: "helpers of the plain HTTP routes beside tRPC: body limits, cross-site refusal, error answers, project access",
    mayImport: ["contracts", "isomorphic", "server/env", "server/domain", "server/adapters", "server/db", "server/services", "server/trpc", "server/routers"],
  },
  {
    name: "server/page-session",
    paths: ["server/page-session.ts"],
    holds: "session helpers and the tRPC caller of server components",
    mayImport: ["contracts", "isomorphic", "server/env", "server/services", "server/trpc", "server/routers"],
  },
  {
    name: "components",
    paths: ["components"],
    holds: "React components; charts take prepared series",
    mayImport: ["contracts", "isomorphic"],
    typeOnly: ["server/routers/root.ts"],
  },
  {
    name: "app pages",
    paths: ["app/**/*.tsx"],
    holds: "pages and layouts",
    mayImport: ["contracts", "isomorphic", "components", "server/page-session"],
    typeOnly: ["server/routers/root.ts"],
  },
  {
    name: "app routes",
    paths: ["app/**/route.ts"],
    holds: "HTTP entry points (`route.ts`): the server's front door",
    mayImport: [
      "contracts",
      "isomorphic",
      "server/env",
      "server/domain",
      "server/adapters",
      "server/db",
      "server/services",
      "server/trpc",
      "server/routers",
      "server/http",
    ],
  },
];

const floor = (name) => FLOORS.find((f) => f.name === name);
const isGlob = (p) => p.includes("*");

/** One import-x/no-restricted-paths zone per (floor, floor it may not import, path of that floor). */
function zones() {
  return FLOORS.flatMap((f) =>
    FLOORS.filter((other) => other !== f && !f.mayImport.includes(other.name)).flatMap((other) =>
      other.paths.map((from) => {
        const except = (f.typeOnly ?? []).filter((file) => file.startsWith(`${from}/`)).map((file) => `./${path.relative(from, file)}`);
        return {
          target: f.paths.map((p) => (isGlob(p) ? p : `./${p}`)),
          from: isGlob(from) ? from : `./${from}`,
          ...(except.length ? { except } : {}),
          message: `${f.name} may import only ${[f.name, ...f.mayImport].join(", ")}${f.typeOnly ? ` and the types of ${f.typeOnly.join(", ")}` : ""}, not ${other.name} (floors: docs/maintaining.md).`,
        };
      }),
    ),
  );
}

/** The files a floor's own rules apply to, as eslint `files` globs. */
const filesOf = (f) => f.paths.map((p) => (isGlob(p) || /\.tsx?$/.test(p) ? p : `${p}/**`));

/** typeOnly files (the router's type) for value imports, and forbidden packages, per floor. */
const restrictedImports = FLOORS.filter((f) => f.typeOnly || f.noPackages).map((f) => ({
  files: filesOf(f),
  ignores: ["**/*.test.ts", ...(f.packagesAllowedIn ?? [])],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          ...(f.typeOnly
            ? [
                {
                  group: f.typeOnly.flatMap((file) => [`@/${file.replace(/\.tsx?$/, "")}`, `**/${file.replace(/\.tsx?$/, "")}`]),
                  allowTypeImports: true,
                  message: `${f.name} may import only the types of ${f.typeOnly.join(", ")} (use \`import type\`).`,
                },
              ]
            : []),
          ...(f.noPackages ? [{ group: f.noPackages, message: `${f.name} may not use ${f.noPackages.join(", ")} (floors: docs/maintaining.md).` }] : []),
        ],
      },
    ],
  },
}));

for (const f of FLOORS)
  for (const lower of f.mayImport) if (FLOORS.indexOf(floor(lower)) >= FLOORS.indexOf(f)) throw new Error(`${f.name} imports ${lower}, which is not below it`);

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-e2e-*/**",
      ".data/**",
      "server/db/generated/**",
      "sdk/dist/**",
      "sdk/test/conformance/vendor/**",
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
  {
    plugins: { "import-x": importX },
    settings: {
      // parse TypeScript dependencies too (no-cycle follows them), resolve the `@/` alias as tsc does
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver": undefined,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  // Tests are tooling: they may drive a floor through the floors above it.
  { files: ["**/*.{ts,tsx}"], ignores: ["**/*.test.ts"], rules: { "import-x/no-restricted-paths": ["error", { zones: zones() }] } },
  ...restrictedImports,
);
