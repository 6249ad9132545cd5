import type { ComponentProps, ReactNode } from "react";

/** Small presentational primitives (no state), usable from server and client components. */

export function cx(...classes: (string | false | null | undefined)[]) {
  return classes.filter(Boolean).join(" ");
}

export const focusRing = "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";

// A disabled button is grey in every variant and scheme (a paler indigo or red reads as a live
// button on the dark cards): slate shades follow the dark mirror of app/globals.css.
const disabledLook = "disabled:bg-slate-100 disabled:text-slate-500 disabled:shadow-none disabled:ring-1 disabled:ring-inset disabled:ring-slate-200";
const buttonVariants = {
  primary: `bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 ${disabledLook}`,
  secondary: "bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400",
  danger: `bg-red-600 text-white shadow-sm hover:bg-red-500 ${disabledLook}`,
  dangerSubtle: "bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50 disabled:text-slate-400 disabled:ring-slate-200",
  ghost: "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
} as const;
export type ButtonVariant = keyof typeof buttonVariants;

export function buttonClass(variant: ButtonVariant = "primary", size: "md" | "sm" = "md") {
  return cx(
    "inline-flex items-center justify-center gap-1.5 rounded-md font-medium transition-colors disabled:cursor-not-allowed",
    size === "md" ? "px-3.5 py-2" : "px-2.5 py-1 text-xs",
    buttonVariants[variant],
    focusRing,
  );
}

export function Button({
  variant = "primary",
  size = "md",
  className,
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: "md" | "sm" }) {
  return <button type={type} className={cx(buttonClass(variant, size), className)} {...props} />;
}

const controlClass = (invalid?: boolean) =>
  cx(
    "block w-full rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400",
    "focus:outline-none focus:ring-2 focus:ring-inset focus:ring-indigo-600 disabled:bg-slate-50 disabled:text-slate-500",
    invalid ? "ring-red-400" : "ring-slate-300",
  );

export function Input({ invalid, className, ...props }: ComponentProps<"input"> & { invalid?: boolean }) {
  return <input aria-invalid={invalid || undefined} className={cx(controlClass(invalid), className)} {...props} />;
}

export function Textarea({ invalid, className, ...props }: ComponentProps<"textarea"> & { invalid?: boolean }) {
  return <textarea aria-invalid={invalid || undefined} className={cx(controlClass(invalid), className)} {...props} />;
}

export function Select({ invalid, className, ...props }: ComponentProps<"select"> & { invalid?: boolean }) {
  return <select aria-invalid={invalid || undefined} className={cx(controlClass(invalid), "pr-8", className)} {...props} />;
}

/** A labelled form control with a hint and the server's message for this field. */
export function Field({
  label,
  htmlFor,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={htmlFor} className="block font-medium text-slate-800">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${htmlFor}-error`} className="text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-slate-500">{hint}</p>
      ) : null}
    </div>
  );
}

const alertTones = {
  error: "border-red-200 bg-red-50 text-red-800",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  info: "border-indigo-200 bg-indigo-50 text-indigo-900",
} as const;

export function Alert({ tone = "info", children, className }: { tone?: keyof typeof alertTones; children: ReactNode; className?: string }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cx("rounded-md border px-3 py-2", alertTones[tone], className)}>
      {children}
    </div>
  );
}

const badgeTones = {
  slate: "bg-slate-100 text-slate-700 ring-slate-200",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  red: "bg-red-50 text-red-700 ring-red-200",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-200",
} as const;

export function Badge({ tone = "slate", children }: { tone?: keyof typeof badgeTones; children: ReactNode }) {
  return <span className={cx("badge", badgeTones[tone])}>{children}</span>;
}

export function Card({
  title,
  description,
  actions,
  children,
  className,
  tone = "default",
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  tone?: "default" | "danger";
}) {
  return (
    <section className={cx("card", tone === "danger" && "border-red-200", className)}>
      {(title || description || actions) && (
        <header className="card-head">
          <div className="card-heading">
            {title && <h2 className={cx("card-title", tone === "danger" && "text-red-800")}>{title}</h2>}
            {description && <p className="card-desc">{description}</p>}
          </div>
          {actions}
        </header>
      )}
      {children !== undefined && <div className="card-body">{children}</div>}
    </section>
  );
}

/**
 * A page's heading: one line, cut with an ellipsis (the whole title on hover), or all of it
 * wrapped over lines with `wrap` (where the title is what the page is about, an incident's).
 */
export function PageHeader({ title, description, actions, wrap }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; wrap?: boolean }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
      <div className="min-w-0 max-w-full">
        <h1
          className={cx("text-xl font-semibold text-slate-900", wrap ? "[overflow-wrap:anywhere]" : "truncate")}
          title={!wrap && typeof title === "string" ? title : undefined}
        >
          {title}
        </h1>
        {description && <p className="mt-1 text-slate-500 [overflow-wrap:anywhere]">{description}</p>}
      </div>
      {actions}
    </div>
  );
}

/**
 * A name or id that may be long (tool, model, run names): one line cut with an ellipsis at
 * `max` width, the whole text on hover (title) and to screen readers.
 */
export function Truncated({ text, max = "max-w-[18rem]", className }: { text: string; max?: string; className?: string }) {
  return (
    <span title={text} className={cx("inline-block max-w-full truncate align-bottom", max, className)}>
      {text}
    </span>
  );
}

/** An option label of at most `max` characters (a long name would widen the select and its form). */
export const shortLabel = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What may be wider than the screen (a table, a code block's container): it scrolls on its own
 * instead of widening the page, is reachable and scrollable by keyboard, and is positioned, so
 * that absolutely placed content inside (screen-reader-only labels) scrolls with it.
 */
export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={cx("scroll-region", className)}>
      {children}
    </div>
  );
}

/**
 * A table with subtle borders; pass <thead>/<tbody> as children. On a phone its rows become
 * cards (`stack-table` in app/globals.css): give the cells after the first a `data-label`
 * naming what they hold, and `stack-full` to a long cell that should take a line of its own.
 */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <ScrollRegion label={label}>
      <table aria-label={label} className="stack-table min-w-full divide-y divide-slate-200 text-left">
        {children}
      </table>
    </ScrollRegion>
  );
}

/** A table's header and data cells (styled in app/globals.css); add utilities beside them (`${td} text-right`). */
export const th = "th-cell";
export const td = "td-cell";
/** A number in a cell, right-aligned with figures of one width (`num` in app/globals.css): `${td} ${num}`. */
export const num = "num";
