import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";

/** A secret shown once (a new API key, a one-time password): what it is, the value to copy, and what follows. */
export function ShownOnce({ id, value, children, footer }: { id: string; value: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mb-5 rounded-md border border-amber-300 bg-amber-50 p-4" role="status">
      {children}
      <div className="mt-3 flex items-center gap-2">
        <code id={id} data-testid={id} className="min-w-0 select-all break-all rounded bg-white px-3 py-1.5 font-mono text-slate-900 ring-1 ring-amber-200">
          {value}
        </code>
        <CopyButton value={value} selectId={id} />
      </div>
      {footer}
    </div>
  );
}
