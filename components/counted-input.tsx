"use client";

import { useState, type ComponentProps } from "react";
import { Input } from "./ui";
import { formatCount } from "../contracts/format-number";

/** "12 / 80 characters", or how far over the limit the text is (counted as the server counts: ends trimmed). */
function lengthText(length: number, max: number) {
  return length > max
    ? `${formatCount(length - max)} over the limit of ${formatCount(max)} characters: shorten it (nothing is cut)`
    : `${formatCount(length)} / ${formatCount(max)} characters`;
}

/**
 * A text input that shows its limit (contracts/text-limits.ts) and how much of it is used, and
 * turns red past it. It has no maxLength: a browser cuts pasted text there without a word, and
 * the server refuses an over-long text with a message instead.
 */
export function CountedInput({ max, id, onChange, invalid, ...props }: ComponentProps<typeof Input> & { max: number; id: string }) {
  const controlled = props.value !== undefined;
  const [typed, setTyped] = useState(String(props.defaultValue ?? "").trim().length);
  const length = controlled ? String(props.value).trim().length : typed;
  const over = length > max;
  const countId = `${id}-count`;
  return (
    <>
      <Input
        id={id}
        {...props}
        aria-describedby={[props["aria-describedby"], countId].filter(Boolean).join(" ")}
        invalid={invalid || over}
        onChange={(e) => {
          if (!controlled) setTyped(e.target.value.trim().length);
          onChange?.(e);
        }}
      />
      <p id={countId} data-testid="length-count" className={over ? "text-xs font-medium text-red-700" : "text-xs text-slate-500"}>
        {lengthText(length, max)}
      </p>
    </>
  );
}
