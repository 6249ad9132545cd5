import { defineConfig, type Options } from "tsup";

/**
 * ESM + CJS + declarations. The shared classifier (../isomorphic) and its small pure helpers are
 * bundled in; Ajv, ajv-formats and re2js stay runtime dependencies. zod is never bundled (only its
 * tree-shaken, unused import would be): a zod schema brings its own `toJSONSchema()`.
 */
const shared = {
  target: "es2022",
  platform: "neutral",
  tsconfig: "tsconfig.json",
  splitting: false,
  treeshake: true,
  noExternal: ["fastest-levenshtein", "zod", /^ajv(-formats)?\/dist\//],
  esbuildPlugins: [
    {
      // Node's ESM loader needs the extension in a deep import of a package without an `exports` map (ajv/dist/2020, ajv-formats/dist/formats)
      name: "fully-specified",
      setup(build) {
        build.onResolve({ filter: /^ajv(-formats)?\/dist\/[\w-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
      },
    },
  ],
} satisfies Options;

/**
 * The library as ESM and CJS with declarations; the CLI (the `bin` entry) as ESM only. The two
 * builds run at once, so each cleans dist/ of everything but the other's files.
 */
export default defineConfig([
  { ...shared, entry: { index: "src/index.ts" }, format: ["esm", "cjs"], dts: { entry: { index: "src/index.ts" } }, clean: ["!cli.*"] },
  // `toolgate mcp-server` joins two transports of the official MCP SDK, bundled into the CLI so that the library's users do not install it
  {
    ...shared,
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    clean: ["!index.*"],
    platform: "node",
    noExternal: [...shared.noExternal, /^@modelcontextprotocol\/sdk/, "pkce-challenge"],
  },
]);
