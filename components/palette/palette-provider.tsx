"use client";

// The command palette's state for a project's pages: the keyboard shortcuts (./shortcuts.ts), the
// search buttons that open it (a phone has no ⌘K), the visits its "Recent" lists, and the palette
// and the shortcuts list themselves, loaded on first use (cmdk and Radix's dialog stay out of the
// pages' first load).

import dynamic from "next/dynamic";
import { usePathname, useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { rememberVisit } from "./recent";
import { GO_WINDOW_MS, isTypingTarget, keyAction } from "./shortcuts";

const CommandPalette = dynamic(() => import("./command-palette").then((m) => m.CommandPalette), { ssr: false });
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((m) => m.ShortcutsDialog), { ssr: false });

type Shown = "none" | "palette" | "shortcuts";
const Context = createContext<{ show: (what: Shown) => void }>({ show: () => {} });

/** Opens the palette ("palette") or the shortcuts' list ("shortcuts") from a button. */
export const usePalette = () => useContext(Context);

export function PaletteProvider({ slug, zone, children }: { slug: string; zone: string; children: ReactNode }) {
  const [shown, setShown] = useState<Shown>("none");
  // each dialog is loaded the first time it is wanted and stays mounted (closed) after
  const [loaded, setLoaded] = useState({ palette: false, shortcuts: false });
  const router = useRouter();
  const pathname = usePathname();
  const awaitingGo = useRef(0);

  const shownRef = useRef(shown);
  shownRef.current = shown;
  // what had the focus when a dialog opened gets it back when it closes (Radix gives it to a
  // Dialog.Trigger, and these dialogs open from the keyboard and from two buttons)
  const returnTo = useRef<HTMLElement | null>(null);
  const show = (what: Shown) => {
    if (what !== "none") {
      setLoaded((l) => ({ ...l, [what]: true }));
      if (shownRef.current === "none") returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    }
    setShown(what);
  };
  const showRef = useRef(show);
  showRef.current = show;
  const restoreFocus = () => {
    if (returnTo.current?.isConnected) returnTo.current.focus();
  };

  useEffect(() => rememberVisit(slug, pathname), [slug, pathname]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const typing = isTypingTarget(document.activeElement as HTMLElement | null);
      const action = keyAction(event, typing, Date.now() - awaitingGo.current < GO_WINDOW_MS);
      awaitingGo.current = 0;
      if (!action) return;
      if (action.do === "await-go") {
        awaitingGo.current = Date.now();
        return;
      }
      // the page's other dialogs keep their keys (Escape, typing): only ⌘K reaches past them
      if (action.do !== "palette" && document.querySelector('[role="dialog"][aria-modal="true"], dialog[open]')) return;
      event.preventDefault();
      if (action.do === "go") router.push(`/p/${slug}${action.path}`);
      else if (action.do === "palette") showRef.current(shownRef.current === "palette" ? "none" : "palette");
      else showRef.current("shortcuts");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, slug]);

  return (
    <Context.Provider value={{ show }}>
      {children}
      {loaded.palette && (
        <CommandPalette
          slug={slug}
          zone={zone}
          open={shown === "palette"}
          onClose={() => setShown("none")}
          onShortcuts={() => show("shortcuts")}
          restoreFocus={restoreFocus}
        />
      )}
      {loaded.shortcuts && <ShortcutsDialog open={shown === "shortcuts"} onClose={() => setShown("none")} restoreFocus={restoreFocus} />}
    </Context.Provider>
  );
}
