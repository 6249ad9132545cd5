"use client";

import { useEffect, type RefObject } from "react";

/**
 * Escape closes the open `<details>` popover and gives the focus back to its summary, as a menu
 * does (the focus may be on the page rather than in the popover after a re-render).
 */
export function useEscapeCloses(details: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || !details.current?.open) return;
      details.current.open = false;
      details.current.querySelector("summary")?.focus();
    };
    window.addEventListener("keydown", closeOnEscape);
    return () => window.removeEventListener("keydown", closeOnEscape);
  }, [details]);
}
