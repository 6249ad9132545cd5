/**
 * Runs `flush` when a Node (or Bun, Deno) process is about to exit normally ('beforeExit': the
 * event loop ran dry, not process.exit() or a signal). Elsewhere (browsers, edge runtimes) it does
 * nothing: the only place the SDK touches `process`, and only after checking it is there.
 */
export function onProcessExit(flush: () => void): () => void {
  const proc = (globalThis as { process?: { once?: unknown; on?: unknown; off?: unknown } }).process;
  if (!proc || typeof proc.on !== "function" || typeof proc.off !== "function") return () => {};
  const on = proc.on as (event: string, listener: () => void) => void;
  const off = proc.off as (event: string, listener: () => void) => void;
  const listener = () => flush();
  on.call(proc, "beforeExit", listener);
  return () => off.call(proc, "beforeExit", listener);
}
