import { z } from "zod";
import { webhookInput } from "../../contracts/alerts";
import { createWebhook, deleteWebhook, listWebhooks, sendTestWebhook } from "../services/alerts/webhooks";
import { projectProcedure, router } from "../trpc/init";

export const webhooksRouter = router({
  list: projectProcedure("admin").query(({ ctx }) => listWebhooks(ctx.project.id)),
  create: projectProcedure("admin")
    .input(webhookInput)
    .mutation(({ ctx, input }) => createWebhook(ctx.project.id, input.name, input.url)),
  delete: projectProcedure("admin")
    .input(z.object({ id: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook(ctx.project.id, input.id);
      return { ok: true };
    }),
  sendTest: projectProcedure("admin")
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => sendTestWebhook(ctx.project.id, input.id, ctx.project)),
});
