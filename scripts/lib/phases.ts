// Runs commands one after another as named phases and prints how long each took: wall time,
// and the CPU time of the phase's whole process tree (less moved by other work on a shared
// machine than the wall time), with the load average around it. Used by `npm run test:timing`
// and `npm run bench:smoke`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";

export type Phase = { name: string; command: string; args: string[]; env?: Record<string, string> };
export type PhaseResult = { name: string; code: number; wallSeconds: number; cpuSeconds: number | null; load: [number, number] };

/**
 * CPU seconds (user + system) of every child process this process has waited for, with their own
 * waited-for children: /proc/self/stat's cutime and cstime, in ticks of 1/100 s. Null without /proc.
 */
function childrenCpuSeconds(): number | null {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

function runOne(phase: Phase): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(phase.command, phase.args, { stdio: "inherit", env: { ...process.env, ...phase.env } });
    child.on("error", (error) => {
      console.error(`${phase.name}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs the phases in order; stops at the first that fails unless `keepGoing`. */
export async function runPhases(phases: Phase[], { keepGoing = false } = {}): Promise<PhaseResult[]> {
  const results: PhaseResult[] = [];
  for (const phase of phases) {
    const loadBefore = os.loadavg()[0]!;
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    const code = await runOne(phase);
    const cpuAfter = childrenCpuSeconds();
    results.push({
      name: phase.name,
      code,
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      load: [loadBefore, os.loadavg()[0]!],
    });
    if (code !== 0 && !keepGoing) break;
  }
  return results;
}

const duration = (seconds: number) => (seconds < 90 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`);

/** The table of the phases' times, on standard error (standard output stays the commands'). */
export function printPhases(title: string, results: PhaseResult[]) {
  const width = Math.max(...results.map((r) => r.name.length), 5);
  const lines = results.map(
    (r) =>
      `  ${r.name.padEnd(width)}  ${duration(r.wallSeconds).padStart(12)}  ${(r.cpuSeconds === null ? "?" : duration(r.cpuSeconds)).padStart(12)}  ${`${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`.padStart(12)}  ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`}`,
  );
  const wall = results.reduce((sum, r) => sum + r.wallSeconds, 0);
  const cpu = results.every((r) => r.cpuSeconds !== null) ? results.reduce((sum, r) => sum + r.cpuSeconds!, 0) : null;
  console.error(
    [
      "",
      `${title} (Node ${process.version}, ${os.cpus().length} cores)`,
      `  ${"phase".padEnd(width)}  ${"wall".padStart(12)}  ${"CPU".padStart(12)}  ${"load average".padStart(12)}`,
      ...lines,
      `  ${"total".padEnd(width)}  ${duration(wall).padStart(12)}  ${(cpu === null ? "?" : duration(cpu)).padStart(12)}`,
      "",
    ].join("\n"),
  );
}
