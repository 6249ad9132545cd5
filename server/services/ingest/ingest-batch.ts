import { MAX_EVENTS_PER_BATCH, type IngestResult } from "../../../contracts/event";
import { invalid } from "../../domain/errors";
import { registryResolver } from "../../domain/verdicts";
import { loadToolVersions } from "../tools/registry";
import { formatCount } from "../../../contracts/format-number";
import { ingest } from "./pipeline";

/**
 * ingest.batch (the SDKs and the MCP gateway send their events through it): a source whose
 * events are the batch itself, gated before the transaction; its answer is the pipeline's
 * outcome as the tRPC answer gives it (rejections by index, path and message).
 */
export async function ingestBatch(projectId: string, events: unknown[]): Promise<IngestResult> {
  if (events.length > MAX_EVENTS_PER_BATCH) {
    throw invalid(
      `A batch holds at most ${formatCount(MAX_EVENTS_PER_BATCH)} events; this one has ${formatCount(events.length)}. Split it into batches of ${formatCount(MAX_EVENTS_PER_BATCH)} or fewer.`,
    );
  }
  return ingest(projectId, {
    before: async () => ({ events, registry: registryResolver(await loadToolVersions(projectId)) }),
    answer: async (_client, outcomes) => ({
      accepted: outcomes[0]?.accepted ?? 0,
      duplicates: outcomes[0]?.duplicates ?? 0,
      rejected: outcomes[0]?.rejected ?? [],
    }),
  });
}
