// npm run bench:ingest -- --trees DIR,DIR [--repeat R] [--events N]   (or BENCH_TREES, BENCH_REPEAT)
//
// The same HTTP benchmark (bench/ingest.ts) with the code of several checkouts, one after another
// and R times over (default 3), so that a change is compared with the code before it in one run
// and at the same load: each run is that checkout's own `bench/ingest.ts` with its own build and
// migrations (main's worktree at an older commit, say; it must have its node_modules). Prints each
// run's CPU per event (app and PostgreSQL) and events per second as it goes, then the medians per
// checkout and each one's ratio to the first. Runs in turn, so that a noisy minute shows as one
// bad run rather than as a difference between checkouts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { option, textOption } from "./options";

type Run = { tree: string; appUs: number; pgUs: number; eventsPerSecond: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const number = (text: string) => Number(text.replace(/,/g, ""));

/** One run of `tree`'s own benchmark; its figures read from the summary it prints (the same lines in every checkout since the CPU figures came in). */
function runIn(tree: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    // BENCH_TREES emptied: a run is one benchmark, never another comparison
    const child = spawn("npx", ["tsx", "bench/ingest.ts", ...args], { cwd: tree, env: { ...process.env, BENCH_TREES: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", (status) => {
      const cpu = out.match(/CPU per event, HTTP\s+app ([\d,.]+) µs, Postgres ([\d,.]+) µs/);
      const rate = out.match(/HTTP ingest\.batch\s+([\d,.]+) events\/s/);
      if (status === 0 && cpu && rate) resolve({ tree, appUs: number(cpu[1]!), pgUs: number(cpu[2]!), eventsPerSecond: number(rate[1]!) });
      else
        reject(
          new Error(`${tree}: bench/ingest.ts exited with ${status}${cpu ? "" : " without its CPU figures"}:\n${out.trim().split("\n").slice(-15).join("\n")}`),
        );
    });
  });
}

export async function compareTrees(list: string) {
  const trees = list.split(",").map((t) => path.resolve(t));
  for (const tree of trees) {
    if (!existsSync(path.join(tree, "bench/ingest.ts")) || !existsSync(path.join(tree, "node_modules"))) {
      throw new Error(
        `--trees: ${tree} is not a Toolgate checkout with bench/ingest.ts and its node_modules (git worktree add DIR <commit>, then npm ci in it)`,
      );
    }
  }
  const repeat = option("repeat", "BENCH_REPEAT", 3, 1);
  // what each run is told: the sizes, not --trees itself
  const passed = ["events", "batch", "clients"].flatMap((flag) => {
    const value = textOption(flag, `BENCH_${flag.toUpperCase()}`);
    return value === undefined ? [] : [`--${flag}`, value];
  });
  if (process.argv.includes("--smoke")) passed.push("--smoke");
  console.log(`[bench] ${trees.join(", ")}: ${repeat} round(s), each run ${passed.join(" ") || "with the defaults"}`);
  const runs: Run[] = [];
  for (let round = 1; round <= repeat; round++) {
    for (const tree of trees) {
      const run = await runIn(tree, passed);
      runs.push(run);
      console.log(
        `[bench] round ${round} ${tree}: app ${run.appUs} µs + PostgreSQL ${run.pgUs} µs = ${run.appUs + run.pgUs} µs per event, ${run.eventsPerSecond.toLocaleString("en")} events/s`,
      );
    }
  }
  const summary = trees.map((tree) => {
    const mine = runs.filter((r) => r.tree === tree);
    return {
      tree,
      app: median(mine.map((r) => r.appUs)),
      pg: median(mine.map((r) => r.pgUs)),
      total: median(mine.map((r) => r.appUs + r.pgUs)),
      rate: median(mine.map((r) => r.eventsPerSecond)),
    };
  });
  const base = summary[0]!;
  const change = (value: number, of: number) => `${value >= of ? "+" : ""}${Math.round((100 * (value - of)) / of)} %`;
  console.log(`\n| tree | app µs | PostgreSQL µs | CPU µs per event | vs first | events/s | vs first |\n|:--|--:|--:|--:|--:|--:|--:|`);
  for (const s of summary) {
    console.log(
      `| ${s.tree} | ${s.app} | ${s.pg} | ${s.total} | ${change(s.total, base.total)} | ${Math.round(s.rate).toLocaleString("en")} | ${change(s.rate, base.rate)} |`,
    );
  }
  console.log(
    `\n  medians of ${repeat} run(s) per tree; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} after; ${new Date().toISOString()}`,
  );
}
