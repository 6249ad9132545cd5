"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "./ui";

/**
 * A button that asks before it deletes, revokes or removes: the first click replaces it with
 * `question`, the confirming button and Cancel. `onConfirm` gets a `close` to call once the
 * action succeeded; on failure the question stays, for another try or Cancel. `beside` (the
 * row's other actions) is hidden while it asks. Escape cancels, as Cancel does, and the focus
 * goes back to the first button.
 */
export function ConfirmButton({
  children,
  label,
  question,
  confirmLabel,
  pending = false,
  pendingText,
  onConfirm,
  beside,
  tone = "danger",
}: {
  /** the text of both buttons: "Delete", "Revoke", "Remove" */
  children: string;
  /** the accessible name of the first button, naming what it acts on: "Delete Pager" */
  label: string;
  question: string;
  /** the accessible name of the confirming button, when its text is not enough */
  confirmLabel?: string;
  pending?: boolean;
  /** the confirming button's text while the action runs: "Removing…" */
  pendingText?: string;
  onConfirm: (close: () => void) => void;
  beside?: ReactNode;
  /** "primary" for an action that adds rather than destroys (registering a schema): the same question, not in red */
  tone?: "danger" | "primary";
}) {
  const [asking, setAsking] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  const cancel = () => {
    cancelled.current = true;
    setAsking(false);
  };
  useEffect(() => {
    if (!asking) {
      if (cancelled.current) first.current?.focus();
      cancelled.current = false;
      return;
    }
    const onEscape = (event: KeyboardEvent) => event.key === "Escape" && cancel();
    window.addEventListener("keydown", onEscape);
    return () => window.removeEventListener("keydown", onEscape);
  }, [asking]);
  if (!asking) {
    return (
      <>
        {beside}
        <Button ref={first} variant={tone === "danger" ? "dangerSubtle" : "secondary"} size="sm" aria-label={label} onClick={() => setAsking(true)}>
          {children}
        </Button>
      </>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="text-slate-600">{question}</span>
      <Button variant={tone} size="sm" disabled={pending} aria-label={confirmLabel} onClick={() => onConfirm(() => setAsking(false))}>
        {pending && pendingText ? pendingText : children}
      </Button>
      <Button variant="secondary" size="sm" onClick={cancel}>
        Cancel
      </Button>
    </span>
  );
}
