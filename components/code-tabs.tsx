"use client";

import { useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { cx, focusRing } from "./ui";

export type CodeTab = { id: string; label: string; content: ReactNode };

const noSubscription = () => () => {};

/**
 * One of several code examples at a time (TypeScript / Python …), as an ARIA tab list: arrow keys,
 * Home and End move between the tabs. Before the page's script has run (or without JavaScript) every
 * example is shown, one after another, each under its label.
 */
export function CodeTabs({ label, tabs }: { label: string; tabs: CodeTab[] }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [selected, setSelected] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const base = useId();

  if (!hydrated) {
    return (
      <div className="min-w-0 space-y-4" role="group" aria-label={label}>
        {tabs.map((tab) => (
          <div key={tab.id} className="min-w-0 space-y-2" data-code-tab={tab.id}>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{tab.label}</p>
            {tab.content}
          </div>
        ))}
      </div>
    );
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? (selected + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (selected + last) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setSelected(next);
    buttons.current[next]?.focus();
  }

  return (
    <div className="min-w-0 space-y-3">
      <div role="tablist" aria-label={label} className="inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={i === selected}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => setSelected(i)}
            onKeyDown={onKeyDown}
            className={cx(
              "rounded-md px-3 py-1 text-sm font-medium",
              focusRing,
              i === selected ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200" : "text-slate-600 hover:text-slate-900",
            )}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={i !== selected}
          className="min-w-0"
          data-code-tab={tab.id}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
