"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { decodeParam } from "../isomorphic/route-id";
import { explorerUrl } from "./calls/explorer-params";
import { linkClass } from "./calls/format";
import { Card, PageHeader } from "./ui";

/** What a missing page under /p/<slug>/<section>/<id> was, and how its ids match. */
const SECTIONS: Record<string, { what: string; idName: string; rule: string }> = {
  calls: { what: "call", idName: "id", rule: "Call ids are the harness's tool-call ids and must match exactly, including case." },
  runs: { what: "run", idName: "run id", rule: "Run ids must match exactly, including case." },
  tools: { what: "tool", idName: "name", rule: "A tool shows here once a call of it or its schema has arrived in the last 400 days; names match exactly." },
  alerts: { what: "incident", idName: "id", rule: "The incident may have been deleted together with its alert rule." },
};

/** The one "not found" of a project's pages (HTTP 404, inside the app's frame): what was asked for, how ids match, where to look. */
export function NotFoundInProject() {
  const [, , slug = "", section = "", raw] = usePathname().split("/");
  const known = raw ? SECTIONS[section] : undefined;
  const base = `/p/${slug}`;
  return (
    <>
      <PageHeader title={known ? `${known.what[0]!.toUpperCase()}${known.what.slice(1)} not found` : "Page not found"} />
      <Card>
        <p className="text-slate-700">
          {known ? (
            <>
              There is no {known.what} with the {known.idName}{" "}
              <code className="break-all rounded bg-slate-100 px-1 font-mono text-[13px]">{decodeParam(raw!)}</code> in this project. {known.rule}
            </>
          ) : (
            "This project has no such page."
          )}
        </p>
        <p className="mt-3 flex flex-wrap gap-4">
          <Link href={explorerUrl(slug)} className={linkClass}>
            Search the calls explorer
          </Link>
          <Link href={base} className={linkClass}>
            Go to the overview
          </Link>
        </p>
      </Card>
    </>
  );
}
