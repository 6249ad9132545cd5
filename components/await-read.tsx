import type { ReactNode } from "react";

/**
 * Renders `children` with what `read` answers, once it has: a server component of its own, so that
 * React renders the rest of the page while this read is still running, instead of the page
 * awaiting every read before it renders anything. Without a Suspense boundary around it the page's
 * first byte still waits for it: the answer is complete HTML, JavaScript or not.
 */
export async function AwaitRead<T>({ read, children }: { read: Promise<T>; children: (value: T) => ReactNode }) {
  return children(await read);
}

/**
 * Marks reads started now and awaited later by their cards (AwaitRead): a read that fails before
 * its card awaits it (or on a page that ends first, not found) is no unhandled rejection; the card
 * that awaits it still fails the page.
 */
export function awaitedLater(...reads: Promise<unknown>[]): void {
  for (const read of reads) read.catch(() => {});
}
