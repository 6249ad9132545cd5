import { eventSchema, MAX_EVENTS_PER_BATCH, type IngestResult, type RejectedEvent } from "../../../contracts/event";
import { describeIssues, issueLine } from "../../../contracts/issues";
import { invalid } from "../../domain/errors";
import type { PoolClient } from "pg";
import { timeSlicer } from "../../domain/time-slice";
import { cancelWhenRequestGone } from "../../db/cancel";
import { pool } from "../../db/client";
import { registryResolver, verdictFor } from "../../domain/verdicts";
import { loadToolVersions } from "../tools/registry";
import { writeCalls, type PreparedCall } from "./write-calls";

/**
 * ingest.batch: each event is checked on its own (one bad event never sinks the rest),
 * classified, and the good ones are written in one transaction. The answer is sent
 * only after the commit, so an accepted event is durable.
 */
export async function ingestBatch(projectId: string, events: unknown[]): Promise<IngestResult> {
  if (events.length > MAX_EVENTS_PER_BATCH) {
    throw invalid(
      `A batch holds at most ${MAX_EVENTS_PER_BATCH.toLocaleString("en")} events; this one has ${events.length.toLocaleString("en")}. Split it into batches of ${MAX_EVENTS_PER_BATCH.toLocaleString("en")} or fewer.`,
    );
  }
  const rejected: RejectedEvent[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const registry = registryResolver(await loadToolVersions(projectId));
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

  const accepted = await writeInTransaction(projectId, calls);
  return { accepted, duplicates: duplicates + calls.length - accepted, rejected };
}

const DEADLOCK = "40P01";

/**
 * Concurrent batches that touch the same runs update each other's calls (pairing) and
 * rollup rows; PostgreSQL may then abort one of them as a deadlock. Nothing of it was
 * written, so it is simply tried again.
 */
const writeInTransaction = (projectId: string, calls: PreparedCall[]) => inTransaction((client) => writeCalls(client, projectId, calls));

/** Runs `work` in a transaction of its own, tried again (up to three times) when PostgreSQL aborts it as a deadlock. */
export async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool().connect();
    const detach = cancelWhenRequestGone(client);
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if ((error as { code?: string }).code !== DEADLOCK || attempt === 3) throw error;
    } finally {
      detach();
      client.release();
    }
  }
}
