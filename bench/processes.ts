import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

// Process trees from Linux /proc: peak RSS of the spawned app, CPU time of the app and of the
// embedded PostgreSQL (both include processes that ended, through their parents' counters).

type Proc = { pid: number; ppid: number; name: string; ticks: number; childTicks: number };
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export function processTable(): Proc[] {
  const table: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" "); // from field 3 (state) on
      table.push({
        pid: Number(entry),
        name: stat.slice(stat.indexOf("(") + 1, close),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]), // utime + stime
        childTicks: Number(fields[13]) + Number(fields[14]), // of children that ended
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return table;
}

export function descendants(rootPid: number, table: Proc[]): Proc[] {
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of table)
      if (tree.has(p.ppid) && !tree.has(p.pid)) {
        tree.add(p.pid);
        grew = true;
      }
  }
  return table.filter((p) => tree.has(p.pid));
}

/** CPU seconds used so far by a process tree, including its children that ended. */
export function cpuSeconds(rootPid: number): number {
  return descendants(rootPid, processTable()).reduce((sum, p) => sum + p.ticks + p.childTicks, 0) / CLOCK_TICKS;
}

/** CPU seconds of the PostgreSQL server processes this benchmark started (the embedded server), or undefined. */
export function postgresCpuSeconds(): number | undefined {
  const procs = descendants(process.pid, processTable()).filter((p) => p.name === "postgres" || p.name.startsWith("postgres:"));
  if (!procs.length) return undefined;
  return procs.reduce((sum, p) => sum + p.ticks + p.childTicks, 0) / CLOCK_TICKS;
}

export function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
