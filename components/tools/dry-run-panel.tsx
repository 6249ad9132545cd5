"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { callsRead, emptyTally, mergeTallies, summarizeDryRun, type DryRunTally } from "../../isomorphic/dry-run";
import { prettySchema } from "../dashboard/schema-format";
import { useTRPCClient } from "../trpc-provider";
import { DRY_RUN_EVENT } from "./try-in-dry-run";
import { ConfirmButton } from "../confirm-button";
import { Alert, Button, Select, Table, td, th } from "../ui";
import { formatCount, formatPercent } from "../../contracts/format-number";

type Version = { version: string; firstSeenAt: string | Date; parameters: unknown };
/** `schema`: the edited schema the run replayed (null for a registered version), which "Register this schema" registers. */
type Run = { tally: DryRunTally; total: number | null; done: boolean; stopped: boolean; schema: Record<string, unknown> | null };
type Registered = { version: string; created: boolean };

const PAGE_SIZE = 2_000;

/**
 * Replays the tool's newest calls of the page's range against a proposed schema, page by page
 * (each page one request, so the bar moves and the server stays responsive), with the shared
 * classifier on the server: which invalid calls it would fix and which valid ones it would break.
 */
export function DryRunPanel({
  project,
  tool,
  versions,
  range,
  callBase,
}: {
  project: string;
  tool: string;
  versions: Version[];
  range: { from: string; to: string };
  callBase: string;
}) {
  const client = useTRPCClient();
  const [source, setSource] = useState<string>("edit");
  const [text, setText] = useState(() => prettySchema(versions[0]?.parameters ?? { type: "object", properties: {} }));
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<Registered | null>(null);
  const router = useRouter();
  const [registering, setRegistering] = useState(false);
  const [registerError, setRegisterError] = useState<string | null>(null);
  const cancel = useRef(false);
  const running = run !== null && !run.done;

  // A suggestion's "Try in a dry run" hands its schema over.
  useEffect(() => {
    const take = (e: Event) => {
      if (running) return;
      setSource("edit");
      setText(prettySchema((e as CustomEvent<unknown>).detail));
      setRun(null);
      setError(null);
    };
    window.addEventListener(DRY_RUN_EVENT, take);
    return () => window.removeEventListener(DRY_RUN_EVENT, take);
  }, [running]);

  async function start() {
    setError(null);
    setRegistered(null);
    setRegisterError(null);
    let proposal: { parameters: Record<string, unknown> } | { version: string };
    if (source === "edit") {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("the schema must be a JSON object");
        proposal = { parameters: parsed as Record<string, unknown> };
      } catch (e) {
        setRun(null); // a result shown under this error would be another schema's
        setError(`The proposed schema is not valid JSON: ${e instanceof Error ? e.message : String(e)}. Fix it and run again.`);
        return;
      }
    } else proposal = { version: source };
    cancel.current = false;
    let state: Run = { tally: emptyTally(), total: null, done: false, stopped: false, schema: "parameters" in proposal ? proposal.parameters : null };
    setRun(state);
    let cursor: { timestamp: string; id: string } | null = null;
    try {
      do {
        const page = await client.tools.dryRunPage.mutate({ project, tool, ...proposal, range, cursor, pageSize: PAGE_SIZE });
        const tally = mergeTallies(state.tally, page.tally);
        const atLimit = callsRead(tally) >= page.limit;
        cursor = atLimit ? null : page.next;
        state = { ...state, tally, total: state.total ?? page.total, done: !cursor || cancel.current, stopped: cancel.current };
        setRun(state);
      } while (cursor && !cancel.current);
    } catch (e) {
      // No result under an error: a refused schema replayed nothing, and a run cut short would read as complete.
      setRun(null);
      const message = e instanceof Error ? e.message : String(e);
      setError(
        callsRead(state.tally) === 0
          ? `The dry run did not start: ${message}`
          : `The dry run stopped after ${formatCount(callsRead(state.tally))} calls, so there is no result: ${message}`,
      );
    }
  }

  /**
   * Registers the schema the finished run replayed, as the Tools page's paste does (tools.registerPasted,
   * admins): a new version of the tool, against which new calls are checked.
   */
  async function register(schema: Record<string, unknown>, close: () => void) {
    setRegistering(true);
    setRegisterError(null);
    try {
      const answer = await client.tools.registerPasted.mutate({ project, definitions: JSON.stringify({ name: tool, parameters: schema }), name: tool });
      const mine = answer.tools.find((t) => t.name === tool) ?? answer.tools[0]!;
      setRegistered({ version: mine.version, created: mine.created });
      close();
      router.refresh(); // the page around the panel (its versions, its schema) shows the new version
    } catch (e) {
      setRegisterError(`Not registered: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setRegistering(false);
    }
  }

  const total = run?.total ?? 0;
  const progress = run ? (total > 0 ? Math.min(1, callsRead(run.tally) / total) : run.done ? 1 : 0) : 0;
  const callHref = (id: string) => `${callBase}/${encodeURIComponent(id)}`;

  return (
    <div className="space-y-4" data-testid="dry-run">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-xs font-medium text-slate-600">
          Proposed schema
          <Select
            className="mt-1 block w-72"
            value={source}
            onChange={(e) => {
              setSource(e.target.value);
              setRun(null);
              setError(null);
            }}
            disabled={running}
            data-testid="dry-run-source"
          >
            <option value="edit">Edit the schema below</option>
            {versions.map((v, i) => (
              <option key={v.version} value={v.version}>
                Version {v.version.slice(0, 7)}
                {i === 0 ? " (current)" : ""} · {String(v.firstSeenAt).slice(0, 10)}
              </option>
            ))}
          </Select>
        </label>
        <Button onClick={start} disabled={running} data-testid="dry-run-start">
          {running ? "Replaying…" : "Replay calls"}
        </Button>
        {running && (
          <Button variant="secondary" onClick={() => (cancel.current = true)}>
            Stop
          </Button>
        )}
        <p className="text-xs text-slate-500">The newest calls of the range, up to 100,000, against the proposed schema.</p>
      </div>
      {source === "edit" && (
        <textarea
          aria-label="Proposed JSON Schema"
          data-testid="dry-run-schema"
          className="h-56 w-full rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            // the result was the previous text's
            if (run?.done) setRun(null);
            setRegistered(null);
          }}
          disabled={running}
        />
      )}
      {error && (
        <Alert tone="error">
          <span data-testid="dry-run-error">{error}</span>
        </Alert>
      )}
      {run && (
        <div className="space-y-4">
          <div>
            <div className="mb-1 flex justify-between text-xs text-slate-600">
              <span data-testid="dry-run-progress-text">
                {formatCount(callsRead(run.tally))} of {run.total === null ? "…" : formatCount(total)} calls replayed
                {run.tally.skipped > 0 && ` (${formatCount(run.tally.skipped)} skipped: arguments too large)`}
              </span>
              <span>{run.done ? (run.stopped ? "stopped" : "done") : formatPercent(progress, { digits: 0 })}</span>
            </div>
            <div
              role="progressbar"
              aria-label="Dry run progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              data-testid="dry-run-progress"
              className="h-2 overflow-hidden rounded-full bg-slate-100"
            >
              <div className="h-full rounded-full bg-indigo-500 transition-[width]" style={{ width: `${progress * 100}%` }} />
            </div>
          </div>
          {run.done && <DryRunResult tally={run.tally} callHref={callHref} />}
          {run.done && !run.stopped && run.schema && (
            <div className="space-y-2 border-t border-slate-100 pt-4" data-testid="dry-run-register">
              {registered ? (
                <Alert tone="success">
                  <span data-testid="dry-run-registered">
                    {registered.created
                      ? `Registered: version ${registered.version.slice(0, 7)} of ${tool} is now its current schema; new calls are checked against it.`
                      : `Already registered: this schema is version ${registered.version.slice(0, 7)} of ${tool}; nothing changed.`}{" "}
                    Calls stored before keep their verdicts until a Re-check.{" "}
                    {/* the panel is on the tool page: an anchor within it (a Link to the same page kept the old #dry-run) */}
                    <a href="#versions" className="font-medium text-indigo-700 hover:underline">
                      See its versions
                    </a>
                  </span>
                </Alert>
              ) : (
                <>
                  <p className="text-slate-600">Happy with what it would fix and break? Register the schema you just tested as {tool}&apos;s new version.</p>
                  <ConfirmButton
                    tone="primary"
                    label={`Register this schema for ${tool}`}
                    question={`Register it as ${tool}'s current schema? New calls are checked against it.`}
                    confirmLabel={`Register this schema for ${tool}, confirmed`}
                    pending={registering}
                    pendingText="Registering…"
                    onConfirm={(close) => void register(run.schema!, close)}
                  >
                    Register this schema
                  </ConfirmButton>
                  {registerError && (
                    <Alert tone="error">
                      <span data-testid="dry-run-register-error">{registerError}</span>
                    </Alert>
                  )}
                </>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function DryRunResult({ tally, callHref }: { tally: DryRunTally; callHref: (id: string) => string }) {
  const tiles: [string, number, string][] = [
    ["Replayed", tally.scanned, "text-slate-900"],
    ["Fixed: invalid → valid", tally.fixed, tally.fixed ? "text-emerald-700" : "text-slate-900"],
    ["Broken: valid → invalid", tally.broken, tally.broken ? "text-red-700" : "text-slate-900"],
    ["Still invalid", tally.stillInvalid, "text-slate-900"],
  ];
  const examples = (ids: string[]) =>
    ids.map((id, i) => (
      <Link key={id} href={callHref(id)} title={id} className="mr-2 font-medium text-indigo-700 hover:underline">
        #{i + 1}
      </Link>
    ));
  return (
    <div className="space-y-4" data-testid="dry-run-result">
      <Alert tone={tally.broken > 0 ? "warning" : tally.scanned === 0 ? "info" : "success"}>{summarizeDryRun(tally)}</Alert>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {tiles.map(([label, value, tone]) => (
          <div key={label} className="rounded-md border border-slate-200 px-3 py-2">
            <p className="text-xs text-slate-500">{label}</p>
            <p className={`text-lg font-semibold tabular-nums ${tone}`} data-testid={`dry-run-${label.split(":")[0]!.toLowerCase().replace(/ /g, "-")}`}>
              {formatCount(value)}
            </p>
          </div>
        ))}
      </div>
      {tally.byCategory.length > 0 && (
        <Table label="Dry run by category">
          <thead>
            <tr>
              <th className={th}>Category</th>
              <th className={`${th} text-right`}>Fixed</th>
              <th className={`${th} text-right`}>Broken</th>
              <th className={`${th} text-right`}>Still invalid</th>
              <th className={th}>Examples</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tally.byCategory
              .slice()
              .sort((a, b) => b.fixed + b.broken + b.stillInvalid - (a.fixed + a.broken + a.stillInvalid))
              .map((c) => (
                <tr key={c.category}>
                  <td className={td}>{CATEGORY_LABELS[c.category as Category] ?? c.category}</td>
                  <td data-label="Fixed" className={`${td} text-right tabular-nums`}>
                    {formatCount(c.fixed)}
                  </td>
                  <td data-label="Broken" className={`${td} text-right tabular-nums ${c.broken ? "text-red-700" : ""}`}>
                    {formatCount(c.broken)}
                  </td>
                  <td data-label="Still invalid" className={`${td} text-right tabular-nums`}>
                    {formatCount(c.stillInvalid)}
                  </td>
                  <td className={`${td} text-xs`}>
                    {c.examples.broken.length > 0 && <span className="mr-2 text-red-700">broken: {examples(c.examples.broken)}</span>}
                    {c.examples.fixed.length > 0 && <span className="text-emerald-700">fixed: {examples(c.examples.fixed)}</span>}
                  </td>
                </tr>
              ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
