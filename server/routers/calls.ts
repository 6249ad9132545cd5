import { z } from "zod";
import { callsFilterInput } from "../../contracts/metrics";
import { callById } from "../services/calls/call-detail";
import { listCalls, runTimeline } from "../services/calls/call-list";
import { notFound } from "../domain/errors";
import { projectProcedure, router } from "../trpc/init";

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
    .input(z.object({ id: z.string().min(1).max(128) }))
    .query(({ ctx, input }) => callById(ctx.project.id, input.id)),
  run: projectProcedure("viewer")
    .input(z.object({ runId: z.string().min(1).max(256) }))
    .query(async ({ ctx, input }) => (await runTimeline(ctx.project.id, input.runId)) ?? Promise.reject(notFound(`No run "${input.runId}" in this project.`))),
});
