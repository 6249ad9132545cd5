import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Next.js telemetry would try the network, which is closed here and on many servers.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const SOURCE_DIRS = ["app", "components", "contracts", "isomorphic", "server", "sdk", "public"];
const SOURCE_FILES = ["package-lock.json", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "prisma/schema.prisma", "proxy.ts", "instrumentation.ts"];
const distDir = () => process.env.TOOLGATE_DIST_DIR || ".next";

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") yield* walk(full);
    } else if (!/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

/** A hash of everything `next build` reads, so that a build is redone only when stale. */
async function sourceHash(root = process.cwd()): Promise<string> {
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const dir of SOURCE_DIRS) for await (const f of walk(path.join(root, dir))) files.push(f);
  for (const f of SOURCE_FILES) if (existsSync(path.join(root, f))) files.push(path.join(root, f));
  for (const f of files)
    hash
      .update(path.relative(root, f))
      .update("\0")
      .update(await readFile(f))
      .update("\0");
  return hash.digest("hex");
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("error", reject);
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`})`))));
  });
}

export const nextBin = path.resolve("node_modules/next/dist/bin/next");

/** Runs `next build` unless .next holds a build of the current sources. */
export async function buildIfStale(): Promise<"built" | "current"> {
  const current = await sourceHash();
  const stampFile = path.join(distDir(), "toolgate-source-hash");
  const stamp = await readFile(stampFile, "utf8").catch(() => "");
  if (stamp === current && existsSync(path.join(distDir(), "BUILD_ID"))) return "current";
  console.log("Building Toolgate (no current build of these sources)…");
  await run(process.execPath, [nextBin, "build"], { ...process.env, NODE_ENV: "production" });
  await writeFile(stampFile, current);
  return "built";
}

/**
 * The command that makes the build the browser tests run against, in a process of its own (nothing
 * when current): as scripts/e2e-server.ts builds it, without Next's type check (`npm run typecheck`
 * does it). `npm test` runs it beside the first phases, `npm run test:timing` as a phase.
 */
export const browserTestBuild = {
  command: process.execPath,
  args: [
    "--import",
    "tsx",
    "--input-type=module",
    "-e",
    `await (await import(${JSON.stringify(pathToFileURL(path.resolve("scripts/lib/build.ts")).href)})).buildIfStale()`,
  ],
  env: { TOOLGATE_BUILD_TYPECHECK: "off" },
};
