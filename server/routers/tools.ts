import { registerToolsInput, validateCallInput } from "../../contracts/tools";
import { listTools, registerTools, validateCall } from "../services/tools/registry";
import { apiKeyProcedure, projectProcedure, router } from "../trpc/init";

export const toolsRouter = router({
  /** Harnesses register their tools' JSON Schemas; a changed schema becomes a new version. */
  register: apiKeyProcedure.input(registerToolsInput).mutation(async ({ ctx, input }) => ({
    tools: await registerTools(ctx.project.id, input.tools),
  })),
  /** The verdict ingestion would store for this request. */
  validate: apiKeyProcedure.input(validateCallInput).mutation(({ ctx, input }) => validateCall(ctx.project.id, input)),
  /** Signed-in admins register schemas from the UI (same rules as the API). */
  registerFromUi: projectProcedure("admin")
    .input(registerToolsInput)
    .mutation(async ({ ctx, input }) => ({
      tools: await registerTools(ctx.project.id, input.tools),
    })),
  list: projectProcedure("viewer").query(({ ctx }) => listTools(ctx.project.id)),
});
