import Link from "next/link";
import { buttonClass, cx } from "../../ui";
import { explorerUrl, type ExplorerQuery } from "../explorer-params";
import { callHref } from "../format";

/**
 * The previous and next step of the call's run (run order, docs/pairing.md), and the way back:
 * to the explorer list the call was opened from (`list`, its query), else to this run's calls.
 * A step button without a step to go to is shown disabled.
 */
export function RunNav({
  slug,
  previous,
  next,
  list,
  runId,
}: {
  slug: string;
  previous: string | null;
  next: string | null;
  /** the explorer query the call was opened from (listQuery), or null */
  list: ExplorerQuery | null;
  runId: string;
}) {
  const back = explorerUrl(slug, list ?? { range: "all", runId });
  return (
    <div className="flex max-w-full flex-wrap items-center gap-2 sm:shrink-0">
      <Link href={back} className={buttonClass("ghost", "sm")} data-testid="back-to-list">
        {list !== null ? "← Back to the list" : "← Calls of this run"}
      </Link>
      <nav aria-label="Steps of this run" className="flex items-center gap-2">
        <RunNavLink slug={slug} id={previous} list={list} label="← Previous step" />
        <RunNavLink slug={slug} id={next} list={list} label="Next step →" />
      </nav>
    </div>
  );
}

function RunNavLink({ slug, id, list, label }: { slug: string; id: string | null; list: ExplorerQuery | null; label: string }) {
  if (!id) {
    return (
      <span className={cx(buttonClass("secondary", "sm"), "pointer-events-none opacity-50")} aria-disabled="true">
        {label}
      </span>
    );
  }
  return (
    <Link
      href={callHref(slug, id, list ?? undefined)}
      className={buttonClass("secondary", "sm")}
      title={`Call ${id}, the ${label.includes("Previous") ? "previous" : "next"} step of this run`}
    >
      {label}
    </Link>
  );
}
