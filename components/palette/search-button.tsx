"use client";

import { useEffect, useState } from "react";
import { cx, focusRing } from "../ui";
import { usePalette } from "./palette-provider";

const isApple = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

function SearchIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" className="size-4 shrink-0">
      <circle cx="8.5" cy="8.5" r="5.5" />
      <path d="m13 13 4 4" strokeLinecap="round" />
    </svg>
  );
}

/**
 * Opens the command palette: in the sidebar a search field's look with its shortcut ("wide"),
 * in the phone's top bar a button (a phone has no ⌘K).
 */
export function SearchButton({ wide }: { wide?: boolean }) {
  const { show } = usePalette();
  const [mod, setMod] = useState("Ctrl K");
  useEffect(() => setMod(isApple() ? "⌘K" : "Ctrl K"), []);
  return (
    <button
      type="button"
      onClick={() => show("palette")}
      aria-haspopup="dialog"
      aria-keyshortcuts="Control+K Meta+K /"
      data-testid={wide ? "palette-button" : "palette-button-phone"}
      className={cx(
        "inline-flex items-center gap-2 rounded-md bg-white text-slate-600 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 hover:text-slate-900",
        wide ? "w-full px-2.5 py-1.5 text-left" : "px-2.5 py-1 text-xs font-medium",
        focusRing,
      )}
    >
      <SearchIcon />
      <span className={wide ? "flex-1" : undefined}>{wide ? "Search…" : "Search"}</span>
      {wide && <kbd className="rounded border border-slate-200 px-1 font-sans text-xs text-slate-500">{mod}</kbd>}
    </button>
  );
}
