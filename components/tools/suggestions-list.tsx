import { Badge } from "../ui";
import { SchemaDiff } from "./schema-diff";
import { Ticks } from "./ticks";
import { TryInDryRun } from "./try-in-dry-run";
import type { SuggestionRow } from "./types";
import { formatCount } from "../../contracts/format-number";

const SEVERITY_TONE = { error: "red", warning: "amber", info: "slate" } as const;

const hasDiff = (s: SuggestionRow) => JSON.stringify(s.before) !== JSON.stringify(s.after);

/** The schema doctor's suggestions: evidence, the change in words and as a diff of the tool. */
export function SuggestionsList({
  suggestions,
  callHref,
  canDryRun,
}: {
  suggestions: SuggestionRow[];
  callHref: (id: string) => string;
  /** the page has a dry-run panel (admins): each suggestion with a schema change can be tried there */
  canDryRun: boolean;
}) {
  return (
    <ol className="space-y-4" data-testid="suggestions">
      {suggestions.map((s) => (
        <li
          key={s.id}
          className="rounded-md border border-slate-200 p-4"
          data-testid="suggestion"
          data-kind={s.kind}
          data-path={s.path}
          data-changes-verdicts={String(s.changesVerdicts)}
        >
          <div className="flex items-start justify-between gap-3">
            <h3 className="font-medium text-slate-900">
              <Ticks text={s.title} />
            </h3>
            <span className="flex shrink-0 gap-1.5">
              <Badge tone={SEVERITY_TONE[s.severity]}>{s.severity}</Badge>
              {s.calls ? (
                <Badge tone="amber">
                  {formatCount(s.calls.supporting)} of {formatCount(s.calls.of)} calls
                </Badge>
              ) : s.source === "calls" ? (
                <Badge tone="amber">{formatCount(s.failures)} failed calls</Badge>
              ) : (
                <Badge>definition lint</Badge>
              )}
            </span>
          </div>
          <p className="mt-1 text-slate-600">
            <Ticks text={s.evidence} />
            {s.examples.length > 0 && (
              <span className="ml-1 text-xs">
                e.g.{" "}
                {s.examples.map((id, i) => (
                  <a key={id} href={callHref(id)} className="mr-1.5 font-medium text-indigo-700 hover:underline">
                    call {i + 1}
                  </a>
                ))}
              </span>
            )}
          </p>
          <p className="mt-2 text-slate-800">
            <Ticks text={s.change} />
          </p>
          {s.unknown && (
            <p className="mt-2 text-slate-600" data-testid="suggestion-unknown">
              Toolgate cannot know <Ticks text={s.unknown} />: only you can write that{hasDiff(s) ? ", so the change below leaves it out" : ""}.
            </p>
          )}
          {hasDiff(s) && (
            <div className="mt-3">
              <SchemaDiff before={s.before} after={s.after} />
            </div>
          )}
          {s.changesVerdicts
            ? canDryRun && (
                <div className="mt-3 flex justify-end">
                  <TryInDryRun parameters={s.after.parameters} />
                </div>
              )
            : hasDiff(s) && <p className="mt-2 text-xs text-slate-500">Descriptions only: no call&apos;s verdict changes, so there is nothing to dry-run.</p>}
        </li>
      ))}
    </ol>
  );
}
