/**
 * For loops over one request's items (events of a batch, tools of a registration): once the loop
 * has held the event loop for `sliceMs`, the returned function lets other requests run before
 * going on. Each item is bounded on its own (docs/limits.md); this bounds what a whole request
 * can take from everyone else in one go.
 */
export function timeSlicer(sliceMs = 20): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
