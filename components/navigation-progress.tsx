"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/** Longest a bar stays without the page changing (a navigation that failed or went nowhere). */
const GIVE_UP_MS = 20_000;

/** The same-origin page (path and query) a click or a GET form leads to, or null when it stays here or leaves. */
function destination(url: URL): string | null {
  // other origins, and the server's own routes (downloads, redirects after a POST), are no page of this app to wait for
  if (url.origin !== window.location.origin || url.pathname.startsWith("/api/")) return null;
  const to = url.pathname + url.search;
  return to === window.location.pathname + window.location.search ? null : to;
}

function clickTarget(e: MouseEvent): URL | null {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.("a[href]");
  if (!(a instanceof HTMLAnchorElement) || a.hasAttribute("download") || (a.target && a.target !== "_self")) return null;
  return new URL(a.href);
}

function submitTarget(e: SubmitEvent): URL | null {
  const form = e.target;
  if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "get") return null;
  const url = new URL(form.action);
  url.search = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
  return url;
}

/**
 * A bar across the top of the window from the moment a link or a filter form is used until the
 * next page (or the same page with other parameters) is on screen: a server render can take
 * seconds, and the old page would otherwise sit there with no sign of it. Mounted once in the
 * project layout; listens in the capture phase, before the links' own handlers.
 */
export function NavigationProgress() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const [active, setActive] = useState(false);

  useEffect(() => setActive(false), [pathname, search]);
  useEffect(() => {
    const start = (url: URL | null) => {
      if (url && destination(url)) setActive(true);
    };
    const onClick = (e: MouseEvent) => start(clickTarget(e));
    const onSubmit = (e: SubmitEvent) => start(submitTarget(e));
    document.addEventListener("click", onClick, true);
    document.addEventListener("submit", onSubmit, true);
    return () => {
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("submit", onSubmit, true);
    };
  }, []);
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(() => setActive(false), GIVE_UP_MS);
    return () => window.clearTimeout(timer);
  }, [active]);

  if (!active) return null;
  return (
    <div role="progressbar" aria-label="Loading the page" data-testid="nav-progress" className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-indigo-100">
      <div className="h-full w-full animate-pulse bg-indigo-600" />
    </div>
  );
}
