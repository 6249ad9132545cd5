import { z } from "zod";
import { apiKeyNameSchema, apiKeyScopeSchema } from "../../contracts/accounts";
import { createApiKey, listApiKeys, revokeApiKey } from "../services/auth/api-keys";
import { projectProcedure, router } from "../trpc/init";

export const apiKeysRouter = router({
  list: projectProcedure("admin").query(({ ctx }) => listApiKeys(ctx.project.id)),
  /** The only answer that ever holds the whole key. */
  create: projectProcedure("admin")
    .input(z.object({ name: apiKeyNameSchema, scope: apiKeyScopeSchema.default("ingest") }))
    .mutation(({ ctx, input }) => createApiKey(ctx.project.id, input.name, input.scope)),
  revoke: projectProcedure("admin")
    .input(z.object({ keyId: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      await revokeApiKey(ctx.project.id, input.keyId);
      return { ok: true };
    }),
});
