import { ingestBatchInput } from "../../contracts/event";
import { ingestBatch } from "../services/ingest/ingest-batch";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyProcedure, router } from "../trpc/init";

export const ingestRouter = router({
  /** Harnesses: up to 1,000 tool-call events; answers accepted, duplicates and every rejected event. */
  batch: apiKeyProcedure("ingest")
    .input(ingestBatchInput)
    .mutation(({ ctx, input }) => withProjectShare(ctx.project, "ingest.batch", () => ingestBatch(ctx.project.id, input.events))),
});
