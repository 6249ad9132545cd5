"use client";

import { useState } from "react";
import { Button } from "./ui";

/** Copies `value`; falls back to selecting `selectId`'s text where the clipboard API is missing. */
export function CopyButton({ value, selectId, label = "Copy" }: { value: string; selectId?: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      const el = selectId ? document.getElementById(selectId) : null;
      if (el) window.getSelection()?.selectAllChildren(el);
      setState("failed");
    }
    window.setTimeout(() => setState("idle"), 2000);
  }
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-live="polite">
      {state === "copied" ? "Copied" : state === "failed" ? "Selected: press Ctrl+C" : label}
    </Button>
  );
}
