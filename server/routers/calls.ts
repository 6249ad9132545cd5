import { z } from "zod";
import { callsFilterInput } from "../../contracts/metrics";
import { eventSchema } from "../../contracts/event";
import { callById } from "../services/calls/call-detail";
import { listCalls, runTimeline } from "../services/calls/call-list";
import { notFound } from "../domain/errors";
import { runConversation } from "../services/runs/conversation";
import { callOutput, runOutput } from "../../contracts/api-answers";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyProcedure, projectProcedure, router } from "../trpc/init";

// the event contract's own rules for the ids (length, text PostgreSQL can store)
const callId = z.object({ id: eventSchema.shape.id });
const runId = z.object({ runId: eventSchema.shape.runId });
const run = async (projectId: string, id: string) => (await runTimeline(projectId, id)) ?? Promise.reject(notFound(`No run "${id}" in this project.`));

export const callsRouter = router({
  list: projectProcedure("viewer")
    .input(
      z.object({
        filter: callsFilterInput,
        cursor: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(200).default(50),
        order: z.enum(["newest", "oldest"]).default("newest"),
      }),
    )
    .query(({ ctx, input }) => listCalls(ctx.project.id, input.filter, input.cursor, input.limit, input.order)),
  byId: projectProcedure("viewer")
    .input(callId)
    .query(({ ctx, input }) => callById(ctx.project.id, input.id)),
  run: projectProcedure("viewer")
    .input(runId)
    .query(({ ctx, input }) => run(ctx.project.id, input.runId)),
  /** A run's conversation (the messages its model calls were given and answered, as OTLP delivered them), for the run page. */
  conversation: projectProcedure("viewer")
    .input(runId)
    .query(({ ctx, input }) => runConversation(ctx.project.id, input.runId)),
  /** For read API keys (an agent, Toolgate's MCP server): one call with the model's correction, as the call page shows it. */
  get: apiKeyProcedure("read")
    .input(callId)
    .output(callOutput)
    .query(({ ctx, input }) => withProjectShare(ctx.project, "calls.get", () => callById(ctx.project.id, input.id))),
  /** For read API keys: a run's calls in order (at most 5,000). */
  getRun: apiKeyProcedure("read")
    .input(runId)
    .output(runOutput)
    .query(({ ctx, input }) => withProjectShare(ctx.project, "calls.getRun", () => run(ctx.project.id, input.runId))),
});
