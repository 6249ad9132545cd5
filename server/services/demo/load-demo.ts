import { MAX_EVENTS_PER_BATCH } from "../../../contracts/event";
import { prisma } from "../../db/client";
import { schemaVersion } from "../../domain/schema-version";
import { DEMO_SCHEMA_FIX, DEMO_TOOLS, generateDemoEvents, SCHEMA_FIX_DAYS_AGO, type DemoOptions } from "./demo-data";
import { ingestBatch } from "../ingest/ingest-batch";
import { ingestTraces } from "../otlp/traces-source";
import { demoConversationSpans } from "./demo-conversation";
import { registerTools } from "../tools/registry";
import { withProjectShare, type ProjectRef } from "../tenancy/shares";
import { DAY_MS } from "../../../contracts/metrics";

export type DemoLoadResult = { events: number; accepted: number; duplicates: number; rejected: number };

/**
 * Fills a project with demo traffic (server/domain/demo-data.ts): registers the demo tools,
 * then sends the events through the same ingestion as `ingest.batch`, 1,000 at a time, and one
 * run's model-call spans through OTLP ingestion (demo-conversation.ts: a run with its conversation).
 * Event ids are deterministic, so loading again counts duplicates instead of adding events.
 * Each step (the tools, then every batch) takes a turn of the project's share of heavy
 * operations, as the same requests from a harness would: a burst of loads (a refresh clicked
 * in many tabs) waits its turn or gets 429 instead of crowding out other work.
 */
export async function loadDemoData(project: ProjectRef, options: DemoOptions): Promise<DemoLoadResult> {
  const projectId = project.id;
  await withProjectShare(project, "demo load", () => registerDemoTools(projectId, options));
  const events = generateDemoEvents(options);
  const total: DemoLoadResult = { events: events.length, accepted: 0, duplicates: 0, rejected: 0 };
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH) {
    const result = await withProjectShare(project, "demo load", () => ingestBatch(projectId, events.slice(i, i + MAX_EVENTS_PER_BATCH)));
    total.accepted += result.accepted;
    total.duplicates += result.duplicates;
    total.rejected += result.rejected.length;
  }
  // one run as an instrumented agent sends it over OTLP, with its conversation (the run page's Conversation section)
  const conversation = await withProjectShare(project, "demo load", () => ingestTraces(projectId, { spans: demoConversationSpans(options.now), problems: [] }));
  total.events += conversation.accepted + conversation.duplicates + conversation.rejected.length;
  total.accepted += conversation.accepted;
  total.duplicates += conversation.duplicates;
  total.rejected += conversation.rejected.length;
  return total;
}

async function registerDemoTools(projectId: string, options: DemoOptions) {
  await registerTools(projectId, DEMO_TOOLS);
  // The schemas as of the first demo day, and getloan's clearer description from SCHEMA_FIX_DAYS_AGO on
  // (registered before the calls go in: ingestion checks each call against the newest version).
  await registerTools(projectId, [DEMO_SCHEMA_FIX]);
  const day = DAY_MS;
  const now = options.now.getTime();
  await prisma().toolDefinition.updateMany({
    where: { projectId, OR: DEMO_TOOLS.map((t) => ({ name: t.name, version: schemaVersion(t.parameters) })) },
    data: { firstSeenAt: new Date(now - Math.max(options.days ?? 30, SCHEMA_FIX_DAYS_AGO + 1) * day) },
  });
  await prisma().toolDefinition.updateMany({
    where: { projectId, name: DEMO_SCHEMA_FIX.name, version: schemaVersion(DEMO_SCHEMA_FIX.parameters) },
    data: { firstSeenAt: new Date(now - SCHEMA_FIX_DAYS_AGO * day) },
  });
}
