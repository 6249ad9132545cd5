// npm run test:timing: `npm test`'s phases one by one (unit, python, integration, the production build,
// the browser tests), each with its wall time, the CPU time of its processes and the load average,
// then the slowest files of each phase from the runners' own JSON reports. Phases named after
// `--` run alone (`npm run test:timing -- unit integration`); --keep-going runs the next phase after a failure. The CPU figures say
// more than the wall time on a shared machine; docs/maintaining.md keeps the figures.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { browserTestBuild } from "./lib/build";
import { printPhases, runPhases, type Phase } from "./lib/phases";
import { runAndExit } from "./lib/exit";

const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-test-timing-"));
const report = (name: string) => path.join(dir, `${name}.json`);
const vitest = (project: string): Phase => ({
  name: project,
  command: process.execPath,
  args: ["node_modules/vitest/vitest.mjs", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report(project)}`],
});
const allPhases: Phase[] = [
  vitest("unit"),
  // the Python SDK: wheel, ruff, mypy --strict, pytest (the integration phase's Python peers use its wheel)
  { name: "python", command: "bash", args: ["scripts/test-python.sh"] },
  vitest("integration"),
  // the build the browser tests' server would otherwise make (nothing when current), timed on its own
  { name: "build", ...browserTestBuild },
  {
    name: "e2e",
    command: process.execPath,
    args: ["node_modules/@playwright/test/cli.js", "test", "--project", "chromium"],
    env: { TOOLGATE_PLAYWRIGHT_JSON: report("e2e") },
  },
];

const named = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const unknown = named.filter((n) => !allPhases.some((p) => p.name === n));
if (unknown.length) {
  console.error(`Unknown phase ${unknown.join(", ")}: the phases are ${allPhases.map((p) => p.name).join(", ")}.`);
  process.exit(2);
}
const phases = named.length ? allPhases.filter((p) => named.includes(p.name)) : allPhases;

type VitestReport = { testResults: { name: string; startTime: number; endTime: number }[] };
type PlaywrightSuite = { file: string; specs: { tests: { results: { duration: number }[] }[] }[]; suites?: PlaywrightSuite[] };

/** Seconds per file: from Vitest's JSON report (file start to end) or Playwright's (the sum of its tests' durations). */
function fileSeconds(name: string): Map<string, number> {
  const seconds = new Map<string, number>();
  if (!existsSync(report(name))) return seconds;
  const json = JSON.parse(readFileSync(report(name), "utf8")) as VitestReport & { suites?: PlaywrightSuite[] };
  for (const file of json.testResults ?? []) seconds.set(path.relative(process.cwd(), file.name), (file.endTime - file.startTime) / 1000);
  const walk = (suite: PlaywrightSuite) => {
    const spent = suite.specs.flatMap((s) => s.tests.flatMap((t) => t.results.map((r) => r.duration))).reduce((a, b) => a + b, 0) / 1000;
    seconds.set(`e2e/${suite.file}`, (seconds.get(`e2e/${suite.file}`) ?? 0) + spent);
    suite.suites?.forEach(walk);
  };
  json.suites?.forEach(walk);
  return seconds;
}

await runAndExit(async () => {
  const results = await runPhases(phases, { keepGoing: process.argv.includes("--keep-going") });
  for (const { name } of results) {
    const files = [...fileSeconds(name)].sort((a, b) => b[1] - a[1]);
    if (!files.length) continue;
    const sum = files.reduce((total, [, s]) => total + s, 0);
    console.error(`\n${name}: ${files.length} files, ${sum.toFixed(0)} s summed over the files (they run two at a time); the slowest:`);
    for (const [file, s] of files.slice(0, 8)) console.error(`  ${s.toFixed(1).padStart(7)} s  ${file}`);
  }
  printPhases("npm test, phase by phase", results);
  return results.every((r) => r.code === 0) && results.length === phases.length ? 0 : 1;
});
