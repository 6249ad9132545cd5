import type { PoolClient } from "pg";
import { eventSchema, type IngestResult, type RejectedEvent } from "../../../contracts/event";
import { describeIssues, issueLine } from "../../../contracts/issues";
import { timeSlicer } from "../time-slice";
import { inTransaction } from "../../db/transaction";
import { verdictFor, type registryResolver } from "../../domain/verdicts";
import { lockRollups } from "../rollups/write";
import { pairRuns, writeCalls, type PreparedCall } from "./write-calls";
import { markRunsStale } from "../metrics/spirals-kept";
import { recordToolSets } from "../tools/tool-sets";

/**
 * The one ingestion pipeline. A source (ingest.batch, OTLP traces, OTLP logs; the SDK and the
 * MCP gateway send ingest.batch) turns its input into events and keeps its own side records;
 * the pipeline gates them (checkEvents: the event contract, classification), takes the
 * project's turn, writes the calls with their rollups, pairs them, and answers what became of
 * each event, which the source renders in its own protocol (tRPC's rejections, OTLP's
 * partial_success). Everything one request writes is written in ONE transaction, and its
 * answer is given only after the commit, so an accepted event is durable.
 */

type Registry = ReturnType<typeof registryResolver>;

/** Events a source hands the pipeline (in the source's order: a rejection names its index), and the registry they are classified by. */
export type Part = { events: unknown[]; registry: Registry };

/** Events checked against the contract and classified, ready to be written. */
type CheckedEvents = { calls: PreparedCall[]; duplicates: number; rejected: RejectedEvent[] };

/**
 * What became of a part's events: rejected by the gate (with the index, path and message), a
 * duplicate (an id repeated in the part, or stored before), or accepted: new, its id in
 * `inserted`. `calls` are the gate's copies that were written (or found stored); `side` is what
 * the source's afterWrite kept of its own records.
 */
export type Outcome<P extends Part = Part, S = void> = IngestResult & { part: P; calls: PreparedCall[]; inserted: string[]; side: S };

/**
 * A source of events. Every hook but `answer` is optional; the pipeline calls them in this order:
 * - `before`, outside the transaction: the events known without the locks (gated there too,
 *   so that the locks are held only while writing);
 * - the transaction takes its turn: the project's rollups (shared) and `lockKeys`;
 * - `during`: the parts to write, given what `before` gave (by default that part alone);
 * - per part, after the gate: `beforeWrite` keeps the side records the calls depend on, sets
 *   what only the transaction knows on the checked events (OTLP: step and turn), and names runs
 *   whose order changed without a new call, which are paired again after the write;
 *   then the calls are written and paired; then `afterWrite` keeps the records that depend on
 *   the calls written (OTLP: results, tool executions);
 * - `answer`: the source's answer, from every part's outcome (still in the transaction: a source
 *   may record what it received).
 */
export type Source<P extends Part, A, S = void> = {
  /**
   * The runs and traces (or anything else) whose writes depend on each other: requests that share
   * a key take turns (a transaction-level advisory lock per key, in sorted order so that two
   * requests never wait for each other, held to the commit), so the later one sees all of the
   * earlier one. Requests with no key in common do not wait for each other.
   */
  lockKeys?: string[];
  before?: () => Promise<P | undefined>;
  during?: (client: PoolClient, before: P | undefined) => Promise<P[]>;
  beforeWrite?: (client: PoolClient, part: P, calls: PreparedCall[]) => Promise<string[]>;
  afterWrite?: (client: PoolClient, written: Omit<Outcome<P>, "side">) => Promise<S>;
  answer: (client: PoolClient, outcomes: Outcome<P, S>[]) => Promise<A>;
};

/**
 * The gate every tool call goes through, whatever brought it: each event is checked on its own
 * against the event contract (contracts/event.ts: what the columns can store), so one bad event
 * never sinks the rest, and classified. An id repeated within the events is a duplicate.
 */
async function checkEvents(events: unknown[], registry: Registry): Promise<CheckedEvents> {
  const rejected: RejectedEvent[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const calls: PreparedCall[] = [];
  const pause = timeSlicer();
  for (const [index, raw] of events.entries()) {
    await pause(); // compiling a tool's schema on first use may take 100 ms (docs/limits.md)
    const parsed = eventSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error, `events[${index}]`);
      const id = (raw as { id?: unknown } | null)?.id;
      rejected.push({
        index,
        ...(typeof id === "string" ? { id } : {}),
        path: issues[0]!.path,
        message: issues.map(issueLine).join("; "),
      });
      continue;
    }
    if (seen.has(parsed.data.id)) {
      duplicates++;
      continue;
    }
    seen.add(parsed.data.id);
    calls.push({ event: parsed.data, verdict: verdictFor(parsed.data, registry) });
  }
  return { calls, duplicates, rejected };
}

/** The transaction's turn: the project's rollups first (shared: rollups/write.ts says why first), then the source's keys. */
async function takeTurn(client: PoolClient, projectId: string, keys: string[]) {
  await lockRollups(client, projectId, "write");
  if (!keys.length) return;
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || k, 0)) FROM unnest($2::text[]) k ORDER BY k`, [
    projectId,
    [...new Set(keys)].sort(),
  ]);
}

/** Runs a source through the pipeline for a project: gate, turn, write, pairing and rollups, the source's side records; answers the source's answer. */
export async function ingest<P extends Part, A, S = void>(projectId: string, source: Source<P, A, S>): Promise<A> {
  const early = await source.before?.();
  const gated = early && (await checkEvents(early.events, early.registry));
  return inTransaction(async (client) => {
    await takeTurn(client, projectId, source.lockKeys ?? []);
    const parts = source.during ? await source.during(client, early) : early ? [early] : [];
    const outcomes: Outcome<P, S>[] = [];
    for (const part of parts) {
      const { calls, duplicates, rejected } = part === early && gated ? gated : await checkEvents(part.events, part.registry);
      const reordered = (await source.beforeWrite?.(client, part, calls)) ?? [];
      const inserted = await writeCalls(client, projectId, calls);
      await recordToolSets(
        client,
        projectId,
        calls.map((c) => c.event),
      );
      if (reordered.length) {
        await pairRuns(client, projectId, reordered);
        await markRunsStale(client, projectId, reordered); // their order changed, and so may their spirals
      }
      const written = { part, calls, inserted, accepted: inserted.length, duplicates: duplicates + calls.length - inserted.length, rejected };
      outcomes.push({ ...written, side: (await source.afterWrite?.(client, written)) as S });
    }
    return source.answer(client, outcomes);
  });
}
