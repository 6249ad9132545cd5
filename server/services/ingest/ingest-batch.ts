import type { PoolClient } from "pg";
import { eventSchema, MAX_EVENTS_PER_BATCH, type IngestResult, type RejectedEvent, type ToolCallEvent } from "../../../contracts/event";
import { describeIssues, issueLine } from "../../../contracts/issues";
import { invalid } from "../../domain/errors";
import { timeSlicer } from "../time-slice";
import { inTransaction } from "../../db/transaction";
import { registryResolver, verdictFor } from "../../domain/verdicts";
import { loadToolVersions } from "../tools/registry";
import { lockRollups } from "../rollups/write";
import { pairRuns, writeCalls, type PreparedCall } from "./write-calls";
import { recordToolSets } from "../tools/tool-sets";
import { formatCount } from "../../../contracts/format-number";

type Registry = ReturnType<typeof registryResolver>;

/** Events checked against the contract and classified, ready to be written by ingestCalls. */
export type CheckedEvents = { calls: PreparedCall[]; duplicates: number; rejected: RejectedEvent[] };

/**
 * The one gate every tool call goes through, whatever protocol brought it (ingest.batch,
 * OTLP): each event is checked on its own against the event contract (contracts/event.ts:
 * what the columns can store), so one bad event never sinks the rest, and classified.
 */
export async function checkEvents(events: unknown[], registry: Registry): Promise<CheckedEvents> {
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

/**
 * Writes checked events in the caller's transaction (calls, rollups, pairing). Options:
 * `stepOf` gives each event the step only the transaction knows (OTLP: its model call's rank
 * in the run), which is also its turn, set on the checked event itself (a copy the gate made: no second copy of every
 * event); `alsoPair` names runs whose order changed without a new call (they are paired again).
 * Also returns the ids of the calls that were new.
 */
export async function ingestCalls(
  client: PoolClient,
  projectId: string,
  checked: CheckedEvents,
  options: { stepOf?: (event: ToolCallEvent) => number | undefined; alsoPair?: string[] } = {},
): Promise<IngestResult & { inserted: string[] }> {
  const { stepOf, alsoPair = [] } = options;
  const { calls } = checked;
  await lockRollups(client, projectId, "write");
  // the calls of one model call share its rank: that is their turn too (they were requested together)
  if (stepOf) for (const { event } of calls) event.step = event.turn = stepOf(event);
  const inserted = await writeCalls(client, projectId, calls);
  await recordToolSets(
    client,
    projectId,
    calls.map((c) => c.event),
  );
  if (alsoPair.length) await pairRuns(client, projectId, alsoPair);
  return { accepted: inserted.length, duplicates: checked.duplicates + calls.length - inserted.length, rejected: checked.rejected, inserted };
}

/**
 * ingest.batch: the events are checked and classified, and the good ones written in one
 * transaction. The answer is sent only after the commit, so an accepted event is durable.
 */
export async function ingestBatch(projectId: string, events: unknown[]): Promise<IngestResult> {
  if (events.length > MAX_EVENTS_PER_BATCH) {
    throw invalid(
      `A batch holds at most ${formatCount(MAX_EVENTS_PER_BATCH)} events; this one has ${formatCount(events.length)}. Split it into batches of ${formatCount(MAX_EVENTS_PER_BATCH)} or fewer.`,
    );
  }
  const checked = await checkEvents(events, registryResolver(await loadToolVersions(projectId)));
  const { inserted: _inserted, ...result } = await inTransaction((client) => ingestCalls(client, projectId, checked));
  return result;
}
