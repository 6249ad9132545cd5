// `npm test`: the unit tests, the Python SDK's suite, the integration tests, then the browser tests,
// in that order, stopping at the first failure with its exit code. The production build the browser
// tests run against starts at once beside the first three phases, instead of after them, at the
// lowest CPU priority: the unit and integration tests leave part of the two cores idle (they wait
// on PostgreSQL and child processes), which the build uses, so a change's `npm test` does not wait for a whole build at the
// end (docs/maintaining.md has the figures). The build's own output goes to a file, printed only
// when it fails. Prints each phase's time at the end.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { browserTestBuild } from "./lib/build";
import { printPhases, runPhases, type Phase } from "./lib/phases";

const npmRun = (script: string): Phase => ({ name: script.replace(/^test:/, ""), command: "npm", args: ["run", "--silent", script] });

async function startBuild() {
  const log = path.join(await mkdtemp(path.join(os.tmpdir(), "toolgate-test-build-")), "build.log");
  const out = createWriteStream(log);
  const started = performance.now();
  // its own process group, so that stopping it stops `next build` and its workers too
  const child = spawn(browserTestBuild.command, browserTestBuild.args, {
    env: { ...process.env, ...browserTestBuild.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // the lowest priority (inherited by `next build`'s workers): it takes only the CPU the tests leave idle, so their timings stay as without it
  if (child.pid) os.setPriority(child.pid, 19);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const done = new Promise<{ code: number; seconds: number }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 })),
  );
  const stop = () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
  };
  return { log, done, stop };
}

const build = await startBuild();
const results = await runPhases([npmRun("test:unit"), npmRun("test:python"), npmRun("test:integration")]);
let code = results.find((r) => r.code !== 0)?.code ?? 0;
if (code === 0) {
  const built = await build.done;
  console.error(
    `The production build for the browser tests ${built.code === 0 ? "is ready" : "FAILED"} (${built.seconds.toFixed(0)} s, beside the tests above).`,
  );
  if (built.code !== 0) {
    console.error(await readFile(build.log, "utf8"));
    code = built.code;
  } else {
    const e2e = await runPhases([npmRun("test:e2e")]);
    results.push(...e2e);
    code = e2e[0]!.code;
  }
} else build.stop();
printPhases("npm test", results);
process.exit(code);
