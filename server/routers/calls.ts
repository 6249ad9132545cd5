import { z } from "zod";
import { callById } from "../services/calls/call-detail";
import { projectProcedure, router } from "../trpc/init";

export const callsRouter = router({
  byId: projectProcedure("viewer")
    .input(z.object({ id: z.string().min(1).max(128) }))
    .query(({ ctx, input }) => callById(ctx.project.id, input.id)),
});
