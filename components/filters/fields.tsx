// The fields of the filter forms (explorer, error messages, incidents): a labelled field, and a
// select of options that keeps the current value even when it is not in the list. The time range is
// the shared range control (components/dashboard/range-picker.tsx), outside the forms.

import type { ReactNode } from "react";
import { buttonClass, cx, Select, shortLabel } from "../ui";
import { withCurrent } from "./options";

const labels = {
  plain: "block text-xs font-medium text-slate-600",
  caps: "block text-xs font-medium uppercase tracking-wide text-slate-500",
};

export function FilterField({
  label,
  htmlFor,
  look = "plain",
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  look?: keyof typeof labels;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cx("space-y-1", className)}>
      <label htmlFor={htmlFor} className={labels[look]}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** A select of `values` after an "all" choice (value ""), showing `current` even when the values lack it. */
export function OptionSelect({
  id,
  name,
  values,
  current,
  all,
  className,
}: {
  id: string;
  name: string;
  values: readonly (string | null | undefined)[];
  current: string | undefined;
  all: string;
  className?: string;
}) {
  return (
    <Select id={id} name={name} defaultValue={current ?? ""} className={className}>
      <option value="">{all}</option>
      {withCurrent(values, current).map((v) => (
        <option key={v} value={v} title={v}>
          {shortLabel(v)}
        </option>
      ))}
    </Select>
  );
}

/** The Apply button of a filter form, shown only without JavaScript (with it, a choice applies at once: FilterForm). */
export function NoScriptApply() {
  return (
    <noscript>
      <button type="submit" className={buttonClass("secondary")}>
        Apply
      </button>
    </noscript>
  );
}
