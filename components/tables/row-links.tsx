import Link from "next/link";

/** A table row's way on: its calls in the explorer and its error messages (or invalid calls), with the page's range. */
export function RowLinks({ calls, errors, errorsLabel = "Errors", name }: { calls: string; errors: string; errorsLabel?: string; name: string }) {
  const link = "row-link"; // app/globals.css
  return (
    <span className="flex justify-end gap-3 text-xs" data-testid="row-links">
      <Link href={calls} className={link} aria-label={`Calls of ${name}`}>
        Calls
      </Link>
      <Link href={errors} className={link} aria-label={`${errorsLabel} of ${name}`}>
        {errorsLabel}
      </Link>
    </span>
  );
}
