import Link from "next/link";
import { buttonClass, cx } from "../../ui";
import { callHref } from "../format";

/** "← Previous call" and "Next call →" in the run's order; a button without a call to go to is shown disabled. */
export function RunNav({ slug, previous, next }: { slug: string; previous: string | null; next: string | null }) {
  return (
    <nav aria-label="Calls of this run" className="flex shrink-0 items-center gap-2">
      <RunNavLink slug={slug} id={previous} label="← Previous call" />
      <RunNavLink slug={slug} id={next} label="Next call →" />
    </nav>
  );
}

function RunNavLink({ slug, id, label }: { slug: string; id: string | null; label: string }) {
  if (!id) {
    return (
      <span className={cx(buttonClass("secondary", "sm"), "pointer-events-none opacity-50")} aria-disabled="true">
        {label}
      </span>
    );
  }
  return (
    <Link href={callHref(slug, id)} className={buttonClass("secondary", "sm")} title={`Call ${id}`}>
      {label}
    </Link>
  );
}
