import { MAX_EVENTS_PER_BATCH } from "../../../contracts/event";
import { DEMO_TOOLS, generateDemoEvents, type DemoOptions } from "./demo-data";
import { ingestBatch } from "../ingest/ingest-batch";
import { registerTools } from "../tools/registry";

export type DemoLoadResult = { events: number; accepted: number; duplicates: number; rejected: number };

/**
 * Fills a project with demo traffic (server/domain/demo-data.ts): registers the demo tools,
 * then sends the events through the same ingestion as `ingest.batch`, 1,000 at a time.
 * Event ids are deterministic, so loading again counts duplicates instead of adding events.
 */
export async function loadDemoData(projectId: string, options: DemoOptions): Promise<DemoLoadResult> {
  await registerTools(projectId, DEMO_TOOLS);
  const events = generateDemoEvents(options);
  const total: DemoLoadResult = { events: events.length, accepted: 0, duplicates: 0, rejected: 0 };
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH) {
    const result = await ingestBatch(projectId, events.slice(i, i + MAX_EVENTS_PER_BATCH));
    total.accepted += result.accepted;
    total.duplicates += result.duplicates;
    total.rejected += result.rejected.length;
  }
  return total;
}
