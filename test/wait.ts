/** Polls until check() returns a truthy value (for work done by another process or a job queue), or fails naming what it waited for. */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
