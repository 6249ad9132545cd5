"use client";

import { buttonClass } from "../ui";

export const DRY_RUN_EVENT = "toolgate:dry-run-schema";

/** Puts a suggestion's schema into the dry-run panel of the same page and opens its section. */
export function TryInDryRun({ parameters }: { parameters: unknown }) {
  return (
    <button
      type="button"
      className={buttonClass("secondary", "sm")}
      onClick={() => {
        window.dispatchEvent(new CustomEvent(DRY_RUN_EVENT, { detail: parameters }));
        window.location.hash = "dry-run"; // the tool page's dry-run section (components/page-sections.tsx)
      }}
    >
      Try in a dry run
    </button>
  );
}
