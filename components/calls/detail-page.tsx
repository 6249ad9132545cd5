import Link from "next/link";
import type { ReactNode } from "react";
import { Card, PageHeader } from "../ui";
import { explorerHref, linkClass } from "./format";
import { decodeParam } from "./route-id";

/** The heading and the "not found" answer that the call page and the run page share. */

type Kind = "call" | "run";

const KINDS = {
  call: { label: "Call", idName: "id", rule: "Call ids are the harness's tool-call ids and must match exactly, including case." },
  run: { label: "Run", idName: "run id", rule: "Run ids must match exactly, including case." },
} as const satisfies Record<Kind, { label: string; idName: string; rule: string }>;

/** "Call <id>" / "Run <id>" as the page heading (the id in monospace), with a line under it and actions on the right. */
export function DetailHeader({ kind, id, description, actions }: { kind: Kind; id: string; description: ReactNode; actions: ReactNode }) {
  return (
    <PageHeader
      title={
        <>
          {KINDS[kind].label} <span className="font-mono text-lg">{id}</span>
        </>
      }
      description={description}
      actions={actions}
    />
  );
}

/** The page for an id this project has no call or run for: the id as decoded, how ids match, and the way to search. */
export function NotFoundPage({ kind, slug, rawId }: { kind: Kind; slug: string; rawId: string }) {
  const { label, idName, rule } = KINDS[kind];
  return (
    <>
      <PageHeader title={`${label} not found`} />
      <Card>
        <p className="text-slate-700">
          There is no call with the {idName} <code className="rounded bg-slate-100 px-1 font-mono text-[13px]">{decodeParam(rawId)}</code> in this project.{" "}
          {rule}
        </p>
        <p className="mt-3">
          <Link href={explorerHref(slug)} className={linkClass}>
            Search the calls explorer
          </Link>
        </p>
      </Card>
    </>
  );
}
