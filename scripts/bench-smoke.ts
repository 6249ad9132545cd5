// npm run bench:smoke: every benchmark in its smoke mode (small sizes, seconds each), one after
// another. A smoke run fails on a wrong answer or a crash, never on a figure: it proves that the
// benchmarks still run and still agree with their plain counterparts, so that they cannot rot
// between measurements. CI runs it (.ci/run). The app-based ones (ingest, ttfb) reuse the current
// production build, or build once.
import { printPhases, runPhases, type Phase } from "./lib/phases";
import { runAndExit } from "./lib/exit";

const bench = (name: string, file: string, ...args: string[]): Phase => ({
  name,
  command: process.execPath,
  args: ["--import", "tsx", `bench/${file}`, ...args, "--smoke"],
});

const BENCHMARKS: Phase[] = [
  bench("bench:schema", "schema-compile.ts"),
  bench("bench:sdk", "sdk.ts"),
  bench("bench:sdk-reporter", "sdk-reporter.ts"),
  bench("bench:mcp", "mcp.ts"),
  bench("bench:query", "query.ts"),
  bench("bench:retention", "retention.ts"),
  bench("bench:ingest --long-runs", "ingest.ts", "--long-runs"),
  bench("bench:ingest --otlp", "ingest.ts", "--otlp"),
  bench("bench:ingest --trees", "ingest.ts", "--trees", "."),
  bench("bench:ingest-cpu", "ingest-cpu.ts"),
  bench("bench:ttfb", "ttfb.ts"),
];

await runAndExit(async () => {
  const results = await runPhases(BENCHMARKS);
  printPhases("Benchmarks in smoke mode", results);
  return results.every((r) => r.code === 0) && results.length === BENCHMARKS.length ? 0 : 1;
});
