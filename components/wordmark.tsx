import { cx } from "./ui";

/** The Toolgate wordmark: a gate glyph and the name. */
export function Wordmark({ className }: { className?: string }) {
  return (
    <span className={cx("inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900", className)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 text-indigo-600" fill="none" stroke="currentColor" strokeWidth="2">
        <rect x="3" y="3" width="18" height="18" rx="4" />
        <path d="M9 7v10M15 7v10M9 12h6" strokeLinecap="round" />
      </svg>
      <span className="text-base">Toolgate</span>
    </span>
  );
}
