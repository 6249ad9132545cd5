#!/usr/bin/env node
import { runCheck } from "./check";

const proc = (globalThis as unknown as { process: { argv: string[]; env: Record<string, string | undefined>; exitCode?: number } }).process;
runCheck(proc.argv.slice(2), proc.env, (line) => console.log(line)).then(
  (code) => (proc.exitCode = code),
  (error: unknown) => {
    console.error(error);
    proc.exitCode = 2;
  },
);
