"use client";

import { buttonClass } from "../ui";

export const DRY_RUN_EVENT = "toolgate:dry-run-schema";

/** Puts a suggestion's schema into the dry-run panel of the same page and scrolls to it. */
export function TryInDryRun({ parameters }: { parameters: unknown }) {
  return (
    <button
      type="button"
      className={buttonClass("secondary", "sm")}
      onClick={() => {
        window.dispatchEvent(new CustomEvent(DRY_RUN_EVENT, { detail: parameters }));
        document.getElementById("dry-run")?.scrollIntoView({ behavior: "smooth", block: "start" });
      }}
    >
      Try in a dry run
    </button>
  );
}
