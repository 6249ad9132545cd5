"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition, type ReactNode } from "react";
import { isRangePreset } from "../../contracts/metrics";

/**
 * A GET form whose fields live in the URL. Without JavaScript it submits natively (the page
 * then drops empty fields by redirecting); with it, choosing from a list applies at once
 * and the URL carries only the fields that are set.
 */
export function FilterForm({ action, children, className, label }: { action: string; children: ReactNode; className?: string; label: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // set once hydrated: from then on a choice in a list applies at once (tests wait for it)
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  function go(form: HTMLFormElement) {
    const query = new URLSearchParams();
    const data = new FormData(form);
    const preset = String(data.get("range") ?? "");
    for (const [key, value] of data) {
      if (typeof value !== "string" || !value.trim()) continue;
      if ((key === "from" || key === "to") && (isRangePreset(preset) || preset === "all")) continue; // a preset replaces a custom range
      if (key === "range" && value === "custom") continue;
      query.append(key, value.trim());
    }
    const qs = query.toString();
    startTransition(() => router.push(qs ? `${action}?${qs}` : action));
  }

  return (
    <form
      method="get"
      action={action}
      aria-label={label}
      aria-busy={pending || undefined}
      data-ready={ready || undefined}
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        go(e.currentTarget);
      }}
      onChange={(e) => {
        const target = e.target as HTMLElement;
        if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type === "checkbox")) go(e.currentTarget);
      }}
    >
      {children}
    </form>
  );
}
