import type { ReactNode } from "react";
import { PageHeader } from "../ui";

/** The heading that the call page and the run page share (a missing one is app/p/[slug]/not-found.tsx). */

type Kind = "call" | "run";

const KINDS = { call: { label: "Call" }, run: { label: "Run" } } as const satisfies Record<Kind, { label: string }>;

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
